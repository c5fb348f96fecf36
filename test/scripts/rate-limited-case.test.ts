import { describe, expect, test } from 'vitest'
import { allowedMs } from '../../scripts/rate-limited-case.ts'

describe('the time a rate limit allows (the yardstick of the rate-limited bench)', () => {
  test('each window starts its allowance at most, none before the window begins', () => {
    // 64 at once take 200 ms; a 1 s window lets 76 start: 64 at its start, 12 when the first replies end.
    expect(allowedMs(76, 64, 200, 76)).toBe(400)
    expect(allowedMs(77, 64, 200, 76)).toBe(1200)
    expect(allowedMs(141, 64, 200, 76)).toBe(1400)
    // 450 = 5 windows of 76 and a sixth of 70: 64 at 5.0 s, then 6 at 5.2 s.
    expect(allowedMs(450, 64, 200, 76)).toBe(5400)
    // Two at a time, 3 a window: 9 in the first three windows, the tenth at 3.0 s.
    expect(allowedMs(10, 2, 100, 3)).toBe(3100)
  })

  test('below the limit, concurrency alone sets the time', () => {
    expect(allowedMs(128, 64, 200, 1000)).toBe(400)
  })
})
