import { afterEach, describe, expect, test } from 'vitest'
import { AnthropicAdapter } from '../../../../adapters/models/anthropic/anthropic.ts'
import { chatRequest } from '../../../support/chat-request.ts'
import { sendEvents, sendJson, startLoopbackServer, type LoopbackServer } from '../../../support/loopback-server.ts'

let server: LoopbackServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

function streamedMessage(text: string, thinking: string) {
  const message = {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-test',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 21, output_tokens: 1 },
  }
  return [
    { event: 'message_start', data: { type: 'message_start', message } },
    {
      event: 'content_block_start',
      data: { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
    },
    {
      event: 'content_block_delta',
      data: { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking } },
    },
    { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
    {
      event: 'content_block_start',
      data: { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
    },
    {
      event: 'content_block_delta',
      data: { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text } },
    },
    { event: 'content_block_stop', data: { type: 'content_block_stop', index: 1 } },
    {
      event: 'message_delta',
      data: {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { output_tokens: 15 },
      },
    },
    { event: 'message_stop', data: { type: 'message_stop' } },
  ]
}

describe('anthropic adapter', () => {
  test('streams /v1/messages, with the system prompt apart and thinking separated', async () => {
    server = await startLoopbackServer((request, response) => {
      if (request.path === '/v1/messages') sendEvents(response, streamedMessage('Paris.', 'The capital of France.'))
      else sendJson(response, 404, {})
    })
    const adapter = new AnthropicAdapter('claude-test', {
      ANTHROPIC_API_KEY: 'sk-test',
      ANTHROPIC_BASE_URL: server.url,
    })
    const reply = await adapter.chat(
      chatRequest('', {
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Capital of France?' },
        ],
      }),
    )
    expect(reply).toMatchObject({
      text: 'Paris.',
      reasoning: 'The capital of France.',
      tokens: { prompt: 21, completion: 15 },
    })
    const sent = JSON.parse(server.seen[0]?.body ?? '{}')
    expect(sent).toMatchObject({ model: 'claude-test', system: 'Be brief.', max_tokens: 8192, stream: true })
    expect(sent.messages).toEqual([{ role: 'user', content: 'Capital of France?' }])
    const headers = server.seen[0]?.headers ?? {}
    expect(`${headers['x-api-key'] ?? ''} ${headers.authorization ?? ''}`).toContain('sk-test')
  })

  test('an unknown model is named up front', async () => {
    server = await startLoopbackServer((_request, response) =>
      sendJson(response, 404, { type: 'error', error: { type: 'not_found_error', message: 'model: claude-nope' } }),
    )
    const adapter = new AnthropicAdapter('claude-nope', {
      ANTHROPIC_API_KEY: 'sk-test',
      ANTHROPIC_BASE_URL: server.url,
    })
    await expect(adapter.preflight()).rejects.toThrow(/Anthropic has no model "claude-nope"/)
  })

  test('a missing key is a clear error', () => {
    expect(() => new AnthropicAdapter('claude-test', {})).toThrow(/set ANTHROPIC_API_KEY/)
  })
})
