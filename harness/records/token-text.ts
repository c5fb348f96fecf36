import type { TokenUsage } from '../../adapters/models/model-adapter.ts'

/** The prompt's tokens as a report shows them: the count, and the cache reads and writes within it where reported. */
export function promptTokenText(tokens: TokenUsage): string {
  const parts = [
    ...(tokens.cacheRead ? [`${tokens.cacheRead} cached`] : []),
    ...(tokens.cacheWrite ? [`${tokens.cacheWrite} cache writes`] : []),
  ]
  return parts.length === 0 ? `${tokens.prompt}` : `${tokens.prompt} (${parts.join(', ')})`
}

/** The completion's tokens as a report shows them: the count, and the reasoning within it where reported. */
export function completionTokenText(tokens: TokenUsage): string {
  return tokens.reasoning ? `${tokens.completion} (${tokens.reasoning} reasoning)` : `${tokens.completion}`
}
