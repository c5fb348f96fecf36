import { describe, expect, test } from 'vitest'
import { openaiBatchResult } from '../../../../adapters/models/openai/openai-batch.ts'
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

/** One line of a `/v1/responses` batch's output file: a whole Response object, as OpenAI's reference shows one. */
function responseLine(body: Record<string, unknown>): string {
  return JSON.stringify({
    id: 'batch_req_3',
    custom_id: 'key-3',
    response: { status_code: 200, request_id: 'req_3', body: { id: 'resp_1', object: 'response', ...body } },
    error: null,
  })
}

describe('a line of a /v1/responses batch output file', () => {
  test('messages, reasoning summary, usage by kind, and the reasoning item kept for a next turn', () => {
    const reply = replyOf(
      responseLine({
        status: 'completed',
        output: [
          {
            id: 'rs_1',
            type: 'reasoning',
            summary: [{ type: 'summary_text', text: 'Add them.' }],
            encrypted_content: 'enc',
          },
          { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: '4' }] },
        ],
        usage: {
          input_tokens: 30,
          input_tokens_details: { cached_tokens: 10 },
          output_tokens: 50,
          output_tokens_details: { reasoning_tokens: 40 },
          total_tokens: 80,
        },
      }),
    )
    expect(reply).toMatchObject({ text: '4', reasoning: 'Add them.', finishReason: 'completed' })
    expect(reply.tokens).toEqual({ prompt: 30, completion: 50, reasoning: 40, cacheRead: 10 })
    expect(reply.sendBack?.output).toEqual([
      {
        type: 'reasoning',
        id: 'rs_1',
        summary: [{ type: 'summary_text', text: 'Add them.' }],
        encrypted_content: 'enc',
      },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: '4' }] },
    ])
  })

  test('a response cut at max_output_tokens is a reply that says so; a failed one is an error', () => {
    const cut = replyOf(
      responseLine({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output: [] }),
    )
    expect(cut).toMatchObject({ text: '', finishReason: 'max_output_tokens' })
    const failed = responseLine({ status: 'failed', error: { code: 'server_error', message: 'boom' }, output: [] })
    expect(openaiBatchResult(failed)).toEqual({ key: 'key-3', error: 'server_error: boom' })
  })
})
