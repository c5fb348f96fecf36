import type { TokenUsage } from './model-adapter.ts'

/** The kinds `TokenUsage` may report beside prompt and completion, each a part of one of them. */
export const TOKEN_KINDS = ['reasoning', 'cacheRead', 'cacheWrite'] as const

/** The tokens of several replies together; a kind no reply reported stays absent. */
export function sumTokens(usages: readonly (TokenUsage | undefined)[]): TokenUsage {
  const total: TokenUsage = { prompt: 0, completion: 0 }
  for (const usage of usages) {
    if (usage === undefined) continue
    total.prompt += usage.prompt
    total.completion += usage.completion
    for (const kind of TOKEN_KINDS) {
      const count = usage[kind]
      if (count !== undefined) total[kind] = (total[kind] ?? 0) + count
    }
  }
  return total
}
