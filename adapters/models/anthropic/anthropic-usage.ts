import type { TokenUsage } from '../model-adapter.ts'

/**
 * Anthropic's usage as billed: `message_start` gives the first figures, and each `message_delta` the
 * cumulative ones, `input_tokens` included where it carries them (more than at the start when server tools
 * ran). `input_tokens` leaves out the prompt read from and written to the cache, which are billed too.
 */
export class AnthropicUsage {
  private readonly figures: Record<string, number> = {}
  private thinking: number | undefined

  add(usage: Record<string, unknown>): void {
    for (const field of FIELDS) {
      const value = usage[field]
      if (typeof value === 'number') this.figures[field] = value
    }
    const details = usage.output_tokens_details
    const thinking =
      typeof details === 'object' && details !== null ? (details as Record<string, unknown>).thinking_tokens : undefined
    if (typeof thinking === 'number') this.thinking = thinking
  }

  tokens(): TokenUsage {
    const { input_tokens: input = 0, output_tokens: output = 0 } = this.figures
    const cacheRead = this.figures.cache_read_input_tokens
    const cacheWrite = this.figures.cache_creation_input_tokens
    return {
      prompt: input + (cacheRead ?? 0) + (cacheWrite ?? 0),
      completion: output,
      ...(this.thinking === undefined ? {} : { reasoning: this.thinking }),
      ...(cacheRead === undefined ? {} : { cacheRead }),
      ...(cacheWrite === undefined ? {} : { cacheWrite }),
    }
  }
}

const FIELDS = ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'] as const
