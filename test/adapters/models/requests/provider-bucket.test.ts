import { describe, expect, test } from 'vitest'
import { EndpointPace } from '../../../../adapters/models/requests/endpoint-pace.ts'
import {
  ARRIVAL_SPREAD_MS,
  ProviderBucket,
  REFILL_SHOWN_MS,
  showRefill,
  type Figures,
} from '../../../../adapters/models/requests/provider-bucket.ts'
import { allowedMs } from '../../../../scripts/bench/support/rate-limited-case.ts'
import { simulatePace } from '../../../support/pace-simulation.ts'
import { limiterOf, type Limiter } from '../../../support/rate-limiters.ts'

/** What a limiter says of a request let in at `sentAt`, as OpenAI says it: the figures as they stood then. */
function figuresOf(limiter: Limiter, sentAt: number): Figures {
  limiter.take(sentAt, 1)
  const { remaining, resetMs } = limiter.left(sentAt)
  const counted = limiter.limit - remaining
  return {
    allowance: limiter.limit,
    counted,
    wholeAt: sentAt + resetMs,
    sentAt,
    perMs: counted / resetMs,
    precisionMs: 0,
  }
}

describe('what two answers show of the limit', () => {
  test('a bucket refilled within one reply: its reset moves by a refill a request, however close they came', () => {
    // 10 at once, refilled at 3,000 a minute: whole again 20 ms later for each request let in.
    const bucket = limiterOf('bucket', 3000, 60_000, 10)
    const said = Array.from({ length: 10 }, (_, index) => figuresOf(bucket, index))
    expect(showRefill(said[0] as Figures, said[1] as Figures)).toBe(false)
    expect(showRefill(said[0] as Figures, said[9] as Figures)).toBe(true)
    // Heard in either order.
    expect(showRefill(said[9] as Figures, said[0] as Figures)).toBe(true)
  })

  test('a sliding window’s reset moves with the time between its requests, a fixed window’s not at all', () => {
    for (const kind of ['sliding', 'fixed'] as const) {
      const window = limiterOf(kind, 100, 60_000)
      const said = Array.from({ length: 50 }, (_, index) => figuresOf(window, index * 400))
      for (const later of said.slice(1)) expect(showRefill(said[0] as Figures, later)).toBe(false)
    }
  })

  test('a fixed window’s next one is not a bucket, however soon after the reset its request came', () => {
    const window = limiterOf('fixed', 10, 1000)
    const said = Array.from({ length: 9 }, (_, index) => figuresOf(window, index * 100))
    // Sent before the reset the others said (1000), let in just after it: the first of the next window.
    const next = { ...figuresOf(window, 1003), sentAt: 998 }
    for (const each of said) expect(showRefill(each, next)).toBe(false)
  })

  test('the reset must move past the headers’ rounding and the way to the provider', () => {
    const first: Figures = { allowance: 10, counted: 1, wholeAt: 20, sentAt: 0, perMs: 0.05, precisionMs: 0 }
    const near = { ...first, counted: 3, wholeAt: 20 + REFILL_SHOWN_MS }
    expect(showRefill(first, near)).toBe(false)
    expect(showRefill(first, { ...near, wholeAt: near.wholeAt + 10 })).toBe(true)
  })
})

describe('a provider’s bucket', () => {
  const said = (counted: number, sentAt: number, perMs = 0.05): Figures => ({
    allowance: 10,
    counted,
    wholeAt: sentAt + counted / perMs,
    sentAt,
    perMs,
    precisionMs: 0,
  })

  test('has room as it refills, one request at a time, up to its allowance', () => {
    const bucket = new ProviderBucket(said(10, 0))
    expect(bucket.room(0)).toBe(0)
    // It refills from ARRIVAL_SPREAD_MS after the figures' request was sent.
    expect(bucket.waitMs(0)).toBeCloseTo(20 + ARRIVAL_SPREAD_MS)
    expect(bucket.room(20 + ARRIVAL_SPREAD_MS)).toBe(1)
    bucket.started(20 + ARRIVAL_SPREAD_MS)
    expect(bucket.room(20 + ARRIVAL_SPREAD_MS)).toBe(0)
    expect(bucket.waitMs(20 + ARRIVAL_SPREAD_MS)).toBeCloseTo(20)
    expect(bucket.room(10_000)).toBe(10)
    // A start when it is whole takes one from the whole.
    bucket.started(10_000)
    expect(bucket.room(10_000)).toBe(9)
  })

  test('an answer sets it as its request found it, less each start since; the least rate said is kept', () => {
    const bucket = new ProviderBucket(said(5, 0))
    // Level 0.9 when the request came: 10 counted (9.1 used), 182 ms until whole, a rate 10 % faster than it is.
    bucket.heard({ ...said(10, 0), wholeAt: 182, perMs: 10 / 182 }, [])
    expect(bucket.perMs).toBeCloseTo(0.05)
    bucket.heard(said(9, 100, 9 / 182), [])
    expect(bucket.perMs).toBeCloseTo(9 / 182)
    // 1 counted at 100: 9 left, one start at 105 and one at 300 (whole again by then: 10 less the one).
    bucket.heard(said(1, 100), [105, 300])
    expect(bucket.room(300)).toBe(9)
  })

  test('a rate said too low costs only the refill since the last answer, however large the bucket', () => {
    // A minute's bucket of 300, empty when the request came, and a rate 3 % below its 5 a second.
    const bucket = new ProviderBucket({
      allowance: 300,
      counted: 300,
      wholeAt: 60_000,
      sentAt: 0,
      perMs: 0.00485,
      precisionMs: 0,
    })
    expect(bucket.room(200)).toBe(0)
    expect(bucket.room(1000 + ARRIVAL_SPREAD_MS)).toBe(4)
  })
})

describe('the pace of one endpoint against a bucket', () => {
  test('a bucket refilled within one reply is told from its answers, and spaces starts a refill apart', () => {
    let clock = 0
    const pace = new EndpointPace(64, () => clock)
    const bucket = limiterOf('bucket', 3000, 60_000, 10)
    for (let start = 0; start < 10; start++) pace.started()
    const said = Array.from({ length: 10 }, () => {
      bucket.take(0, 1)
      return bucket.left(0)
    })
    // Heard 300 ms later, when the bucket was whole again: the resets count from the sending.
    clock = 300
    said.forEach(({ remaining, resetMs }, index) => {
      const rateLimit = { requests: { limit: 10, remaining, resetMs }, leadMs: 300, resetsFromArrival: true }
      pace.report({ throttled: false, rateLimit }, 9 - index, 0)
    })
    expect(pace.windowRoom()).toBe(10)
    for (let start = 0; start < 10; start++) pace.started()
    expect(pace.mayStart(1)).toBe(false)
    expect(pace.waitForMs()).toBeCloseTo(20, 0)
  })
})

// Anthropic's resets are times in whole seconds, rounded one way or the other. A bucket as large as its minute's
// limit (Anthropic's) is read as well as from OpenAI's durations; one that refills within a second or two cannot be
// read from such times at all, and is paced by its refusals.
describe('the pace against a token bucket that says its reset in whole seconds, simulated', () => {
  const CASES = [
    ['anthropic-floor', 300, 300],
    ['anthropic-ceil', 300, 300],
    ['anthropic-floor', 300, 10],
    ['anthropic-ceil', 300, 10],
    ['anthropic-floor', 60, 10],
    ['anthropic-ceil', 60, 10],
  ] as const
  test.for(CASES)('%s, %i a minute, a bucket of %i: within 1.1× the time it allows', ([style, perMinute, capacity]) => {
    const items = perMinute === 60 ? 60 : 450
    const limit = () => limiterOf('bucket', perMinute, 60_000, capacity)
    const run = simulatePace({ items, concurrency: 64, replyMs: 200, limiter: limit(), style, heardLagMs: 25 })
    expect(run.tookMs / allowedMs(items, 64, 200, [[limit(), 1]])).toBeLessThanOrEqual(1.1)
    expect(run.refused / items).toBeLessThanOrEqual(0.1)
    expect(run.sentWhileTold).toBe(0)
  })
})

// The bench's limiters case with OpenAI's headers on a whole-ms clock: 64 in flight at most, 200 ms a reply heard
// 25 ms late (the way back through a worker and the slot server), a bucket of 10 refilled at the rate.
describe('the pace against a token bucket that says its figures, simulated', () => {
  test.for([300, 3000, 60])(
    'a bucket of 10 at %i a minute: within 1.1× the time it allows, ≤ 0.1 × 429 an item',
    (perMinute) => {
      const items = perMinute === 60 ? 60 : 450
      const limit = () => limiterOf('bucket', perMinute, 60_000, 10)
      const run = simulatePace({
        items,
        concurrency: 64,
        replyMs: 200,
        limiter: limit(),
        style: 'openai',
        heardLagMs: 25,
      })
      expect(run.tookMs / allowedMs(items, 64, 200, [[limit(), 1]])).toBeLessThanOrEqual(1.1)
      expect(run.refused / items).toBeLessThanOrEqual(0.1)
      expect(run.sentWhileTold).toBe(0)
    },
  )
})
