import type { WireProtocol } from '../../adapters/models/requests/wire-check.ts'
import type { SeenRequest } from './loopback-server.ts'

/** A streamed reply as the bytes each protocol sends, one frame (SSE event or NDJSON line) per entry. */
export interface StreamedReply {
  contentType: string
  frames: string[]
  /** The index of the first frame that carries a tool call, when the reply has calls. */
  firstCallFrame?: number
}

export interface ReplyShape {
  /** How the model ended the reply, in the protocol's own words; each protocol's usual one by default. */
  finishReason?: string
  /** Into how many content frames the text is split. */
  pieces?: number
  /** Tool calls after the text, each in the protocol's streamed form (OpenAI's fragments of two calls interleave). */
  toolCalls?: readonly WireToolCall[]
  /**
   * Thinking with its signature, before the text: Anthropic's signed thinking block, Gemini's thought part and
   * thoughtSignature, the Responses API's reasoning item (its summary, `encrypted_content` and `id`, `rs_1` unless given).
   */
  thinking?: { text: string; signature: string; id?: string }
}

/** A tool call as a test scripts it; `id` and `signature` are sent only where the protocol has them. */
export interface WireToolCall {
  id?: string
  name: string
  /** JSON text; the protocols that send objects (Ollama, Gemini) need it to be valid. */
  arguments: string
  /** Gemini's thoughtSignature on the call's part. */
  signature?: string
}

const DEFAULT_FINISH: Record<WireProtocol, string> = {
  openai: 'stop',
  'openai-responses': 'completed',
  ollama: 'stop',
  anthropic: 'end_turn',
  gemini: 'STOP',
}
/** How each protocol ends a reply that calls tools. */
export const TOOL_CALL_FINISH: Record<WireProtocol, string> = {
  openai: 'tool_calls',
  'openai-responses': 'completed',
  ollama: 'stop',
  anthropic: 'tool_use',
  gemini: 'STOP',
}

/** The frames of a whole reply of `text` for a request to `path`, ending with the protocol's end marker. */
export function streamedReply(
  protocol: WireProtocol,
  path: string,
  text: string,
  shape: ReplyShape = {},
): StreamedReply {
  const parts = split(text, shape.pieces ?? 3)
  const calls = shape.toolCalls ?? []
  const finish = shape.finishReason ?? (calls.length > 0 ? TOOL_CALL_FINISH : DEFAULT_FINISH)[protocol]
  switch (protocol) {
    case 'openai':
      return path.includes('/chat/') ? openaiChat(parts, finish, calls) : openaiCompletion(parts, finish)
    case 'openai-responses':
      return path.endsWith('/responses')
        ? openaiResponses(parts, finish, calls, shape.thinking)
        : streamedReply('openai', path, text, shape)
    case 'ollama':
      return ollama(parts, finish, path.endsWith('/api/generate'), calls)
    case 'anthropic':
      return anthropic(parts, finish, calls, shape.thinking)
    case 'gemini':
      return gemini(parts, finish, calls, shape.thinking)
  }
}

/** The prompt's last user text, wherever the protocol puts it. */
export function promptOf(protocol: WireProtocol, request: SeenRequest): string {
  const body = JSON.parse(request.body) as Record<string, unknown>
  if (typeof body.prompt === 'string') return body.prompt
  if (protocol === 'openai-responses' && Array.isArray(body.input)) {
    const items = body.input as Array<{ role?: string; content?: string | Array<{ type: string; text?: string }> }>
    const last = items.findLast((item) => item.role === 'user')?.content ?? ''
    return typeof last === 'string' ? last : last.map((part) => part.text ?? '').join('')
  }
  if (protocol === 'gemini') {
    const contents = body.contents as Array<{ role: string; parts: Array<{ text?: string }> }>
    return (
      contents
        .findLast((content) => content.role === 'user')
        ?.parts.map((part) => part.text ?? '')
        .join('') ?? ''
    )
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

/**
 * Each call's fragments: the first carries its index, id and name, the rest only argument pieces; the
 * fragments of all calls are dealt round-robin, so calls interleave as parallel calls do.
 */
function openaiToolCallDeltas(calls: readonly WireToolCall[]): unknown[] {
  const perCall = calls.map((call, index) => {
    const pieces = split(call.arguments, 3)
    return pieces.map((piece, at) => ({
      index,
      ...(at === 0
        ? {
            ...(call.id === undefined ? {} : { id: call.id }),
            type: 'function',
            function: { name: call.name, arguments: piece },
          }
        : { function: { arguments: piece } }),
    }))
  })
  const dealt: unknown[] = []
  for (let round = 0; perCall.some((fragments) => round < fragments.length); round++) {
    for (const fragments of perCall) if (round < fragments.length) dealt.push({ tool_calls: [fragments[round]] })
  }
  return dealt
}

function openaiChat(parts: string[], finish: string, calls: readonly WireToolCall[]): StreamedReply {
  const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 0, model: 'fake' }
  const chunk = (delta: unknown, finishReason: string | null) =>
    sse({ ...base, choices: [{ index: 0, delta, finish_reason: finishReason }] })
  return {
    contentType: SSE,
    frames: [
      chunk({ role: 'assistant' }, null),
      ...parts.map((part) => chunk({ content: part }, null)),
      ...openaiToolCallDeltas(calls).map((delta) => chunk(delta, null)),
      chunk({}, finish),
      sse({ ...base, choices: [], usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 } }),
      sse('[DONE]'),
    ],
    ...(calls.length === 0 ? {} : { firstCallFrame: 1 + parts.length }),
  }
}

/**
 * A streamed Response as OpenAI's "Streaming events" reference lays it out: `response.created`, then per output item
 * `response.output_item.added` … `.done` (a reasoning item with a summary and its `encrypted_content`, whole only in
 * `.done`; the message's text deltas; each function call's argument deltas and `.done`), then `response.completed`,
 * or `response.incomplete` with the finish as its `incomplete_details.reason`.
 */
function openaiResponses(
  parts: string[],
  finish: string,
  calls: readonly WireToolCall[],
  thinking?: ReplyShape['thinking'],
): StreamedReply {
  let sequence = 0
  const event = (type: string, fields: Record<string, unknown>) =>
    sse({ type, sequence_number: sequence++, ...fields }, type)
  const response = { id: 'resp_1', object: 'response', created_at: 0, model: 'fake', output: [] as unknown[] }
  const output: unknown[] = []
  const frames = [event('response.created', { response: { ...response, status: 'in_progress' } })]
  if (thinking !== undefined) {
    const id = thinking.id ?? 'rs_1'
    const item = { id, type: 'reasoning', summary: [{ type: 'summary_text', text: thinking.text }] }
    const index = output.length
    frames.push(
      event('response.output_item.added', {
        output_index: index,
        item: { ...item, summary: [], encrypted_content: thinking.signature.slice(0, 3) },
      }),
      event('response.reasoning_summary_part.added', {
        item_id: id,
        output_index: index,
        summary_index: 0,
        part: { type: 'summary_text', text: '' },
      }),
      event('response.reasoning_summary_text.delta', {
        item_id: id,
        output_index: index,
        summary_index: 0,
        delta: thinking.text,
      }),
      event('response.output_item.done', {
        output_index: index,
        item: { ...item, encrypted_content: thinking.signature },
      }),
    )
    output.push({ ...item, encrypted_content: thinking.signature })
  }
  const text = parts.join('')
  const message = { id: 'msg_1', type: 'message', role: 'assistant', status: 'completed' }
  const textIndex = output.length
  // A reply that only calls has no message item.
  if (text !== '' || calls.length === 0) {
    frames.push(
      event('response.output_item.added', { output_index: textIndex, item: { ...message, content: [] } }),
      ...parts.map((delta) =>
        event('response.output_text.delta', { item_id: 'msg_1', output_index: textIndex, content_index: 0, delta }),
      ),
      event('response.output_text.done', { item_id: 'msg_1', output_index: textIndex, content_index: 0, text }),
      event('response.output_item.done', {
        output_index: textIndex,
        item: { ...message, content: [{ type: 'output_text', text, annotations: [] }] },
      }),
    )
    output.push({ ...message, content: [{ type: 'output_text', text, annotations: [] }] })
  }
  const firstCallFrame = frames.length
  for (const [at, call] of calls.entries()) {
    const index = output.length
    const item = { id: `fc_${at}`, type: 'function_call', call_id: call.id ?? `call_${at}`, name: call.name }
    frames.push(
      event('response.output_item.added', { output_index: index, item: { ...item, arguments: '' } }),
      ...split(call.arguments, 3).map((delta) =>
        event('response.function_call_arguments.delta', { item_id: item.id, output_index: index, delta }),
      ),
      event('response.function_call_arguments.done', {
        item_id: item.id,
        output_index: index,
        arguments: call.arguments,
      }),
      event('response.output_item.done', { output_index: index, item: { ...item, arguments: call.arguments } }),
    )
    output.push({ ...item, arguments: call.arguments })
  }
  const usage = {
    input_tokens: 11,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 7,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 18,
  }
  const complete = finish === 'completed'
  frames.push(
    event(complete ? 'response.completed' : 'response.incomplete', {
      response: {
        ...response,
        status: complete ? 'completed' : 'incomplete',
        ...(complete ? {} : { incomplete_details: { reason: finish } }),
        output,
        usage,
      },
    }),
  )
  return { contentType: SSE, frames, ...(calls.length === 0 ? {} : { firstCallFrame }) }
}

function openaiCompletion(parts: string[], finish: string): StreamedReply {
  const chunk = (text: string, finishReason: string | null) =>
    sse({
      id: 'cmpl-1',
      object: 'text_completion',
      created: 0,
      model: 'fake',
      choices: [{ index: 0, text, finish_reason: finishReason }],
    })
  return { contentType: SSE, frames: [...parts.map((part) => chunk(part, null)), chunk('', finish), sse('[DONE]')] }
}

function ollama(parts: string[], finish: string, generate: boolean, calls: readonly WireToolCall[]): StreamedReply {
  const line = (value: unknown) => `${JSON.stringify(value)}\n`
  const body = (text: string) => (generate ? { response: text } : { message: { role: 'assistant', content: text } })
  const head = { model: 'fake', created_at: '2026-01-01T00:00:00Z' }
  // Ollama sends each call whole, its arguments as an object, in a line of its own.
  const callLines = calls.map((call) =>
    line({
      ...head,
      message: {
        role: 'assistant',
        content: '',
        tool_calls: [{ function: { name: call.name, arguments: JSON.parse(call.arguments) as unknown } }],
      },
      done: false,
    }),
  )
  return {
    contentType: 'application/x-ndjson',
    frames: [
      ...parts.map((part) => line({ ...head, ...body(part), done: false })),
      ...callLines,
      line({ ...head, ...body(''), done: true, done_reason: finish, prompt_eval_count: 11, eval_count: 7 }),
    ],
    ...(calls.length === 0 ? {} : { firstCallFrame: parts.length }),
  }
}

function anthropic(
  parts: string[],
  finish: string,
  calls: readonly WireToolCall[],
  thinking?: ReplyShape['thinking'],
): StreamedReply {
  const message = {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'fake',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 11, output_tokens: 1 },
  }
  const event = (type: string, fields: Record<string, unknown> = {}) => sse({ type, ...fields }, type)
  const first = thinking === undefined ? 0 : 1
  const thought =
    thinking === undefined
      ? []
      : [
          event('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }),
          event('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: thinking.text } }),
          event('content_block_delta', { index: 0, delta: { type: 'signature_delta', signature: thinking.signature } }),
          event('content_block_stop', { index: 0 }),
        ]
  return {
    contentType: SSE,
    frames: [
      event('message_start', { message }),
      ...thought,
      event('content_block_start', { index: first, content_block: { type: 'text', text: '' } }),
      ...parts.map((part) => event('content_block_delta', { index: first, delta: { type: 'text_delta', text: part } })),
      event('content_block_stop', { index: first }),
      ...calls.flatMap((call, at) => {
        const index = first + at + 1
        return [
          event('content_block_start', {
            index,
            content_block: { type: 'tool_use', id: call.id ?? `toolu_${at}`, name: call.name, input: {} },
          }),
          ...split(call.arguments, 3).map((piece) =>
            event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } }),
          ),
          event('content_block_stop', { index }),
        ]
      }),
      event('message_delta', { delta: { stop_reason: finish, stop_sequence: null }, usage: { output_tokens: 7 } }),
      event('message_stop'),
    ],
    // message_start, the thinking block, the text block's start, pieces and stop.
    ...(calls.length === 0 ? {} : { firstCallFrame: 1 + thought.length + 1 + parts.length + 1 }),
  }
}

function gemini(
  parts: string[],
  finish: string,
  calls: readonly WireToolCall[],
  thinking?: ReplyShape['thinking'],
): StreamedReply {
  // Each call arrives whole, as one part, with its signature beside it; the calls come in a chunk of their own before the last.
  const callParts = calls.map((call) => ({
    functionCall: {
      ...(call.id === undefined ? {} : { id: call.id }),
      name: call.name,
      args: JSON.parse(call.arguments) as unknown,
    },
    ...(call.signature === undefined ? {} : { thoughtSignature: call.signature }),
  }))
  const chunk = (content: unknown[], last: boolean) =>
    `data: ${JSON.stringify({
      candidates: [{ content: { role: 'model', parts: content }, index: 0, ...(last ? { finishReason: finish } : {}) }],
      ...(last ? { usageMetadata: { promptTokenCount: 11, candidatesTokenCount: 7, totalTokenCount: 18 } } : {}),
      modelVersion: 'fake-001',
    })}\r\n\r\n`
  const thought = thinking === undefined ? [] : [chunk([{ text: thinking.text, thought: true }], false)]
  const signed = (text: string, index: number) =>
    thinking !== undefined && index === 0 ? { text, thoughtSignature: thinking.signature } : { text }
  if (calls.length === 0)
    return {
      contentType: SSE,
      frames: [...thought, ...parts.map((part, index) => chunk([signed(part, index)], index === parts.length - 1))],
    }
  return {
    contentType: SSE,
    frames: [
      ...thought,
      ...parts.map((part, index) => chunk([signed(part, index)], false)),
      chunk(callParts, false),
      chunk([{ text: '' }], true),
    ],
    firstCallFrame: thought.length + parts.length,
  }
}
