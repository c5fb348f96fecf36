import type { ServerResponse } from 'node:http'
import { sendJson, type SeenRequest } from './loopback-server.ts'
import { streamedReply, type ReplyShape } from './wire-replies.ts'

/** One scripted turn of a model asked through the Responses API. */
export type ResponsesTurn = { text: string } & ReplyShape

/** The Responses API's request body, as far as these tests read it. */
export interface ResponsesBody {
  model: string
  input: Array<Record<string, unknown>>
  store?: boolean
  include?: string[]
}

/**
 * Answers `/v1/models` with `models` and streams each `POST /v1/responses` as the turn `answer` gives for it (its
 * reasoning item, text and function calls, then `response.completed`); any other request is a 404, so a client that
 * asks Chat Completions instead fails.
 */
export function openaiResponsesHandler(
  models: string[],
  answer: (body: ResponsesBody, request: SeenRequest) => ResponsesTurn,
) {
  return (request: SeenRequest, response: ServerResponse): void => {
    if (request.path === '/v1/models') {
      sendJson(response, 200, {
        object: 'list',
        data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'test' })),
      })
      return
    }
    if (request.method === 'POST' && request.path === '/v1/responses') {
      const { text, ...shape } = answer(JSON.parse(request.body) as ResponsesBody, request)
      const reply = streamedReply('openai-responses', request.path, text, shape)
      response.writeHead(200, { 'content-type': reply.contentType })
      response.end(reply.frames.join(''))
      return
    }
    sendJson(response, 404, { error: { message: `no route ${request.method} ${request.path}` } })
  }
}

/** The model's earlier turns a stateless request carries: runs of its items (reasoning, messages, calls) in `input`. */
export function earlierTurns(body: ResponsesBody): number {
  let turns = 0
  let inTurn = false
  for (const item of body.input) {
    const model = item.type === 'reasoning' || item.type === 'function_call' || item.role === 'assistant'
    if (model && !inTurn) turns++
    inTurn = model
  }
  return turns
}

/** The user's last text in `input`, as a string or as input_text parts. */
export function lastUserText(body: ResponsesBody): string {
  const content = body.input.findLast((item) => item.role === 'user')?.content
  if (typeof content === 'string') return content
  return Array.isArray(content) ? content.map((part: { text?: string }) => part.text ?? '').join('') : ''
}

/** The reasoning items a request sends back, as (id, encrypted_content) pairs in order. */
export function reasoningSentBack(body: ResponsesBody): Array<[unknown, unknown]> {
  return body.input.filter((item) => item.type === 'reasoning').map((item) => [item.id, item.encrypted_content])
}
