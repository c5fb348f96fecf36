/**
 * What one answer's rate-limit headers said, as a pace reads them: the requests allowed in all, those the provider
 * had counted when the request came, when the allowance is whole again (the reset, as the provider counted it: from
 * the request's sending for a reset said as a duration), when the request was sent as near as known, and the refill
 * rate the figures imply (what was counted over the time until whole), in requests a ms.
 */
export interface Figures {
  allowance: number
  counted: number
  wholeAt: number
  sentAt: number
  perMs: number
  /** How far from the time it stands for the reset said may be (a time in whole seconds: 1000). */
  precisionMs: number
}

/** How much further than the time between two requests their resets must move apart to show a bucket. */
export const REFILL_SHOWN_MS = 50
/**
 * How much later than its figures say the bucket is taken to begin refilling: an answer's figures count from its
 * request's sending, and the request sent next may reach the provider sooner after its own sending than that one did
 * (the first requests of a run open their connections). A bucket seen from each answer loses only this much of its
 * refill, once.
 */
export const ARRIVAL_SPREAD_MS = 50

/**
 * Whether two figures show a token bucket. Its reset, the time until it is whole again, moves later by one refill
 * for each request it lets in, however close together they came; a sliding window's moves by the time between its
 * requests, a fixed window's not at all. So the later sent must have been sent before the earlier's reset (else they
 * may be of two windows), have counted more, and its reset must have moved further than the time between them:
 * past the headers' rounding and the requests' way to the provider (twice the rounding, REFILL_SHOWN_MS and a
 * twentieth of the reset).
 */
export function showRefill(one: Figures, other: Figures): boolean {
  const [first, second] = one.sentAt <= other.sentAt ? [one, other] : [other, one]
  if (first.perMs <= 0 || second.perMs <= 0) return false
  if (second.sentAt >= first.wholeAt || second.counted <= first.counted) return false
  const moved = second.wholeAt - first.wholeAt - (second.sentAt - first.sentAt)
  const rounding = 2 * Math.max(first.precisionMs, second.precisionMs)
  return moved > rounding + REFILL_SHOWN_MS + (second.wholeAt - second.sentAt) / 20
}

/**
 * A provider's allowance as a token bucket: at most `allowance` requests, refilled continuously at `perMs` a ms.
 * Anthropic documents its rate limits as token buckets; OpenAI's answers say the time until the allowance is whole
 * again, one refill for each request let in (`12ms` at 5,000 a minute). What it holds is counted from the last answer's
 * figures (the requests left when its request came), and each start since: an error in the rate only counts for the
 * time since that answer's request, not for the whole bucket's.
 */
export class ProviderBucket {
  allowance: number
  perMs: number
  /** The requests it held at `#at`, after the start then; it refills from `#at`, and not before `#refillsFrom`. */
  #level: number
  #at: number
  #refillsFrom: number

  constructor(said: Figures) {
    this.allowance = said.allowance
    this.perMs = said.perMs
    this.#level = said.allowance - said.counted
    this.#at = said.sentAt
    this.#refillsFrom = said.sentAt + ARRIVAL_SPREAD_MS
  }

  #levelAt(now: number): number {
    const refilled = this.perMs * Math.max(0, now - Math.max(this.#at, this.#refillsFrom))
    return Math.min(this.allowance, this.#level + refilled)
  }

  /** The requests it has room for at `now`. */
  room(now: number): number {
    return Math.floor(this.#levelAt(now) + 1e-9)
  }

  /** The time from `now` until it has room for one request. */
  waitMs(now: number): number {
    if (this.#levelAt(now) >= 1) return 0
    return Math.max(0, Math.max(this.#at, this.#refillsFrom) + (1 - this.#level) / this.perMs - now)
  }

  /** A request starts at `at`: it takes one. */
  started(at: number): void {
    this.#level = this.#levelAt(at) - 1
    this.#at = Math.max(this.#at, at)
  }

  /**
   * What an answer said, and when the requests started after its own did: each took one. A bucket's `remaining` is
   * its level rounded down, so each answer's rate is at least the refill: the least rate said is the nearest.
   */
  heard(said: Figures, startsSince: readonly number[]): void {
    if (said.perMs > 0) this.perMs = Math.min(this.perMs, said.perMs)
    this.allowance = said.allowance
    this.#level = said.allowance - said.counted
    this.#at = said.sentAt
    this.#refillsFrom = said.sentAt + ARRIVAL_SPREAD_MS
    for (const at of startsSince) this.started(at)
  }
}
