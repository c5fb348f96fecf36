/** How far back the pace's own starts count when a refusal says the provider's rate was passed, in ms. */
export const RATE_SPAN_MS = 10_000
/** The longest spacing between two starts: two starts in RATE_SPAN_MS still measure a rate. */
export const MAX_SPACING_MS = RATE_SPAN_MS / 2
/** The spacing after the first refusal, in ms: a search that doubles it at each refusal starts here. */
export const FIRST_SPACING_MS = 25
/** A rate measured over fewer starts than this is a guess: the pace feels for the provider's rate quickly from it. */
export const SURE_STARTS = 10
/**
 * The share by which a probe shortens the spacing, at first; it doubles with each probe that passes, up to
 * LARGEST_PROBE_SHARE after a measured rate, LARGEST_GUESS_SHARE after a guess. A larger share finds a rate far
 * above the spacing sooner (a fixed window's next minute), and passes the provider's by more: with `Retry-After` in
 * whole seconds each pass holds every request for a second.
 */
export const PROBE_SHARE = 0.01
export const LARGEST_PROBE_SHARE = 0.04
export const LARGEST_GUESS_SHARE = 0.5

/** The answers in a row at one spacing before it is shortened, after a rate measured over SURE_STARTS or more. */
export const PROBE_EVERY = 10
/** The same, after a guess. */
const GUESS_PROBE_EVERY = 2

/**
 * The spacing of starts to a provider that says nothing of its limit but its refusals (429s, with or without
 * Retry-After; 503s). The first refusal says what the provider had saved up is spent: starts are spaced
 * FIRST_SPACING_MS apart (a wait it asked for holds them meanwhile). Each later refusal measures the provider's rate:
 * the pace's own starts it let in since the first refusal, over the last RATE_SPAN_MS (while it refuses, what it lets
 * in is its rate). Until there are two such starts, a refusal while other requests are in flight makes the next
 * start wait for one of them to be answered (a provider that takes only so many at once frees room as they end, and a
 * bucket refills meanwhile); with none in flight, the spacing doubles, to at least the wait asked for (a search, one
 * refusal a step). A `Retry-After` is not the spacing itself: in whole seconds, it is a second for a
 * provider that refills a request every 20 ms.
 *
 * A rate that rises is found by probing: after PROBE_EVERY answers in a row (GUESS_PROBE_EVERY after a guess), the
 * spacing shortens by a share that starts at 1 % and doubles with each probe that passes. A provider just measured is
 * passed about once every few dozen starts; a guess far too slow is left within a few dozen.
 */
export class RefusalSpacing {
  /** The least time between two starts, in ms (0 until the first refusal). */
  spacingMs = 0
  /** When the next start may go. */
  nextStartAt = 0
  /** When the request refused first started, and when the pace heard the refusal that set the spacing last. */
  #firstRefusedAt: number | undefined
  #lastHeardAt = -Infinity
  #probeShare = PROBE_SHARE
  #probeEvery = GUESS_PROBE_EVERY
  #answersAtSpacing = 0
  /** Whether a refusal came while others were in flight, and no answer since: the next start waits for one. */
  #awaitsAnswer = false

  get awaitsAnswer(): boolean {
    return this.#awaitsAnswer
  }

  /** Whether a refusal has set a spacing yet. */
  get spaced(): boolean {
    return this.#firstRefusedAt !== undefined
  }

  started(now: number): void {
    if (this.spacingMs > 0) this.nextStartAt = Math.max(now, this.nextStartAt) + this.spacingMs
  }

  /** A request that started at `startedAt` was answered. */
  answered(startedAt: number): void {
    this.#awaitsAnswer = false
    if (this.#firstRefusedAt === undefined || startedAt <= this.#lastHeardAt) return
    if (++this.#answersAtSpacing < this.#probeEvery) return
    this.spacingMs *= 1 - this.#probeShare
    const largest = this.#probeEvery === PROBE_EVERY ? LARGEST_PROBE_SHARE : LARGEST_GUESS_SHARE
    this.#probeShare = Math.min(largest, 2 * this.#probeShare)
    this.#answersAtSpacing = 0
  }

  /**
   * A request that started at `startedAt` was refused at `now`, asking for `waitMs` if it said a wait; `letIn` are
   * the start times of the pace's own requests the provider did not refuse. Refusals of requests that started
   * before the pace heard the last one that set the spacing say nothing new: they were not spaced by it.
   */
  refused(
    now: number,
    startedAt: number,
    waitMs: number | undefined,
    letIn: readonly number[],
    othersInFlight = false,
  ): void {
    if (startedAt <= this.#lastHeardAt) return
    const first = this.#firstRefusedAt
    this.#lastHeardAt = now
    this.#probeShare = PROBE_SHARE
    this.#answersAtSpacing = 0
    if (first === undefined) {
      this.#firstRefusedAt = startedAt
      this.#awaitsAnswer = othersInFlight
      this.#probeEvery = GUESS_PROBE_EVERY
      this.#setSpacing(now, FIRST_SPACING_MS)
      return
    }
    const since = Math.max(first, startedAt - RATE_SPAN_MS)
    const counted = letIn.filter((at) => at > since && at < startedAt).length
    const sure = counted >= SURE_STARTS
    this.#probeEvery = sure ? PROBE_EVERY : GUESS_PROBE_EVERY
    if (counted >= 2) return this.#setSpacing(now, (startedAt - since) / counted)
    // Too few let in to measure: while others are in flight, the next start waits for one of them to be answered (a
    // provider that takes so many at once frees room as they end); with none, the search doubles the spacing.
    if (othersInFlight) this.#awaitsAnswer = true
    else this.#setSpacing(now, Math.max(2 * this.spacingMs, waitMs ?? 0))
  }

  #setSpacing(now: number, spacingMs: number): void {
    this.spacingMs = Math.min(Math.max(spacingMs, 1), MAX_SPACING_MS)
    this.nextStartAt = Math.max(this.nextStartAt, now + this.spacingMs)
  }

  /** How long the next start must wait for the spacing, in ms. */
  waitForMs(now: number): number {
    return Math.max(0, this.nextStartAt - now)
  }
}
