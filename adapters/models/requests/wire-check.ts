/**
 * Reads a streamed reply's bytes as they arrive, beside the SDK, and says whether
 * the reply is whole: every frame well-formed JSON, and the protocol's own end
 * marker seen. SDKs differ in what they forgive (ollama-js skips a broken line,
 * openai ends quietly without `[DONE]`), so the harness does not rely on them for this.
 */

export type WireProtocol = 'openai' | 'openai-responses' | 'ollama' | 'anthropic' | 'gemini'

export interface WireVerdict {
  /** What makes the reply incomplete, in words; undefined when it is whole. */
  missing?: string
  /** The reason the model gave for ending (`stop`, `length`, `end_turn`, `MAX_TOKENS`…). */
  finishReason?: string
}

export interface WireCheck {
  feed(bytes: Uint8Array): void
  end(): WireVerdict
}

/** What each protocol sends last, in the words of the error message. */
export const TERMINATORS: Record<WireProtocol, string> = {
  openai: 'a finish_reason or data: [DONE]',
  'openai-responses': 'response.completed, response.incomplete or response.failed',
  ollama: 'a line with "done": true',
  anthropic: 'the message_stop event',
  gemini: 'a candidate with a finishReason',
}

type FrameReader = (payload: string) => { end?: boolean; finishReason?: string }

const frameReaders: Record<WireProtocol, FrameReader> = {
  openai: (payload) => {
    if (payload === '[DONE]') return { end: true }
    const reason = objectAt(parseJson(payload), 'choices', 0)?.finish_reason
    return typeof reason === 'string' ? { finishReason: reason } : {}
  },
  'openai-responses': (payload) => responsesEnd(parseJson(payload)),
  ollama: (payload) => {
    const line = parseJson(payload)
    if (line.done !== true) return {}
    return typeof line.done_reason === 'string' ? { end: true, finishReason: line.done_reason } : { end: true }
  },
  anthropic: (payload) => {
    const event = parseJson(payload)
    if (event.type === 'message_stop') return { end: true }
    const reason = objectAt(event, 'delta')?.stop_reason
    return typeof reason === 'string' ? { finishReason: reason } : {}
  },
  gemini: (payload) => {
    const reason = objectAt(parseJson(payload), 'candidates', 0)?.finishReason
    return typeof reason === 'string' ? { end: true, finishReason: reason } : {}
  },
}

export function wireCheck(protocol: WireProtocol): WireCheck {
  const read = frameReaders[protocol]
  const decoder = new TextDecoder()
  const lineFramed = protocol === 'ollama'
  let buffer = ''
  let data: string[] = []
  let ended = false
  let finishReason: string | undefined
  let malformed: string | undefined
  /** A body with no SSE frame at all: a Responses endpoint that answered a streamed request with the whole Response object. */
  let unframed = ''
  let framed = false
  /** A line a server sent in place of the rest of an SSE stream: llama.cpp servers' `error: {...}`. */
  let serverError: string | undefined

  const frame = (payload: string): void => {
    framed = true
    if (ended || malformed !== undefined) return
    try {
      const seen = read(payload)
      finishReason = seen.finishReason ?? finishReason
      if (seen.end) ended = true
    } catch {
      malformed = `a malformed chunk (ending ${JSON.stringify(payload.length > 60 ? `…${payload.slice(-60)}` : payload)})`
    }
  }
  const line = (text: string): void => {
    const trimmed = text.endsWith('\r') ? text.slice(0, -1) : text
    if (lineFramed) {
      if (trimmed.trim() !== '') frame(trimmed)
    } else if (trimmed === '') {
      if (data.length > 0) frame(data.join('\n'))
      data = []
    } else if (trimmed.startsWith('data:')) {
      data.push(trimmed.slice(5).replace(/^ /, ''))
    } else if (trimmed.startsWith('error:') && !ended) {
      serverError ??= errorText(trimmed.slice(6).trim())
    }
  }

  return {
    feed(bytes) {
      const text = decoder.decode(bytes, { stream: true })
      if (protocol === 'openai-responses' && !framed) unframed += text
      buffer += text
      const lines = buffer.split('\n')
      buffer = lines.pop() ?? ''
      for (const each of lines) line(each)
    },
    end() {
      buffer += decoder.decode()
      if (buffer !== '') line(buffer)
      if (!lineFramed && data.length > 0) frame(data.join('\n'))
      if (protocol === 'openai-responses' && !framed) {
        const whole = wholeResponse(unframed)
        if (whole !== undefined) return whole
      }
      const verdict = finishReason === undefined ? {} : { finishReason }
      if (malformed !== undefined) return { ...verdict, missing: malformed }
      if (serverError !== undefined) return { missing: `the server sent an error in place of the rest: ${serverError}` }
      // A chat completion ends with `[DONE]`, and some servers stop at the chunk with the finish_reason (llama-box).
      const whole = ended || (protocol === 'openai' && finishReason !== undefined)
      return whole ? verdict : { ...verdict, missing: `the reply ended early, without ${TERMINATORS[protocol]}` }
    },
  }
}

/**
 * The Responses API's terminal events, each carrying the whole Response: `response.completed`, `response.incomplete`
 * (its `incomplete_details.reason`, `max_output_tokens` or `content_filter`, is how the reply ended) and
 * `response.failed` (an error the adapter reports). Data-only streams (OpenRouter's) are read by the payload's `type`.
 */
function responsesEnd(event: Record<string, unknown>): { end?: boolean; finishReason?: string } {
  if (event.type === 'response.completed') return { end: true, finishReason: 'completed' }
  if (event.type === 'response.failed') return { end: true, finishReason: 'failed' }
  if (event.type !== 'response.incomplete') return {}
  const reason = objectAt(objectAt(event, 'response') ?? {}, 'incomplete_details')?.reason
  return { end: true, finishReason: typeof reason === 'string' ? reason : 'incomplete' }
}

/** A non-streamed Response object (`object: "response"`) is whole as it is; its status says how it ended. */
function wholeResponse(text: string): WireVerdict | undefined {
  let body: Record<string, unknown>
  try {
    body = parseJson(text)
  } catch {
    return undefined
  }
  if (body.object !== 'response') return undefined
  if (body.status === 'completed') return { finishReason: 'completed' }
  const reason = objectAt(body, 'incomplete_details')?.reason
  return { finishReason: typeof reason === 'string' ? reason : String(body.status) }
}

/** The message of an error line's JSON, or its text. */
function errorText(text: string): string {
  try {
    const message = objectAt(parseJson(text), 'error')?.message
    if (typeof message === 'string') return message
  } catch {
    // Not JSON: the line says it in words.
  }
  return text.slice(0, 300)
}

function parseJson(payload: string): Record<string, unknown> {
  const value: unknown = JSON.parse(payload)
  if (typeof value !== 'object' || value === null) throw new SyntaxError('not a JSON object')
  return value as Record<string, unknown>
}

/** `value[key][index]` (or `value[key]` without an index) when it is an object. */
function objectAt(value: Record<string, unknown>, key: string, index?: number): Record<string, unknown> | undefined {
  let found: unknown = value[key]
  if (index !== undefined) found = Array.isArray(found) ? found[index] : undefined
  return typeof found === 'object' && found !== null ? (found as Record<string, unknown>) : undefined
}
