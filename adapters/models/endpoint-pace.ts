import type { RateLimitState } from './rate-limit-headers.ts'

/** What one finished attempt tells its endpoint's pace. */
export type PaceSignal =
  /** The provider refused for its limit or load (429, 503, 529), and the wait it asked for, if any. */
  | { throttled: true; waitMs?: number }
  /** The provider answered; what its headers said of the limit. */
  | { throttled: false; rateLimit?: RateLimitState }

/** Told by a slot's task what its attempt met. */
export type PaceReport = (signal: PaceSignal) => void

/** Below this share of its token allowance, the endpoint waits for the allowance's reset before a 429 comes. */
export const LOW_TOKEN_SHARE = 0.05

/**
 * How many requests one endpoint may have in flight now, and until when none may start: concurrency that
 * follows the provider. A refusal (429, 503/529 overloaded) lowers the concurrency, once per burst (refusals
 * of requests that started before the last cut say nothing new): by one when it says how long to wait, by
 * half when it does not. Each run of `current` answers in a row raises
 * it by one, up to the ceiling (TESTBENCH_CONCURRENCY). A wait the provider asks for (Retry-After, a reset)
 * holds every request to the endpoint, and so does an allowance about to run out (`x-ratelimit-remaining-*`).
 */
export class EndpointPace {
  current: number
  /** The lowest `current` reached. */
  lowest: number
  /** The clock time until which no request may start. */
  holdUntil = 0
  /** Holds begun, and the time they held requests back, in ms. */
  holds = 0
  heldMs = 0
  refusals = 0
  #answeredInARow = 0
  #lastCut = -Infinity

  readonly ceiling: number
  readonly #now: () => number

  constructor(ceiling: number, now: () => number = Date.now) {
    this.ceiling = ceiling
    this.#now = now
    if (!Number.isInteger(ceiling) || ceiling < 1)
      throw new RangeError(`a concurrency limit must be a whole number of at least 1, not ${ceiling}`)
    this.current = ceiling
    this.lowest = ceiling
  }

  /** How long, in ms, every request to the endpoint must still wait. */
  heldForMs(): number {
    return Math.max(0, this.holdUntil - this.#now())
  }

  mayStart(inFlight: number): boolean {
    return inFlight < this.current && this.heldForMs() === 0
  }

  /** What one attempt met; `inFlight` counts the other attempts still in flight, `startedAt` when this one started. */
  report(signal: PaceSignal, inFlight: number, startedAt: number): void {
    const now = this.#now()
    if (signal.throttled) {
      this.refusals++
      this.#answeredInARow = 0
      if (startedAt > this.#lastCut) {
        // A refusal that says how long to wait is a window's allowance spent, which the hold answers: one step down.
        // One that does not (an overloaded server, a proxy) halves the concurrency.
        this.current = Math.max(1, signal.waitMs === undefined ? Math.floor(this.current / 2) : this.current - 1)
        this.lowest = Math.min(this.lowest, this.current)
        this.#lastCut = now
      }
      if (signal.waitMs !== undefined) this.hold(now + signal.waitMs)
      return
    }
    const { requests, tokens } = signal.rateLimit ?? {}
    if (requests?.resetMs !== undefined && requests.remaining <= inFlight) this.hold(now + requests.resetMs)
    if (tokens?.resetMs !== undefined && tokens.limit && tokens.remaining < LOW_TOKEN_SHARE * tokens.limit)
      this.hold(now + tokens.resetMs)
    if (++this.#answeredInARow >= this.current && this.current < this.ceiling) {
      this.current++
      this.#answeredInARow = 0
    }
  }

  /** No request starts before `until` (the pace's clock); a later hold extends an earlier one. */
  hold(until: number): void {
    const now = this.#now()
    if (until <= this.holdUntil || until <= now) return
    if (this.holdUntil <= now) this.holds++
    this.heldMs += until - Math.max(now, this.holdUntil)
    this.holdUntil = until
  }
}

/** `concurrency 3 of 8 (rate limited)`, or undefined at the ceiling with no hold. */
export function paceText(pace: EndpointPace): string | undefined {
  const held = pace.heldForMs()
  if (pace.current >= pace.ceiling && held === 0) return undefined
  return `concurrency ${pace.current} of ${pace.ceiling}${held > 0 ? `, held ${(held / 1000).toFixed(1)} s` : ''}`
}

/** `4 refusals, 3 holds, 12.5 s held, concurrency down to 2 of 8`, for the end of a run. */
export function waitsText(pace: EndpointPace): string {
  return `${pace.refusals} refusal(s), ${pace.holds} hold(s), ${(pace.heldMs / 1000).toFixed(1)} s held, concurrency down to ${pace.lowest} of ${pace.ceiling}`
}
