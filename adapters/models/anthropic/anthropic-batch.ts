import Anthropic from '@anthropic-ai/sdk'
import type { Message } from '@anthropic-ai/sdk/resources/messages'
import type { BatchCreateParams } from '@anthropic-ai/sdk/resources/messages/batches'
import type { ChatReply, ChatRequest } from '../model-adapter.ts'
import { AnthropicUsage } from './anthropic-usage.ts'
import { anthropicBody } from './anthropic.ts'
import { madeUpCallId } from '../made-up-call-id.ts'
import { CLOCK_SKEW_MS, LISTED_BATCHES, type BatchResult, type BatchState, type BatchWire } from '../batch-wire.ts'

/**
 * Anthropic's Message Batches: `POST /v1/messages/batches` with the requests inline (`custom_id` of 1–64
 * letters, digits, `-` or `_`: the cache key's 64 hex digits fit), at most 100,000 requests or 256 MB; polled
 * until `processing_status` is `ended`, then the results as JSONL from the batch's `results_url`, each
 * `succeeded`, `errored`, `canceled` or `expired`. A batch keeps no tag of ours: a lost one is found in the list as
 * the one created after the journal's record with as many requests, not yet collected.
 */
export class AnthropicBatchWire implements BatchWire {
  readonly name = 'Anthropic'
  readonly limits = { requests: 100_000, bytes: 256 * 1024 * 1024 }
  private readonly client: Anthropic
  private readonly model: string
  private readonly canSee: boolean

  constructor(model: string, apiKey: string, baseURL: string, canSee: boolean) {
    this.model = model
    this.canSee = canSee
    this.client = new Anthropic({ apiKey, baseURL, maxRetries: 0 })
  }

  line(key: string, request: ChatRequest): string {
    return JSON.stringify({ custom_id: key, params: anthropicBody(this.model, request, this.canSee) })
  }

  async submit(lines: readonly string[]): Promise<string> {
    const requests = lines.map((line) => JSON.parse(line) as BatchCreateParams.Request)
    return (await this.client.messages.batches.create({ requests })).id
  }

  async find(_tag: string, since: number, size: number, taken: ReadonlySet<string>): Promise<string | undefined> {
    let listed = 0
    let found: string | undefined
    // Newest first; of several that fit, the oldest is the one made right after the record.
    for await (const batch of this.client.messages.batches.list({ limit: 100 })) {
      if (Date.parse(batch.created_at) < since - CLOCK_SKEW_MS || ++listed > LISTED_BATCHES) break
      const counts = batch.request_counts
      const total = counts.processing + counts.succeeded + counts.errored + counts.canceled + counts.expired
      if (total === size && !taken.has(batch.id)) found = batch.id
    }
    return found
  }

  async poll(id: string): Promise<BatchState> {
    const batch = await this.client.messages.batches.retrieve(id)
    const counts = batch.request_counts
    const total = counts.processing + counts.succeeded + counts.errored + counts.canceled + counts.expired
    return {
      status: batch.processing_status,
      done: total - counts.processing,
      total,
      phase: batch.processing_status === 'ended' ? 'ended' : 'running',
    }
  }

  async results(id: string): Promise<BatchResult[]> {
    const results: BatchResult[] = []
    for await (const { custom_id: key, result } of await this.client.messages.batches.results(id)) {
      if (result.type === 'succeeded') results.push({ key, reply: anthropicMessageReply(result.message) })
      else if (result.type === 'errored')
        results.push({ key, error: `${result.error.error.type}: ${result.error.error.message}` })
    }
    return results
  }
}

/** A whole (not streamed) message as a reply. */
export function anthropicMessageReply(message: Message): ChatReply {
  const text = message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('')
  const thoughts = message.content.flatMap((block) => (block.type === 'thinking' ? [block] : []))
  const reasoning = thoughts.map((block) => block.thinking).join('')
  const reasoningSignature = thoughts.at(-1)?.signature
  const toolCalls = message.content
    .flatMap((block) => (block.type === 'tool_use' ? [block] : []))
    .map((block, index) => {
      const args = JSON.stringify(block.input ?? {})
      return { id: block.id || madeUpCallId(text, index, block.name, args), name: block.name, arguments: args }
    })
  const usage = new AnthropicUsage()
  usage.add(message.usage as unknown as Record<string, unknown>)
  const tokens = usage.tokens()
  return {
    text,
    tokens,
    latencyMs: 0,
    ...(reasoning ? { reasoning } : {}),
    ...(reasoningSignature ? { reasoningSignature } : {}),
    ...(toolCalls.length > 0 ? { toolCalls } : {}),
    ...(message.stop_reason ? { finishReason: message.stop_reason } : {}),
  }
}
