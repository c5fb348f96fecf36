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
 * What the answers said of the provider's current window of its rate limit: the requests it allows in all (the
 * tightest allowance; tokens as requests of the window's average size), the most of them it counted (its limit less
 * what it said was left) plus the requests started since that answer came, and when it resets.
 */
interface ProviderWindow {
  allowance: number
  counted: number
  resetAt: number
}

/**
 * How many requests one endpoint may have in flight now, and until when none may start: concurrency that
 * follows the provider. A refusal (429, 503/529 overloaded) lowers the concurrency, once per burst (refusals
 * of requests that started before the last cut say nothing new): by one when it says how long to wait, by
 * half when it does not. Each run of `current` answers in a row raises
 * it by one, up to the ceiling (TESTBENCH_CONCURRENCY). A wait the provider asks for (Retry-After, a reset)
 * holds every request to the endpoint, and so does an allowance run out (`x-ratelimit-remaining-*`).
 *
 * The window's requests left are its allowance less the larger of two counts: the provider's (seen from every client
 * of the key, but only up to the answer's own request), and the pace's own starts since the window began. The
 * pace's count does not depend on the order in which requests reach the provider, which is not the order they
 * started in: one that started first may wait in a busy worker while later ones go out.
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
  /** Requests started so far. */
  starts = 0
  #window: ProviderWindow | undefined
  /** When the current window began (the reset of the one before), and the requests started in it. */
  #windowBegunAt = -Infinity
  #startsInWindow = 0
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

  /** Requests the provider's current window still allows, as far as the answers tell (Infinity before any does). */
  windowRoom(): number {
    this.#endWindowIfReset(this.#now())
    const window = this.#window
    return window === undefined ? Infinity : window.allowance - Math.max(window.counted, this.#startsInWindow)
  }

  /** A request starts: it takes one of the window's requests left, and the last one holds until the reset. */
  started(): void {
    this.starts++
    this.#endWindowIfReset(this.#now())
    this.#startsInWindow++
    if (this.#window === undefined) return
    this.#window.counted++
    this.#holdIfSpent(this.#window)
  }

  /**
   * What one attempt met; `startedSince` counts the attempts started after this one, `startedAt` when this one
   * started (Date.now(), as `heardAt`).
   */
  report(signal: PaceSignal, startedSince: number, startedAt: number): void {
    const now = Math.min(signal.heardAt ?? Infinity, this.#now())
    if (signal.throttled) {
      this.refusals++
      this.#answeredInARow = 0
      // A refused request is not one of the window's: the provider did not count it.
      if (startedAt >= this.#windowBegunAt && this.#startsInWindow > 0) this.#startsInWindow--
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
   * An answer's figures for the window its request started in; those of an earlier window, or of one already over,
   * say nothing of the current one. Without the provider's limit, what it counted is taken as the pace's own starts
   * up to the answer's request.
   */
  #heed(rateLimit: RateLimitState, startedSince: number, now: number, startedAt: number): void {
    this.#endWindowIfReset(now)
    if (startedAt < this.#windowBegunAt) return
    const ownCount = Math.max(1, this.#startsInWindow - startedSince)
    const { requests } = rateLimit
    const counted = requests?.limit === undefined ? ownCount : requests.limit - requests.remaining
    const tightest = tightestWindowSaid(rateLimit, counted, now)
    if (tightest === undefined || tightest.resetAt <= now) return
    const known = this.#window
    if (known === undefined) {
      // More starts than the window allows, yet answered: they spanned windows no answer spoke of.
      if (this.#startsInWindow > tightest.allowance) this.#startsInWindow = tightest.counted + startedSince
      this.#window = tightest
    } else {
      // A reset said as a duration (OpenAI's `0.8s`) counts from when the answer was read, late in a busy process.
      known.resetAt = Math.min(known.resetAt, tightest.resetAt)
      known.allowance = tightest.allowance
      known.counted = Math.max(known.counted, tightest.counted)
    }
    this.#holdIfSpent(known ?? tightest)
  }

  /** Once the window has reset, the next one begins: no answer has spoken of it yet. */
  #endWindowIfReset(now: number): void {
    if (this.#window === undefined || this.#window.resetAt > now) return
    this.#windowBegunAt = this.#window.resetAt
    this.#startsInWindow = 0
    this.#window = undefined
  }

  #holdIfSpent(window: ProviderWindow): void {
    if (this.windowRoom() <= 0) this.hold(window.resetAt)
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

/**
 * The tightest window an answer's headers say (tokens as requests of the window's average size), given what the
 * provider counted in it and when the answer came; undefined when they say nothing of a window.
 */
function tightestWindowSaid(
  { requests, tokens }: RateLimitState,
  counted: number,
  now: number,
): ProviderWindow | undefined {
  const figures: ProviderWindow[] = []
  if (requests?.resetMs !== undefined)
    figures.push({ allowance: counted + requests.remaining, counted, resetAt: now + requests.resetMs })
  if (tokens?.resetMs !== undefined && tokens.limit !== undefined) {
    const requestsUsed = requests?.limit === undefined ? 0 : requests.limit - requests.remaining
    const perRequest = requestsUsed > 0 ? (tokens.limit - tokens.remaining) / requestsUsed : undefined
    const resetAt = now + tokens.resetMs
    if (perRequest !== undefined && perRequest > 0)
      figures.push({ allowance: counted + Math.floor(tokens.remaining / perRequest), counted, resetAt })
    else if (tokens.remaining < LOW_TOKEN_SHARE * tokens.limit) figures.push({ allowance: counted, counted, resetAt })
  }
  return figures.reduce<ProviderWindow | undefined>(
    (low, each) => (low === undefined || each.allowance - each.counted < low.allowance - low.counted ? each : low),
    undefined,
  )
}

/** The requests an answer's headers say its window had left when its request came (Infinity when they say nothing). */
export function roomSaid(rateLimit: RateLimitState | undefined): number {
  const window = rateLimit === undefined ? undefined : tightestWindowSaid(rateLimit, 0, 0)
  return window === undefined ? Infinity : window.allowance
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
