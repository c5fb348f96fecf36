import { abortableSleep } from './abortable-sleep.ts'
import { retryAfterMs } from './attempt.ts'
import { nobodyListens } from './provider-errors.ts'

/** Answers worth a second try even in the up-front check: the server is there, but busy or briefly broken. */
const TRANSIENT_STATUS = new Set([408, 429, 500, 502, 503, 504])

/**
 * The fetch for the up-front check, bounded by a short limit so a dead endpoint fails in seconds:
 * a refused connection fails at once; a reset, 408, 429 or 5xx is asked again a few times within the limit.
 */
export function preflightFetch(limitMs = 10_000, tries = 4): typeof fetch {
  return async (input, init) => {
    const timeout = AbortSignal.timeout(limitMs)
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= tries
      let response: Response
      try {
        response = await globalThis.fetch(input, { ...init, signal })
      } catch (error) {
        // Nobody listening: asking again would only delay the one clear error.
        if (last || signal.aborted || nobodyListens(error)) throw error
        await abortableSleep(250 * attempt, signal)
        continue
      }
      if (last || !TRANSIENT_STATUS.has(response.status)) return response
      await response.body?.cancel()
      await abortableSleep(Math.min(retryAfterMs(response.headers.get('retry-after')) ?? 250 * attempt, 2000), signal)
    }
  }
}
