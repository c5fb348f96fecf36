import type { ServerResponse } from 'node:http'
import { sendEvents, sendJson, type SeenRequest } from './loopback-server.ts'

/** Answers `/v1/models` and streams a chat completion whose text the test chooses per request. */
export function openaiChatHandler(models: string[], answer: (request: SeenRequest) => string) {
  return (request: SeenRequest, response: ServerResponse): void => {
    if (request.path === '/v1/models') {
      sendJson(response, 200, {
        object: 'list',
        data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'test' })),
      })
      return
    }
    if (request.path === '/v1/chat/completions') {
      streamChatCompletion(response, answer(request))
      return
    }
    sendJson(response, 404, { error: { message: `no route ${request.path}` } })
  }
}

export function streamChatCompletion(
  response: ServerResponse,
  text: string,
  extraDelta: Record<string, string> = {},
): void {
  const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 0, model: 'fake' }
  const half = Math.ceil(text.length / 2)
  sendEvents(response, [
    { data: { ...base, choices: [{ index: 0, delta: { role: 'assistant', ...extraDelta }, finish_reason: null }] } },
    { data: { ...base, choices: [{ index: 0, delta: { content: text.slice(0, half) }, finish_reason: null }] } },
    { data: { ...base, choices: [{ index: 0, delta: { content: text.slice(half) }, finish_reason: 'stop' }] } },
    { data: { ...base, choices: [], usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 } } },
    { data: '[DONE]' },
  ])
}
