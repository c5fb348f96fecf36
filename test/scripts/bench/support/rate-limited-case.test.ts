import { describe, expect, test } from 'vitest'
import { againstYardsticks, allowedMs } from '../../../../scripts/bench/support/rate-limited-case.ts'
import { fixedWindow, slidingWindow, tokenBucket } from '../../../support/rate-limiters.ts'

describe('the time a rate limit allows (the yardstick of the rate-limited bench)', () => {
  const fixed = (perWindow: number) => [[fixedWindow(perWindow, 1000), 1] as const]

  test('fixed windows: each starts its allowance at most, none before the window begins', () => {
    // 64 at once take 200 ms; a 1 s window lets 76 start: 64 at its start, 12 when the first replies end.
    expect(allowedMs(76, 64, 200, fixed(76))).toBe(400)
    expect(allowedMs(77, 64, 200, fixed(76))).toBe(1200)
    expect(allowedMs(141, 64, 200, fixed(76))).toBe(1400)
    // 450 = 5 windows of 76 and a sixth of 70: 64 at 5.0 s, then 6 at 5.2 s.
    expect(allowedMs(450, 64, 200, fixed(76))).toBe(5400)
    // Two at a time, 3 a window: 9 in the first three windows, the tenth at 3.0 s.
    expect(allowedMs(10, 2, 100, fixed(3))).toBe(3100)
  })

  test('the tighter of two limits sets the pace: 8,000 tokens of 105 a request are 76 requests', () => {
    const limits = [
      [fixedWindow(100, 1000), 1],
      [fixedWindow(8000, 1000), 105],
    ] as const
    expect(allowedMs(450, 64, 200, limits)).toBe(5400)
  })

  test('below the limit, concurrency alone sets the time', () => {
    expect(allowedMs(128, 64, 200, fixed(1000))).toBe(400)
  })

  test('a sliding window: a start waits until the one a window before it has left', () => {
    // 3 in any 1 s, 64 slots, 200 ms replies: 0, 0, 0, then 1000, 1000, 1000, then 2000: the 7th ends at 2200.
    expect(allowedMs(7, 64, 200, [[slidingWindow(3, 1000), 1]])).toBe(2200)
    // One slot: starts at 0, 200, 400; the 4th waits for the 1st to leave (1000), the 5th for the 2nd (1200).
    expect(allowedMs(5, 1, 200, [[slidingWindow(3, 1000), 1]])).toBe(1400)
  })

  test('a token bucket: its burst at once, then one start per refill', () => {
    // A burst of 10, 300 a minute (one every 200 ms): 10 at 0, the 11th at 200, the 450th at 88 s.
    expect(allowedMs(10, 64, 200, [[tokenBucket(10, 300, 60_000), 1]])).toBe(200)
    expect(allowedMs(11, 64, 200, [[tokenBucket(10, 300, 60_000), 1]])).toBe(400)
    expect(allowedMs(450, 64, 200, [[tokenBucket(10, 300, 60_000), 1]])).toBeCloseTo(88_200, 6)
    // 60 a minute with a burst of 10: 60 items end at 50.2 s.
    expect(allowedMs(60, 64, 200, [[tokenBucket(10, 60, 60_000), 1]])).toBeCloseTo(50_200, 6)
  })

  test('tokens per minute in a bucket as large as the limit (Anthropic): a minute’s worth at once, then the refill', () => {
    // 30,000 input tokens a minute, 100 a request, refilled at 0.5 a ms: 64 start at 0, 200, 400 and 600 (256), and
    // at 800 the 4,400 left plus 400 refilled start 48 more (304); then one every 200 ms: the 450th at 30.0 s.
    expect(allowedMs(300, 64, 200, [[tokenBucket(30_000, 30_000, 60_000), 100]])).toBe(1000)
    expect(allowedMs(450, 64, 200, [[tokenBucket(30_000, 30_000, 60_000), 100]])).toBeCloseTo(30_200, 6)
  })
})

describe('a limiter run judged against the larger yardstick', () => {
  test('where the limit does not bind, the run without a limit is the yardstick', () => {
    // 450 items under 3,000 a minute at c = 64: the schedule is 8 rounds of 200 ms; the harness alone took 2.0 s.
    const judged = againstYardsticks(2100, 1600, 2000)
    expect(judged.ratio).toBeCloseTo(1.05, 6)
    expect(judged.text).toBe(
      "2.10 s of 1.60 s allowed (1.31× the limit's schedule; 1.05× the same run without a limit)",
    )
  })

  test('where the limit binds, its schedule is the yardstick', () => {
    const judged = againstYardsticks(61_200, 60_600, 2000)
    expect(judged.ratio).toBeCloseTo(61_200 / 60_600, 6)
    expect(judged.text).toBe(
      "61.20 s of 60.60 s allowed (1.01× the limit's schedule; 30.60× the same run without a limit)",
    )
  })
})
