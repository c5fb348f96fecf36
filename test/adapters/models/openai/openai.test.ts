import { afterEach, describe, expect, test } from 'vitest'
import { OpenAIAdapter, openaiEndpoint } from '../../../../adapters/models/openai/openai.ts'
import { ProviderError } from '../../../../adapters/models/model-adapter.ts'
import { chatRequest } from '../../../support/chat-request.ts'
import { openaiChatHandler, streamChatCompletion } from '../../../support/fake-openai.ts'
import { sendEvents, sendJson, startLoopbackServer, type LoopbackServer } from '../../../support/loopback-server.ts'

let server: LoopbackServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

function adapterFor(url: string, env: NodeJS.ProcessEnv = {}): OpenAIAdapter {
  const fullEnv = { OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: 'test-key', TESTBENCH_RETRIES: '3', ...env }
  return new OpenAIAdapter('fake-model', openaiEndpoint(fullEnv), fullEnv)
}

describe('openai adapter', () => {
  test('streams a chat reply through the SDK and reports usage and reasoning', async () => {
    server = await startLoopbackServer((request, response) => {
      if (request.path === '/v1/chat/completions')
        streamChatCompletion(response, 'The answer is 42.', { reasoning_content: 'Let me think.' })
      else sendJson(response, 404, {})
    })
    const reply = await adapterFor(server.url).chat(
      chatRequest('What is 6 × 7?', { params: { temperature: 0, maxTokens: 100, seed: 42 } }),
    )
    expect(reply.text).toBe('The answer is 42.')
    expect(reply.reasoning).toBe('Let me think.')
    expect(reply.tokens).toEqual({ prompt: 11, completion: 7 })
    const sent = JSON.parse(server.seen[0]?.body ?? '{}')
    expect(sent).toMatchObject({ model: 'fake-model', stream: true, temperature: 0, seed: 42, max_tokens: 100 })
    expect(sent.messages).toEqual([{ role: 'user', content: 'What is 6 × 7?' }])
    expect(server.seen[0]?.headers.authorization).toBe('Bearer test-key')
  })

  test('continues a raw prompt through /v1/completions in completion mode', async () => {
    server = await startLoopbackServer((request, response) => {
      const chunk = (text: string, finish: string | null = null) => ({
        id: 'c',
        object: 'text_completion',
        created: 0,
        model: 'fake',
        choices: [{ index: 0, text, finish_reason: finish }],
      })
      if (request.path === '/v1/completions')
        sendEvents(response, [{ data: chunk('    return ') }, { data: chunk('a + b\n', 'length') }, { data: '[DONE]' }])
      else sendJson(response, 404, {})
    })
    const reply = await adapterFor(server.url).chat(
      chatRequest('def add(a, b):\n', { mode: 'completion', params: { stop: ['\ndef'] } }),
    )
    expect(reply).toMatchObject({ text: '    return a + b\n', finishReason: 'length' })
    expect(JSON.parse(server.seen[0]?.body ?? '{}')).toMatchObject({ prompt: 'def add(a, b):\n', stop: ['\ndef'] })
  })

  test('waits as Retry-After says on 429, then succeeds', async () => {
    let calls = 0
    server = await startLoopbackServer((_request, response) => {
      calls++
      if (calls === 1) sendJson(response, 429, { error: { message: 'slow down' } }, { 'retry-after': '1' })
      else streamChatCompletion(response, 'ok')
    })
    const started = performance.now()
    const reply = await adapterFor(server.url).chat(chatRequest('hi'))
    expect(reply.text).toBe('ok')
    expect(calls).toBe(2)
    expect(performance.now() - started).toBeGreaterThanOrEqual(950)
  })

  test('retries a dropped connection and a 503', async () => {
    let calls = 0
    server = await startLoopbackServer((_request, response) => {
      calls++
      if (calls === 1) response.socket?.destroy()
      else if (calls === 2) sendJson(response, 503, { error: { message: 'overloaded' } }, { 'retry-after': '0' })
      else streamChatCompletion(response, 'back')
    })
    const reply = await adapterFor(server.url).chat(chatRequest('hi'))
    expect(reply.text).toBe('back')
    expect(calls).toBe(3)
  })

  test('does not retry a 400: the request itself is wrong', async () => {
    server = await startLoopbackServer((_request, response) =>
      sendJson(response, 400, { error: { message: 'bad temperature' } }),
    )
    const failure = adapterFor(server.url).chat(chatRequest('hi'))
    await expect(failure).rejects.toThrow(ProviderError)
    await expect(failure).rejects.toThrow(/item item-1 \(HTTP 400\).*bad temperature/)
    expect(server.seen).toHaveLength(1)
  })

  test('gives up after the request timeout, naming the limit', async () => {
    server = await startLoopbackServer(() => {
      // Never answers.
    })
    const failure = adapterFor(server.url, { TESTBENCH_REQUEST_TIMEOUT: '1', TESTBENCH_RETRIES: '0' }).chat(
      chatRequest('hi'),
    )
    await expect(failure).rejects.toThrow(/no complete answer for item item-1 within 1 s \(TESTBENCH_REQUEST_TIMEOUT\)/)
  })

  test('the up-front check names an unknown model and lists what the server has', async () => {
    server = await startLoopbackServer(openaiChatHandler(['llama-3.1-8b', 'qwen2.5-7b'], () => ''))
    await expect(adapterFor(server.url).preflight()).rejects.toThrow(
      /has no model "fake-model".*llama-3\.1-8b, qwen2\.5-7b/,
    )
  })

  test('the up-front check says where the server was not reachable', async () => {
    server = await startLoopbackServer(() => undefined)
    const { url } = server
    await server.close()
    server = undefined
    await expect(adapterFor(url).preflight()).rejects.toThrow(new RegExp(`not reachable at ${url}/v1: ECONNREFUSED`))
  })

  test('the official API needs a key', () => {
    expect(() => new OpenAIAdapter('gpt-4o', openaiEndpoint({}), {})).toThrow(/set OPENAI_API_KEY/)
  })
})
