import type { JsonValue, SendBack, TokenUsage, ToolCall } from '../model-adapter.ts'
import { ToolCallFragments, type ToolCallFragment } from './openai-tool-call-fragments.ts'
import { openaiUsage } from './openai-usage.ts'

/**
 * A streamed chat completion joined chunk by chunk, in every shape compatible servers send: `delta.content` as
 * a string or as typed parts (Mistral's `text` and `thinking`) or OpenAI's `refusal`, reasoning as `reasoning_content` (DeepSeek,
 * Z.ai, vLLM, llama.cpp), `reasoning` (OpenRouter, Groq, Ollama) or only as `reasoning_details` (Snowflake
 * Cortex), tool-call fragments, and usage wherever it comes (a last chunk without choices, the finish chunk,
 * Groq's `x_groq`; `null` on the others): the last figures given are the reply's.
 */
export class OpenAIReplyParts {
  text = ''
  reasoning = ''
  tokens: TokenUsage | undefined
  private readonly calls = new ToolCallFragments()
  private readonly details: Array<Record<string, JsonValue>> = []
  private reasoningContent = false

  add(chunk: Record<string, unknown>): void {
    const choice = objectAt(chunk.choices, 0)
    const delta = record(choice?.delta)
    this.addContent(delta.content)
    // OpenAI's `refusal` comes in place of `content` (never beside it): what the model said is its reply.
    if (typeof delta.refusal === 'string') this.text += delta.refusal
    const reasoningDetails = Array.isArray(delta.reasoning_details) ? delta.reasoning_details : []
    if (typeof delta.reasoning_content === 'string') {
      this.reasoning += delta.reasoning_content
      this.reasoningContent = true
    } else if (typeof delta.reasoning === 'string') this.reasoning += delta.reasoning
    else for (const detail of reasoningDetails) this.reasoning += detailText(detail)
    for (const detail of reasoningDetails) if (isRecord(detail)) this.addDetail(detail as Record<string, JsonValue>)
    for (const fragment of Array.isArray(delta.tool_calls) ? delta.tool_calls : [])
      if (isRecord(fragment)) this.calls.add(fragment as unknown as ToolCallFragment)
    const usage = isRecord(chunk.usage) ? chunk.usage : objectAt(record(chunk.x_groq), 'usage')
    if (usage !== undefined) this.tokens = openaiUsage(usage)
  }

  toolCalls(): ToolCall[] {
    return this.calls.whole(this.text)
  }

  /**
   * What the provider asks back with the calls (see openaiMessages): OpenRouter's `reasoning_details`, unmodified
   * but with its streamed pieces joined; else DeepSeek's and Z.ai's `reasoning_content`, which must go back.
   */
  sendBack(): SendBack | undefined {
    if (this.details.length > 0) return { reasoning_details: this.details }
    if (this.reasoningContent && this.reasoning !== '') return { reasoning_content: this.reasoning }
    return undefined
  }

  private addContent(content: unknown): void {
    if (typeof content === 'string') {
      this.text += content
      return
    }
    if (!Array.isArray(content)) return
    for (const part of content) {
      if (!isRecord(part)) continue
      if (part.type === 'text' && typeof part.text === 'string') this.text += part.text
      else if (part.type === 'thinking') this.reasoning += thinkingText(part.thinking)
    }
  }

  /** A piece of the detail at the same `index` and of the same type joins it: its text pieces are concatenated. */
  private addDetail(piece: Record<string, JsonValue>): void {
    const last = this.details.at(-1)
    const joins = last !== undefined && last.type === piece.type && (last.index ?? 0) === (piece.index ?? 0)
    if (!joins) {
      this.details.push({ ...piece })
      return
    }
    for (const [key, value] of Object.entries(piece)) {
      const had = last[key]
      if (typeof value === 'string' && JOINED.has(key)) last[key] = (typeof had === 'string' ? had : '') + value
      else if (had === undefined || had === null || had === '') last[key] = value
    }
  }
}

/** The fields of a reasoning detail that stream in pieces. */
const JOINED = new Set(['text', 'summary', 'data', 'signature'])

function detailText(detail: unknown): string {
  if (!isRecord(detail)) return ''
  if (detail.type === 'reasoning.text' && typeof detail.text === 'string') return detail.text
  if (detail.type === 'reasoning.summary' && typeof detail.summary === 'string') return detail.summary
  return ''
}

/** Mistral's `thinking` part holds text parts, or a string. */
function thinkingText(thinking: unknown): string {
  if (typeof thinking === 'string') return thinking
  if (!Array.isArray(thinking)) return ''
  return thinking.map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).join('')
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function record(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {}
}

function objectAt(value: unknown, key: string | number): Record<string, unknown> | undefined {
  const found: unknown = typeof key === 'number' ? (Array.isArray(value) ? value[key] : undefined) : record(value)[key]
  return isRecord(found) ? found : undefined
}
