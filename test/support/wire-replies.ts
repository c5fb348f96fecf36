import type { WireProtocol } from '../../adapters/models/wire-check.ts'
import type { SeenRequest } from './loopback-server.ts'

/** A streamed reply as the bytes each protocol sends, one frame (SSE event or NDJSON line) per entry. */
export interface StreamedReply {
  contentType: string
  frames: string[]
}

export interface ReplyShape {
  /** How the model ended the reply, in the protocol's own words; each protocol's usual one by default. */
  finishReason?: string
  /** Into how many content frames the text is split. */
  pieces?: number
}

const DEFAULT_FINISH: Record<WireProtocol, string> = { openai: 'stop', ollama: 'stop', anthropic: 'end_turn', gemini: 'STOP' }

/** The frames of a whole reply of `text` for a request to `path`, ending with the protocol's end marker. */
export function streamedReply(protocol: WireProtocol, path: string, text: string, shape: ReplyShape = {}): StreamedReply {
  const parts = split(text, shape.pieces ?? 3)
  const finish = shape.finishReason ?? DEFAULT_FINISH[protocol]
  switch (protocol) {
    case 'openai':
      return path.includes('/chat/') ? openaiChat(parts, finish) : openaiCompletion(parts, finish)
    case 'ollama':
      return ollama(parts, finish, path.endsWith('/api/generate'))
    case 'anthropic':
      return anthropic(parts, finish)
    case 'gemini':
      return gemini(parts, finish)
  }
}

/** The prompt's last user text, wherever the protocol puts it. */
export function promptOf(protocol: WireProtocol, request: SeenRequest): string {
  const body = JSON.parse(request.body) as Record<string, unknown>
  if (typeof body.prompt === 'string') return body.prompt
  if (protocol === 'gemini') {
    const contents = body.contents as Array<{ role: string; parts: Array<{ text?: string }> }>
    return contents.findLast((content) => content.role === 'user')?.parts.map((part) => part.text ?? '').join('') ?? ''
  }
  const messages = body.messages as Array<{ role: string; content: string | Array<{ type: string; text?: string }> }>
  const last = messages.findLast((message) => message.role === 'user')?.content ?? ''
  return typeof last === 'string' ? last : last.map((block) => block.text ?? '').join('')
}

function split(text: string, pieces: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / pieces))
  const parts: string[] = []
  for (let start = 0; start < text.length; start += size) parts.push(text.slice(start, start + size))
  return parts.length > 0 ? parts : ['']
}

const sse = (data: unknown, event?: string): string =>
  `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`
const SSE = 'text/event-stream'

function openaiChat(parts: string[], finish: string): StreamedReply {
  const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 0, model: 'fake' }
  const chunk = (delta: Record<string, string>, finishReason: string | null) => sse({ ...base, choices: [{ index: 0, delta, finish_reason: finishReason }] })
  return {
    contentType: SSE,
    frames: [
      chunk({ role: 'assistant' }, null),
      ...parts.map((part) => chunk({ content: part }, null)),
      chunk({}, finish),
      sse({ ...base, choices: [], usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 } }),
      sse('[DONE]'),
    ],
  }
}

function openaiCompletion(parts: string[], finish: string): StreamedReply {
  const chunk = (text: string, finishReason: string | null) =>
    sse({ id: 'cmpl-1', object: 'text_completion', created: 0, model: 'fake', choices: [{ index: 0, text, finish_reason: finishReason }] })
  return { contentType: SSE, frames: [...parts.map((part) => chunk(part, null)), chunk('', finish), sse('[DONE]')] }
}

function ollama(parts: string[], finish: string, generate: boolean): StreamedReply {
  const line = (value: unknown) => `${JSON.stringify(value)}\n`
  const body = (text: string) => (generate ? { response: text } : { message: { role: 'assistant', content: text } })
  const head = { model: 'fake', created_at: '2026-01-01T00:00:00Z' }
  return {
    contentType: 'application/x-ndjson',
    frames: [
      ...parts.map((part) => line({ ...head, ...body(part), done: false })),
      line({ ...head, ...body(''), done: true, done_reason: finish, prompt_eval_count: 11, eval_count: 7 }),
    ],
  }
}

function anthropic(parts: string[], finish: string): StreamedReply {
  const message = { id: 'msg_1', type: 'message', role: 'assistant', model: 'fake', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 11, output_tokens: 1 } }
  const event = (type: string, fields: Record<string, unknown> = {}) => sse({ type, ...fields }, type)
  return {
    contentType: SSE,
    frames: [
      event('message_start', { message }),
      event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
      ...parts.map((part) => event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: part } })),
      event('content_block_stop', { index: 0 }),
      event('message_delta', { delta: { stop_reason: finish, stop_sequence: null }, usage: { output_tokens: 7 } }),
      event('message_stop'),
    ],
  }
}

function gemini(parts: string[], finish: string): StreamedReply {
  const chunk = (text: string, last: boolean) =>
    `data: ${JSON.stringify({
      candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0, ...(last ? { finishReason: finish } : {}) }],
      ...(last ? { usageMetadata: { promptTokenCount: 11, candidatesTokenCount: 7, totalTokenCount: 18 } } : {}),
      modelVersion: 'fake-001',
    })}\r\n\r\n`
  return { contentType: SSE, frames: parts.map((part, index) => chunk(part, index === parts.length - 1)) }
}
