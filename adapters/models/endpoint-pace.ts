import type { RateLimitState } from './rate-limit-headers.ts'

/**
 * What one finished attempt tells its endpoint's pace; `heardAt`, when its answer's headers came (Date.now()):
 * the waits they ask for count from then, however late the pace hears of them (a busy process, the slot server).
 */
export type PaceSignal = { heardAt?: number } &
  /** The provider refused for its limit or load (429, 503, 529), and the wait it asked for, if any. */
  (
    | { throttled: true; waitMs?: number }
    /** The provider answered; what its headers said of the limit. */
    | { throttled: false; rateLimit?: RateLimitState }
  )

/** Told by a slot's task what its attempt met. */
export type PaceReport = (signal: PaceSignal) => void

/**
 * Below this share of its token allowance, the endpoint waits for the allowance's reset before a 429 comes,
 * when the headers do not say how many tokens a request takes (no request allowance to divide by).
 */
export const LOW_TOKEN_SHARE = 0.05

/**
 * How many requests one endpoint may have in flight now, and until when none may start: concurrency that
 * follows the provider. A refusal (429, 503/529 overloaded) lowers the concurrency, once per burst (refusals
 * of requests that started before the last cut say nothing new): by one when it says how long to wait, by
 * half when it does not. Each run of `current` answers in a row raises
 * it by one, up to the ceiling (TESTBENCH_CONCURRENCY). A wait the provider asks for (Retry-After, a reset)
 * holds every request to the endpoint, and so does an allowance run out (`x-ratelimit-remaining-*`): an
 * answer says how many requests (and tokens) the window has left when its request arrived, so the requests
 * started after it are taken from that, and the starts left count down to a hold until the window's reset.
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
  /** Requests started so far: an answer's allowance is spent by those started after its own. */
  starts = 0
  /** What the latest answer left of the window's allowance, in requests, and when the window resets. */
  #allowance: { left: number; resetAt: number } | undefined
  /**
   * When the answers' window resets, the earliest any answer of it put it: a reset said as a duration (OpenAI's
   * `0.8s`) counts from when the answer was read, and a busy process reads some answers late, never early.
   */
  #windowResetAt = -Infinity
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

  /** A request starts: it takes one of the window's requests left, and the last one holds until the reset. */
  started(): void {
    this.starts++
    const allowance = this.#allowance
    if (allowance === undefined) return
    if (allowance.resetAt <= this.#now()) this.#allowance = undefined
    else if (--allowance.left <= 0) this.hold(allowance.resetAt)
  }

  /**
   * What one attempt met; `startedSince` counts the attempts started after this one (its answer's allowance
   * did not count them), `startedAt` when this one started.
   */
  report(signal: PaceSignal, startedSince: number, startedAt: number): void {
    const now = Math.min(signal.heardAt ?? Infinity, this.#now())
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
    this.#heed(signal.rateLimit ?? {}, startedSince, now, startedAt)
    if (++this.#answeredInARow >= this.current && this.current < this.ceiling) {
      this.current++
      this.#answeredInARow = 0
    }
  }

  /**
   * The requests the answer's allowances leave (tokens as requests of the window's average size), less those started
   * since; the reset, the earliest said for the window its request started in (before the window's reset as known).
   */
  #heed({ requests, tokens }: RateLimitState, startedSince: number, now: number, startedAt: number): void {
    const lefts: Array<{ left: number; resetAt: number }> = []
    if (requests?.resetMs !== undefined) lefts.push({ left: requests.remaining, resetAt: now + requests.resetMs })
    if (tokens?.resetMs !== undefined && tokens.limit !== undefined) {
      const requestsUsed = requests?.limit === undefined ? 0 : requests.limit - requests.remaining
      const perRequest = requestsUsed > 0 ? (tokens.limit - tokens.remaining) / requestsUsed : undefined
      if (perRequest !== undefined && perRequest > 0)
        lefts.push({ left: Math.floor(tokens.remaining / perRequest), resetAt: now + tokens.resetMs })
      else if (tokens.remaining < LOW_TOKEN_SHARE * tokens.limit) lefts.push({ left: 0, resetAt: now + tokens.resetMs })
    }
    const tightest = lefts.reduce<{ left: number; resetAt: number } | undefined>(
      (low, each) => (low === undefined || each.left < low.left ? each : low),
      undefined,
    )
    if (tightest === undefined) return
    const resetAt = startedAt < this.#windowResetAt ? Math.min(this.#windowResetAt, tightest.resetAt) : tightest.resetAt
    this.#windowResetAt = resetAt
    const left = tightest.left - startedSince
    if (left <= 0) {
      this.#allowance = undefined
      this.hold(resetAt)
    } else this.#allowance = { left, resetAt }
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
