import type { TokenUsage } from '../model-adapter.ts'

/**
 * Chat completions' `usage` as billed, in every compatible server's fields: OpenAI's `*_details`
 * (`reasoning_tokens`, `cached_tokens`), OpenRouter's `cache_write_tokens`, DeepSeek's
 * `prompt_cache_hit_tokens`. xAI's `completion_tokens` leave its reasoning out, which its `total_tokens`
 * shows (prompt + completion + reasoning); there the reasoning is added, as xAI bills it as output.
 * OpenRouter adds what the reply cost, in US dollars (`cost`).
 */
export function openaiUsage(usage: Record<string, unknown>): TokenUsage {
  const prompt = count(usage.prompt_tokens) ?? 0
  const completion = count(usage.completion_tokens) ?? 0
  const promptDetails = record(usage.prompt_tokens_details)
  const completionDetails = record(usage.completion_tokens_details)
  const reasoning = count(completionDetails.reasoning_tokens)
  const cacheRead = count(promptDetails.cached_tokens) ?? count(usage.prompt_cache_hit_tokens)
  const cacheWrite = count(promptDetails.cache_write_tokens)
  const total = count(usage.total_tokens)
  const cost = count(usage.cost)
  const reasoningLeftOut = reasoning !== undefined && reasoning > 0 && total === prompt + completion + reasoning
  return {
    prompt,
    completion: reasoningLeftOut ? completion + reasoning : completion,
    ...(reasoning === undefined ? {} : { reasoning }),
    ...(cacheRead === undefined ? {} : { cacheRead }),
    ...(cacheWrite === undefined ? {} : { cacheWrite }),
    ...(cost === undefined ? {} : { cost }),
  }
}

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
