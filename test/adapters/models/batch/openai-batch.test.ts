import { describe, expect, test } from 'vitest'
import { openaiBatchResult } from '../../../../adapters/models/batch/openai-batch.ts'
import type { ChatReply } from '../../../../adapters/models/model-adapter.ts'

/** One line of an OpenAI batch output file, as its docs show it, around a chat completion's message and usage. */
function outputLine(message: Record<string, unknown>, usage?: Record<string, unknown>): string {
  const body = {
    id: 'chatcmpl-made-up',
    object: 'chat.completion',
    created: 1_790_000_000,
    model: 'gpt-made-up',
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop' }],
    ...(usage === undefined ? {} : { usage }),
  }
  return JSON.stringify({
    id: 'batch_req_1',
    custom_id: 'key-1',
    response: { status_code: 200, request_id: 'req_1', body },
    error: null,
  })
}

function replyOf(line: string): ChatReply {
  const result = openaiBatchResult(line)
  if (!('reply' in result)) throw new Error(`expected a reply, got ${JSON.stringify(result)}`)
  return result.reply
}

describe('a line of an OpenAI-style batch output file', () => {
  test("a refusal in place of content is the reply's text", () => {
    const reply = replyOf(outputLine({ content: null, refusal: 'I can not help with that.' }))
    expect(reply.text).toBe('I can not help with that.')
  })

  test('content as typed parts (Mistral) gives the text and the thinking apart', () => {
    const content = [
      { type: 'thinking', thinking: [{ type: 'text', text: 'Two and two.' }] },
      { type: 'text', text: '<ANSWER>4</ANSWER>' },
    ]
    const reply = replyOf(outputLine({ content }))
    expect(reply.text).toBe('<ANSWER>4</ANSWER>')
    expect(reply.reasoning).toBe('Two and two.')
  })

  test('reasoning under its server’s name, and tokens by kind', () => {
    const usage = {
      prompt_tokens: 120,
      completion_tokens: 300,
      total_tokens: 420,
      prompt_tokens_details: { cached_tokens: 100 },
      completion_tokens_details: { reasoning_tokens: 250 },
    }
    const reply = replyOf(outputLine({ content: '42', reasoning_content: 'Think.' }, usage))
    expect(reply).toMatchObject({ text: '42', reasoning: 'Think.', finishReason: 'stop' })
    expect(reply.tokens).toMatchObject({ prompt: 120, completion: 300, reasoning: 250, cacheRead: 100 })
  })

  test('a request the batch could not answer is an error, never an empty reply', () => {
    const failed = JSON.stringify({
      id: 'batch_req_2',
      custom_id: 'key-2',
      response: { status_code: 400, body: { error: { message: 'Invalid model' } } },
      error: null,
    })
    expect(openaiBatchResult(failed)).toEqual({ key: 'key-2', error: 'HTTP 400: Invalid model' })
  })
})
