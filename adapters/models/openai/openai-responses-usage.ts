import type { TokenUsage } from '../model-adapter.ts'

/**
 * The Responses API's `usage` (on the terminal event's Response) as billed: `input_tokens` with
 * `input_tokens_details.cached_tokens` (and `cache_write_tokens` in newer bodies) among them, `output_tokens` with
 * `output_tokens_details.reasoning_tokens` among them (reasoning is billed as output). OpenRouter adds `cost`, in
 * US dollars.
 */
export function responsesUsage(usage: Record<string, unknown>): TokenUsage {
  const input = record(usage.input_tokens_details)
  const output = record(usage.output_tokens_details)
  const reasoning = count(output.reasoning_tokens)
  const cacheRead = count(input.cached_tokens)
  const cacheWrite = count(input.cache_write_tokens)
  const cost = count(usage.cost)
  return {
    prompt: count(usage.input_tokens) ?? 0,
    completion: count(usage.output_tokens) ?? 0,
    ...(reasoning === undefined ? {} : { reasoning }),
    ...(cacheRead === undefined ? {} : { cacheRead }),
    ...(cacheWrite === undefined ? {} : { cacheWrite }),
    ...(cost === undefined ? {} : { cost }),
  }
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {}
}
