import { ProviderError } from '../model-adapter.ts'

/** The one message a run shows when a provider cannot be reached: what, where, and what to do. */
export function unreachable(provider: string, endpoint: string, error: unknown, howToFix: string): ProviderError {
  return new ProviderError(`${provider} is not reachable at ${endpoint}: ${connectionErrorText(error)}.\n${howToFix}`)
}

/** Status code of an SDK error, whichever SDK threw it. */
export function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  for (const field of ['status', 'status_code', 'code']) {
    const value: unknown = (error as Record<string, unknown>)[field]
    if (typeof value === 'number') return value
  }
  return undefined
}

/** True when the error came from the connection (no HTTP answer at all). */
export function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  if (statusOf(error) !== undefined) return false
  const text = `${error.name} ${error.message} ${connectionErrorText(error)}`
  return /fetch failed|ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|socket|Connection error/i.test(text)
}

/** Wraps whatever an SDK threw while answering one request into a ProviderError that names the provider and item. */
export function requestFailed(provider: string, itemId: string, error: unknown): ProviderError {
  if (error instanceof ProviderError) return error
  const status = statusOf(error)
  const message = error instanceof Error ? error.message : String(error)
  const statusText = status === undefined ? '' : ` (HTTP ${status})`
  return new ProviderError(`${provider} failed to answer item ${itemId}${statusText}: ${message}`, { cause: error })
}

/** The most telling text of a connection failure: the system error code deep in the cause chain when there is one. */
export function connectionErrorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    if ('code' in cause && typeof cause.code === 'string' && /^E[A-Z]+$|^UND_ERR/.test(cause.code))
      return `${cause.code} (${cause.message})`
  }
  return error.message
}

/** A connection failure that says nothing listens there (refused, unknown host, no route), unlike a reset by a server that accepted it. */
export function nobodyListens(error: unknown): boolean {
  const parts: string[] = []
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    parts.push(cause.message, 'code' in cause ? String(cause.code) : '')
  }
  return /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH/.test(parts.join(' '))
}
