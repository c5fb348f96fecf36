import type { Allowance, RateLimitState } from './rate-limit-headers.ts'
import { ProviderBucket, showRefill, type Figures } from './provider-bucket.ts'
import { RefusalSpacing } from './refusal-spacing.ts'

/**
 * What one finished attempt tells its endpoint's pace; `heardAt`, when its answer's headers came (Date.now()):
 * the waits they ask for count from then, however late the pace hears of them (a busy process, the slot server).
 */
export type PaceSignal = { heardAt?: number } &
  /**
   * The provider refused for its limit or load (429, 503, 529), the wait it asked for, if any, and what its headers
   * said of the limit (a refusal says the allowance is spent: every slot must not try again at once).
   */
  (
    | { throttled: true; waitMs?: number; rateLimit?: RateLimitState }
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
  /** Infinity for a window no answer has spoken of yet: the one after a reset, carried on from the one before. */
  resetAt: number
  /** When the answer that said `counted` came. */
  heardAt: number
  /** What the figures said their own allowance had used, in requests (tokens as requests): a bucket's level. */
  used: number
  /** How far from the time it stands for the reset said may be (Anthropic's times in whole seconds: 1000). */
  precisionMs: number
}

/** Until the first answer, a 1/START_SHARE of the ceiling may be in flight. */
export const START_SHARE = 4
/** How far apart two answered starts of a window must be for their resets to tell a sliding window from a fixed one. */
export const SLIDE_SPREAD_MS = 500
/**
 * How much longer than the least the pace keeps a start in a sliding window: the provider counts each from when it
 * arrived, the pace from when it started, and the least time from a start to its reset is of the one that arrived
 * soonest.
 */
export const SLIDE_LAG_MS = 100
const RECENT_FIGURES = 16
/**
 * A reset shorter than this many units of its rounding says nothing of when (a bucket that refills within a few
 * seconds, said in whole seconds): its answer's figures are left out, as if it said none.
 */
const TIMED_ROUNDINGS = 4

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
 *
 * A window that resets is followed by one of the same allowance, until an answer of the new one says more: a token
 * bucket refilled to its capacity (Anthropic's, and OpenAI's, whose reset is the time until the allowance is whole
 * again), a fixed or sliding window's next minute. Its starts stop at that allowance until an answer comes.
 *
 * A token bucket shows itself by its reset (`showRefill`): the time until it is whole again moves later with every
 * request it lets in, where a window's end stays put. Then the room left grows as the bucket refills, at the rate its
 * figures imply (what it counted over the time until it is whole), and a start waits for the next request's worth,
 * not for the whole bucket (`ProviderBucket`). A refusal that asks for a wait longer than a refill's is a window
 * after all, and the pace keeps to windows from then on.
 *
 * A sliding window's reset is when it is empty again: it moves later with each request it lets in, at the clock's
 * pace (a bucket's moves by a refill a request, a fixed window's stays put). Then the pace counts its own starts
 * within the window's length (the least time from a start to the reset its answer said: that of a window its request
 * had just entered), and a spent window holds only until enough of them have left it, not until it is empty.
 *
 * A provider that sends no rate-limit figures at all, only refusals (429, with or without Retry-After), is paced by
 * its refusals (`RefusalSpacing`): after the first, they space the starts at the rate the provider lets in, and no
 * longer lower the concurrency.
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
  /** Requests started so far, and those of them that ended. */
  starts = 0
  #ended = 0
  #window: ProviderWindow | undefined
  /** When the current window began (the reset of the one before), and the requests started in it. */
  #windowBegunAt = -Infinity
  #startsInWindow = 0
  #answeredInARow = 0
  #lastCut = -Infinity
  /** The spacing of starts learned from refusals, while no answer says the limit. */
  #spacing = new RefusalSpacing()
  /** The least time between two starts, learned from refusals when no answer says the limit (0: none). */
  get spacingMs(): number {
    return this.#spacing.spacingMs
  }

  /** Whether the last `mayStart` said no for the time alone: until one says yes, `waitForMs` is at least 1 ms. */
  #refusedForTime = false
  /** Whether any answer said the provider's limit: then its windows pace the starts, not the spacing. */
  #limitsSaid = false
  /** The provider's allowance, once its figures showed a token bucket; whether they showed a window instead. */
  #bucket: ProviderBucket | undefined
  #windowed = false
  /** The figures of the last RECENT_FIGURES answers and refusals, which may show a bucket. */
  #recentFigures: Figures[] = []
  /**
   * Whether the provider's window slides (each request counts until a window's length after it was let in, and the
   * reset said is when the window is empty), and that length: the least time from a start to the reset its answer
   * said, the reset of a window its request had just entered.
   */
  #slides = false
  #slideMs = Infinity
  /**
   * The pace's own starts the provider did not refuse, by number and time, for the last two window lengths: a sliding
   * window frees one as each leaves it, and a bucket takes a refill for each one after an answer's request.
   */
  #starts: Array<{ number: number; at: number }> = []
  get #startTimes(): number[] {
    return this.#starts.map((start) => start.at)
  }
  /** What the provider counted in a sliding window when an answer's request was let in, and the starts since it came. */
  #slideCount = { count: 0, at: -Infinity }
  /** The first answer of the current window: when its request started, and the reset it said. */
  #firstSaid: { startedAt: number; resetAt: number } | undefined
  /** Whether any answer or refusal came yet. */
  #heardAny = false
  /** The fewest tokens a request took, as the answers' figures said it. */
  #fewestTokens = Infinity

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

  /**
   * The requests that may be in flight: `current`, and a quarter of it until the first answer says how the
   * provider counts. A burst of the whole ceiling at a provider that saved up less (a bucket of 10 at 64) is a 429
   * for each request past its saving; a quarter costs at most one reply's time, and often none: the last round of
   * replies is rarely full.
   */
  #startingCeiling(): number {
    return this.#heardAny ? this.current : Math.max(1, Math.ceil(this.current / START_SHARE))
  }

  /** A request ended, answered or not: the quarter before the first answer is over. */
  ended(): void {
    this.#heardAny = true
    this.#ended++
  }

  /** How long, in ms, every request to the endpoint must still wait. */
  heldForMs(): number {
    return Math.max(0, this.holdUntil - this.#now())
  }

  /**
   * How long, in ms, the next start must wait: a hold, the spacing since the last start, or a bucket's refill of one
   * request (a window spent past its reset waits for an answer instead: no timer).
   */
  waitForMs(): number {
    const wait = this.#timeToWait()
    // A caller asks this a moment after `mayStart` said no for the time: by then the wait may have run out, and a
    // 0 would leave its waiting requests with no timer, and nothing in flight to wake them.
    return this.#refusedForTime ? Math.max(1, wait) : wait
  }

  #timeToWait(): number {
    const now = this.#now()
    const refilled = this.#bucket === undefined ? 0 : this.#bucket.waitMs(now)
    return Math.max(Math.max(0, this.holdUntil - now), this.#spacing.waitForMs(now), refilled)
  }

  /**
   * Whether one more request may start; a window carried past its reset that is spent waits for an answer of the new
   * window, unless nothing is in flight to bring one.
   */
  mayStart(inFlight: number): boolean {
    this.#refusedForTime = false
    if (inFlight >= this.#startingCeiling()) return false
    // Refused while others were in flight, and too soon to measure a rate: what they meet says more than a new start.
    if (inFlight > 0 && this.#spacing.awaitsAnswer) return false
    this.#refusedForTime = this.#timeToWait() > 0
    if (this.#refusedForTime) return false
    return inFlight === 0 || this.windowRoom() > 0
  }

  /** Requests the provider's current window still allows, as far as the answers tell (Infinity before any does). */
  windowRoom(): number {
    if (this.#bucket !== undefined) return this.#bucket.room(this.#now())
    this.#endWindowIfReset(this.#now())
    const window = this.#window
    if (window === undefined) return Infinity
    if (this.#slides) return window.allowance - this.#slidingCount()
    return window.allowance - Math.max(window.counted, this.#startsInWindow)
  }

  /** A request starts: it takes one of the window's requests left, and the last one holds until the reset. */
  started(): void {
    this.starts++
    const now = this.#now()
    this.#spacing.started(now)
    this.#endWindowIfReset(now)
    this.#startsInWindow++
    this.#starts.push({ number: this.starts, at: now })
    const horizon = now - 2 * (Number.isFinite(this.#slideMs) ? this.#slideMs : 60_000)
    if ((this.#starts[0]?.at ?? now) < horizon) this.#starts = this.#starts.filter((start) => start.at >= horizon)
    this.#slideCount.count++
    if (this.#bucket !== undefined) return this.#bucket.started(now)
    if (this.#window === undefined) return
    this.#window.counted++
    this.#holdIfSpent(this.#window)
  }

  /**
   * What one attempt met; `startedSince` counts the attempts started after this one, `startedAt` when this one
   * started (Date.now(), as `heardAt`).
   */
  report(signal: PaceSignal, startedSince: number, startedAt: number): void {
    this.#heardAny = true
    const now = Math.min(signal.heardAt ?? Infinity, this.#now())
    if (signal.throttled) {
      this.refusals++
      this.#answeredInARow = 0
      // A refused request is not one of the window's: the provider did not count it.
      if (startedAt >= this.#windowBegunAt && this.#startsInWindow > 0) {
        this.#startsInWindow--
        // A window carried past its reset counts only the pace's own starts: this one did not count.
        if (this.#window?.resetAt === Infinity && this.#window.counted > 0) this.#window.counted--
      }
      this.#forgetStart(startedAt, this.starts - startedSince)
      // Once refusals space the starts of a provider that says nothing of its limit, they set the rate, not this.
      if (startedAt > this.#lastCut && (this.#limitsSaid || !this.#spacing.spaced)) {
        // A refusal that says how long to wait is a window's allowance spent, which the hold answers: one step down.
        // One that does not (an overloaded server, a proxy) halves the concurrency.
        this.current = Math.max(1, signal.waitMs === undefined ? Math.floor(this.current / 2) : this.current - 1)
        this.lowest = Math.min(this.lowest, this.current)
        this.#lastCut = now
      }
      const othersInFlight = this.starts - this.#ended - 1
      if (!this.#limitsSaid) this.#spacing.refused(now, startedAt, signal.waitMs, this.#startTimes, othersInFlight > 0)
      // A bucket refuses for about one refill's time; a longer wait is a window's end.
      const perMs = this.#bucket?.perMs ?? 0
      if (this.#bucket !== undefined && (signal.waitMs === undefined || signal.waitMs > 2 / perMs + 1000)) {
        this.#bucket = undefined
        this.#windowed = true
        // Its resets moved as a bucket's: what they said of a sliding window is not to be trusted either.
        this.#slides = false
      }
      if (signal.waitMs !== undefined) this.hold(now + signal.waitMs)
      if (signal.rateLimit !== undefined) this.#heed(signal.rateLimit, startedSince, now, startedAt, false)
      return
    }
    this.#heed(signal.rateLimit ?? {}, startedSince, now, startedAt, true)
    if (!this.#limitsSaid) this.#spacing.answered(startedAt)
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
  #heed(rateLimit: RateLimitState, startedSince: number, now: number, startedAt: number, answered: boolean): void {
    this.#endWindowIfReset(now)
    // A bucket's figures hold whenever they were said; a window's only within it.
    if (startedAt < this.#windowBegunAt && this.#bucket === undefined) return
    const ownCount = Math.max(1, this.#startsInWindow - startedSince)
    const { requests } = rateLimit
    const counted = requests?.limit === undefined ? ownCount : requests.limit - requests.remaining
    this.#fewestTokens = Math.min(this.#fewestTokens, tokensPerRequest(rateLimit) ?? Infinity)
    const tightest = tightestWindowSaid(rateLimit, counted, now, this.#fewestTokens)
    if (tightest === undefined) return
    if (!this.#limitsSaid) this.#spacing = new RefusalSpacing()
    this.#limitsSaid = true
    // The figures were counted when the request came, and a reset said as a duration counts from then; a window's
    // reset is the latest it can be: from the answer, past its rounding.
    const { used, precisionMs } = tightest
    const sentAt = now - (rateLimit.leadMs ?? 0)
    const wholeAt = rateLimit.resetsFromArrival ? tightest.resetAt - (now - sentAt) : tightest.resetAt - precisionMs
    // What was used over the time until the allowance is whole is a bucket's refill rate, in requests (the rounding
    // leaves it within a quarter: see TIMED_ROUNDINGS): a bucket's level counts from the last answer, so the rate only
    // says how it refills until the next.
    const span = wholeAt - sentAt
    const perMs = span > 0 ? used / span : 0
    const figures = {
      allowance: used + tightest.allowance - tightest.counted,
      counted: used,
      wholeAt,
      sentAt,
      perMs,
      precisionMs,
    }
    this.#watchRefill(figures)
    if (this.#bucket !== undefined) {
      const own = this.starts - startedSince
      const since = this.#starts.filter((start) => start.number > own).map((start) => start.at)
      this.#bucket.heard(figures, since)
      return this.#holdIfSpent(tightest)
    }
    const known = this.#window
    if (tightest.resetAt <= now) {
      // Whole again by the time the answer came (a bucket refilled, a window over): a window begins, in which at most
      // the requests started since this one were counted.
      // Answers to the requests started after this one speak of the new window too.
      this.#windowBegunAt = startedAt
      this.#startsInWindow = Math.min(this.#startsInWindow, startedSince)
      const { allowance } = tightest
      this.#window = {
        allowance,
        counted: startedSince,
        resetAt: Infinity,
        heardAt: now,
        used: 0,
        precisionMs: 0,
      }
      return
    }
    if (known === undefined) {
      // More starts than the window allows, yet answered: they spanned windows no answer spoke of.
      if (this.#startsInWindow > tightest.allowance) this.#startsInWindow = tightest.counted + startedSince
      this.#window = tightest
    } else {
      // The latest a reset said as a duration can be is from when the answer came: the earliest of those holds.
      known.resetAt = Math.min(known.resetAt, tightest.resetAt)
      known.allowance = tightest.allowance
      known.counted = Math.max(known.counted, tightest.counted)
    }
    // A reset within a few of its rounding's units says nothing of how it moves.
    if (answered && tightest.resetAt - tightest.heardAt >= 20 * tightest.precisionMs)
      this.#watchSlide(tightest, startedAt)
    this.#holdIfSpent(known ?? tightest)
  }

  /** Once two of the recent figures show a token bucket, the pace keeps to it (until a refusal shows a window). */
  #watchRefill(figures: Figures): void {
    if (this.#bucket !== undefined || this.#windowed) return
    if (this.#recentFigures.some((other) => showRefill(other, figures))) this.#bucket = new ProviderBucket(figures)
    this.#recentFigures = [...this.#recentFigures.slice(1 - RECENT_FIGURES), figures]
  }

  /**
   * An answer of a window that is not a bucket. A sliding window's reset (when it is empty again) moves later with
   * each request it lets in, as time goes on; a fixed window's stays put. Once a request started SLIDE_SPREAD_MS or
   * more after the window's first answered one says a reset at least 3/4 of that time later, the window slides.
   */
  #watchSlide(said: ProviderWindow, startedAt: number): void {
    this.#slideMs = Math.min(this.#slideMs, said.resetAt - startedAt + SLIDE_LAG_MS)
    // Not plus the starts since this request's: the provider counted those that reached it first (requests arrive out
    // of the order they started in), and the pace's own count, the larger, has every one of them.
    const candidate = { count: said.counted, at: startedAt }
    if (this.#slideCountOf(candidate) >= this.#slideCountOf(this.#slideCount)) this.#slideCount = candidate
    const first = this.#firstSaid
    if (first === undefined || first.resetAt <= startedAt) {
      this.#firstSaid = { startedAt, resetAt: said.resetAt }
      return
    }
    const spread = startedAt - first.startedAt
    if (spread >= SLIDE_SPREAD_MS && said.resetAt - first.resetAt >= 0.75 * spread) this.#slides = true
  }

  /**
   * What a sliding window counts now: the more of the pace's own starts within a window's length, and what an answer
   * said it counted less the pace's starts that have left the window since.
   */
  #slidingCount(): number {
    const gone = this.#now() - this.#slideMs
    return Math.max(this.#startTimes.filter((at) => at > gone).length, this.#slideCountOf(this.#slideCount))
  }

  #slideCountOf({ count, at }: { count: number; at: number }): number {
    const gone = this.#now() - this.#slideMs
    return count - this.#startTimes.filter((start) => start > at - this.#slideMs && start <= gone).length
  }

  /** A refused start did not enter the provider's window: it leaves the pace's own count. */
  #forgetStart(startedAt: number, number: number): void {
    if (startedAt >= this.#slideCount.at && this.#slideCount.count > 0) this.#slideCount.count--
    this.#starts = this.#starts.filter((start) => start.number !== number)
  }

  /** Once the window has reset, the next one begins with the same allowance: no answer has spoken of it yet. */
  #endWindowIfReset(now: number): void {
    if (this.#window === undefined || this.#window.resetAt > now) return
    this.#windowBegunAt = this.#window.resetAt
    this.#startsInWindow = 0
    const { allowance, resetAt } = this.#window
    this.#window = { allowance, counted: 0, resetAt: Infinity, heardAt: resetAt, used: 0, precisionMs: 0 }
  }

  /**
   * A window spent holds until its reset; a sliding one, until enough of its starts have left it; a bucket spent,
   * until it has refilled one request's worth.
   */
  #holdIfSpent(window: ProviderWindow): void {
    const room = this.windowRoom()
    if (room <= 0 && this.#bucket !== undefined) return this.hold(this.#now() + this.#bucket.waitMs(this.#now()))
    if (room <= 0 && this.#slides) {
      // A sliding window frees a request as each start leaves it: the hold ends when enough of the pace's own have.
      const gone = this.#now() - this.#slideMs
      const freeing = this.#startTimes.filter((at) => at > gone)[-room]
      if (freeing !== undefined) return this.hold(Math.min(window.resetAt, freeing + this.#slideMs))
    }
    if (room > 0 || !Number.isFinite(window.resetAt)) return
    this.hold(window.resetAt)
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
  fewestTokens = Infinity,
): ProviderWindow | undefined {
  const figures: ProviderWindow[] = []
  // The reset as late as its rounding lets it be.
  const said = (allowance: number, { resetMs = 0, resetPrecisionMs = 0 }: Allowance, used = counted) => ({
    allowance,
    counted,
    resetAt: now + resetMs + resetPrecisionMs,
    heardAt: now,
    used,
    precisionMs: resetPrecisionMs,
  })
  const timed = (allowance: Allowance | undefined): boolean =>
    allowance?.resetMs !== undefined && allowance.resetMs >= TIMED_ROUNDINGS * (allowance.resetPrecisionMs ?? 0)
  if (timed(requests) && requests !== undefined) figures.push(said(counted + requests.remaining, requests))
  if (timed(tokens) && tokens?.limit !== undefined) {
    const perRequest = Math.min(tokensPerRequest({ requests, tokens }) ?? Infinity, fewestTokens)
    if (Number.isFinite(perRequest) && perRequest > 0) {
      const used = (tokens.limit - tokens.remaining) / perRequest
      figures.push(said(counted + Math.floor(tokens.remaining / perRequest), tokens, used))
    } else if (tokens.remaining < LOW_TOKEN_SHARE * tokens.limit) figures.push(said(counted, tokens))
  }
  return figures.reduce<ProviderWindow | undefined>(
    (low, each) => (low === undefined || each.allowance - each.counted < low.allowance - low.counted ? each : low),
    undefined,
  )
}

/**
 * The tokens a request takes, as an answer's figures say them: the tokens used over the requests used. Where the
 * requests' allowance refills faster than the tokens' (buckets of different rates), this overstates it; the pace
 * keeps the fewest seen (EndpointPace's `#fewestTokens`).
 */
function tokensPerRequest({ requests, tokens }: RateLimitState): number | undefined {
  if (tokens?.limit === undefined || requests?.limit === undefined) return undefined
  const requestsUsed = requests.limit - requests.remaining
  const tokensUsed = tokens.limit - tokens.remaining
  return requestsUsed > 0 && tokensUsed > 0 ? tokensUsed / requestsUsed : undefined
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
