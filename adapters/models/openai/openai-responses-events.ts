import type { JsonValue, SendBack, TokenUsage, ToolCall } from '../model-adapter.ts'
import { madeUpCallId } from '../made-up-call-id.ts'
import { responsesUsage } from './openai-usage.ts'

/** An error the Responses API sent after its 200: an `error` event, or `response.failed`'s `response.error`. */
export interface ResponsesFailure {
  code: string | undefined
  message: string
}

/**
 * A streamed Response read event by event, as OpenAI's API reference ("Streaming events") documents them: text from
 * `response.output_text.delta` (and `response.refusal.delta`, what the model said in place of an answer), reasoning
 * from `response.reasoning_summary_text.delta` and raw `response.reasoning_text.delta` (gpt-oss, DeepSeek, LM Studio,
 * OpenRouter), function calls by their item with argument fragments from `response.function_call_arguments.delta`
 * and the whole arguments of `.done` or of the finished item, and usage and the finish from the terminal event
 * (`response.completed`, `response.incomplete`; `response.failed` is a failure). Each output item finished
 * (`response.output_item.done`, where `encrypted_content` is whole) is kept for the next turn. Event types it does
 * not use (hosted tools, annotations, logprobs) are skipped. A part's `.done` event (`output_text`, `refusal`,
 * `reasoning_summary_text`, `reasoning_text`) holds its whole text, which replaces the deltas; texts of separate
 * items or parts are joined with a blank line.
 */
export class ResponsesReplyParts {
  tokens: TokenUsage | undefined
  /** `completed`, or the reason a response stopped short (`max_output_tokens`, `content_filter`). */
  finishReason: string | undefined
  failure: ResponsesFailure | undefined
  private readonly calls = new Map<string, { outputIndex: number; id: string; name: string; arguments: string }>()
  private readonly items = new Map<number, Record<string, JsonValue>>()
  /** Texts by part (`item/content_index`), in the order they began; a part's `.done` text replaces its deltas. */
  private readonly textParts = new Map<string, string>()
  private readonly reasoningParts = new Map<string, string>()
  /** Items (by id and by `#output_index`) whose text or reasoning came in events: their finished item adds nothing. */
  private readonly streamed = new Set<string>()

  get text(): string {
    return joinParts(this.textParts)
  }

  get reasoning(): string {
    return joinParts(this.reasoningParts)
  }

  add(event: Record<string, unknown>): void {
    const part = `${stringOf(event.item_id)}/${stringOf(event.content_index ?? 0)}`
    if (/^response\.(output_text|refusal|reasoning_summary_text|reasoning_text)\./.test(stringOf(event.type))) {
      this.streamed.add(stringOf(event.item_id))
      if (typeof event.output_index === 'number') this.streamed.add(`#${event.output_index}`)
    }
    switch (event.type) {
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        this.textParts.set(part, (this.textParts.get(part) ?? '') + stringOf(event.delta))
        return
      case 'response.output_text.done':
        this.textParts.set(part, stringOf(event.text))
        return
      case 'response.refusal.done':
        this.textParts.set(part, stringOf(event.refusal))
        return
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta': {
        const key = reasoningPart(event)
        this.reasoningParts.set(key, (this.reasoningParts.get(key) ?? '') + stringOf(event.delta))
        return
      }
      case 'response.reasoning_summary_text.done':
      case 'response.reasoning_text.done':
        this.reasoningParts.set(reasoningPart(event), stringOf(event.text))
        return
      case 'response.output_item.added':
        this.addCall(record(event.item), numberOf(event.output_index))
        return
      case 'response.function_call_arguments.delta': {
        const call = this.calls.get(stringOf(event.item_id))
        if (call !== undefined) call.arguments += stringOf(event.delta)
        return
      }
      case 'response.function_call_arguments.done': {
        const call = this.calls.get(stringOf(event.item_id))
        if (call !== undefined && typeof event.arguments === 'string') call.arguments = event.arguments
        return
      }
      case 'response.output_item.done': {
        const item = record(event.item)
        const outputIndex = numberOf(event.output_index)
        this.addCall(item, outputIndex)
        this.addTexts(item, outputIndex)
        this.items.set(outputIndex, item as Record<string, JsonValue>)
        return
      }
      case 'response.completed':
      case 'response.incomplete':
      case 'response.failed':
        this.finish(record(event.response))
        return
      case 'error':
        this.failure = { code: stringOr(event.code), message: stringOf(event.message) }
        return
    }
  }

  /** A whole Response object (a server that answered a streamed request with `stream: false`'s body, a batch's line). */
  addWhole(response: Record<string, unknown>): void {
    for (const [outputIndex, item] of listOf(response.output).entries())
      this.add({ type: 'response.output_item.done', output_index: outputIndex, item })
    this.finish(response)
  }

  toolCalls(): ToolCall[] {
    return [...this.calls.values()]
      .sort((a, b) => a.outputIndex - b.outputIndex)
      .map((call, index) => ({
        id: call.id || madeUpCallId(this.text, index, call.name, call.arguments),
        name: call.name,
        arguments: call.arguments,
      }))
  }

  /**
   * The output items the next turn's input carries back, in order (see openai-responses-input.ts): reasoning items
   * with their id, summary and `encrypted_content`, the assistant's messages (with their `phase`) and its calls. A reasoning
   * item with nothing after it is left out: the API refuses one "provided without its required following item".
   */
  sendBack(): SendBack | undefined {
    const kept: JsonValue[] = []
    for (const [, item] of [...this.items.entries()].sort(([a], [b]) => a - b)) {
      const back = itemBack(item)
      if (back !== undefined) kept.push(back)
    }
    while (kept.length > 0 && record(kept.at(-1)).type === 'reasoning') kept.pop()
    // Without reasoning items or a message's `phase` (codex's commentary and final answer, to be resent as they
    // came), the turn's text and calls say all there is.
    const needed = kept.some((item) => record(item).type === 'reasoning' || record(item).phase !== undefined)
    return needed ? { output: kept } : undefined
  }

  private addCall(item: Record<string, unknown>, outputIndex: number): void {
    if (item.type !== 'function_call') return
    const key = stringOf(item.id) || `output ${outputIndex}`
    const call = this.calls.get(key) ?? { outputIndex, id: '', name: '', arguments: '' }
    this.calls.set(key, call)
    if (call.id === '') call.id = stringOf(item.call_id)
    if (call.name === '') call.name = stringOf(item.name)
    // The added item's arguments are empty; the finished item's are whole.
    if (typeof item.arguments === 'string' && item.arguments !== '') call.arguments = item.arguments
  }

  /** The texts of a finished item whose parts no delta or `.done` event brought (a server that sends items whole). */
  private addTexts(item: Record<string, unknown>, outputIndex: number): void {
    const id = stringOf(item.id) || `output ${outputIndex}`
    if (this.streamed.has(id) || this.streamed.has(`#${outputIndex}`)) return
    const absent = (parts: Map<string, string>, key: string, text: unknown): void => {
      if (!parts.has(key) && typeof text === 'string') parts.set(key, text)
    }
    if (item.type === 'message')
      for (const [index, part] of listOf(item.content).entries()) {
        const content = record(part)
        absent(this.textParts, `${id}/${index}`, content.type === 'refusal' ? content.refusal : content.text)
      }
    if (item.type !== 'reasoning') return
    for (const [index, part] of listOf(item.summary).entries())
      absent(this.reasoningParts, `${id}/summary/${index}`, record(part).text)
    for (const [index, part] of listOf(item.content).entries())
      absent(this.reasoningParts, `${id}/text/${index}`, record(part).text)
  }

  private finish(response: Record<string, unknown>): void {
    if (typeof response.usage === 'object' && response.usage !== null)
      this.tokens = responsesUsage(response.usage as Record<string, unknown>)
    const error = record(response.error)
    if (response.status === 'failed' || Object.keys(error).length > 0) {
      this.failure ??= { code: stringOr(error.code), message: stringOf(error.message) || 'the response failed' }
      return
    }
    if (response.status === 'completed') this.finishReason = 'completed'
    else if (response.status === 'incomplete')
      this.finishReason = stringOr(record(response.incomplete_details).reason) ?? 'incomplete'
  }
}

/** An output item in the shape the next request's input takes it; hosted tools' items are not the client's to send. */
function itemBack(item: Record<string, JsonValue>): JsonValue | undefined {
  switch (item.type) {
    case 'reasoning':
      return {
        type: 'reasoning',
        ...(typeof item.id === 'string' ? { id: item.id } : {}),
        summary: Array.isArray(item.summary) ? item.summary : [],
        ...(typeof item.encrypted_content === 'string' ? { encrypted_content: item.encrypted_content } : {}),
      }
    case 'message':
      return {
        type: 'message',
        role: 'assistant',
        content: (Array.isArray(item.content) ? item.content : []).map((part): JsonValue => {
          const content = record(part)
          return content.type === 'refusal'
            ? { type: 'refusal', refusal: stringOf(content.refusal) }
            : { type: 'output_text', text: stringOf(content.text) }
        }),
        ...(typeof item.phase === 'string' ? { phase: item.phase } : {}),
      }
    case 'function_call':
      return {
        type: 'function_call',
        call_id: stringOf(item.call_id),
        name: stringOf(item.name),
        arguments: stringOf(item.arguments),
      }
    default:
      return undefined
  }
}

/** A reasoning part: a summary part (`summary_index`) or a part of the raw reasoning text (`content_index`) of its item. */
function reasoningPart(event: Record<string, unknown>): string {
  const summary = String(event.type).startsWith('response.reasoning_summary')
  const index = summary ? event.summary_index : event.content_index
  return `${stringOf(event.item_id)}/${summary ? 'summary' : 'text'}/${stringOf(index ?? 0)}`
}

function joinParts(parts: ReadonlyMap<string, string>): string {
  return [...parts.values()].filter((text) => text !== '').join('\n\n')
}

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : []
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}

function stringOf(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : ''
}

function stringOr(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}

function numberOf(value: unknown): number {
  return typeof value === 'number' ? value : 0
}
