/** The fetch for the up-front check: one attempt with a short limit, so a dead endpoint fails in seconds. */
export function preflightFetch(limitMs = 10_000): typeof fetch {
  return (input, init) => {
    const timeout = AbortSignal.timeout(limitMs)
    return globalThis.fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout })
  }
}
