import { describe, expect, test } from 'vitest'
import { retryAfterMs } from '../../../../adapters/models/requests/attempt.ts'
import { limitConcurrency } from '../../../../adapters/models/requests/limit-concurrency.ts'

describe('Retry-After', () => {
  test('reads seconds and HTTP dates', () => {
    const now = Date.parse('2026-11-21T12:00:00Z')
    expect(retryAfterMs('3', now)).toBe(3000)
    expect(retryAfterMs('0.5', now)).toBe(500)
    expect(retryAfterMs('Sat, 21 Nov 2026 12:00:10 GMT', now)).toBe(10_000)
    expect(retryAfterMs('Sat, 21 Nov 2026 11:00:00 GMT', now)).toBe(0)
    expect(retryAfterMs(null, now)).toBeUndefined()
    expect(retryAfterMs('soon', now)).toBeUndefined()
  })
})

describe('limitConcurrency', () => {
  test('never runs more than the limit at once, and runs everything', async () => {
    const limited = limitConcurrency(2)
    let running = 0
    let most = 0
    const results = await Promise.all(
      Array.from({ length: 7 }, (_, index) =>
        limited(async () => {
          running++
          most = Math.max(most, running)
          await new Promise((resolve) => setTimeout(resolve, 5))
          running--
          return index
        }),
      ),
    )
    expect(results).toEqual([0, 1, 2, 3, 4, 5, 6])
    expect(most).toBe(2)
  })
})

describe('limitConcurrency at limit 1', () => {
  // With the old limiter, a caller arriving two microtasks after a task ended took the freed slot
  // before the waiter it had been handed to woke up: 2 in flight at limit 1 (issue 16).
  test.for([0, 1, 2, 3, 4, 5])(
    'a caller arriving %i microtasks after a task ends waits for the slot',
    async (depth) => {
      const limited = limitConcurrency(1)
      let running = 0
      let most = 0
      let releaseFirst = (): void => {}
      const job = (gate: Promise<void>): Promise<void> =>
        limited(async () => {
          running++
          most = Math.max(most, running)
          await gate
          running--
        })
      const short = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 2))
      const first = job(new Promise((resolve) => (releaseFirst = resolve)))
      const second = job(short())
      const third = (async () => {
        await new Promise((resolve) => setTimeout(resolve, 5))
        releaseFirst()
        for (let step = 0; step < depth; step++) await null
        await job(short())
      })()
      await Promise.all([first, second, third])
      expect(most).toBe(1)
    },
  )
})
