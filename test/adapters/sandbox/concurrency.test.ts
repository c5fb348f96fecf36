import { expect, test } from 'vitest'
import { Limiter, sandboxConcurrency } from '../../../adapters/sandbox/concurrency.ts'

test('a limiter never runs more than its limit at once, and runs everything', async () => {
  const limiter = new Limiter(2)
  let running = 0
  let most = 0
  const results = await Promise.all(
    Array.from({ length: 10 }, (_, index) =>
      limiter
        .run(async () => {
          most = Math.max(most, ++running)
          await new Promise((resolve) => setTimeout(resolve, 5))
          running--
          if (index === 3) throw new Error('boom')
          return index
        })
        .catch(() => -1),
    ),
  )
  expect(most).toBe(2)
  expect(results).toEqual([0, 1, 2, -1, 4, 5, 6, 7, 8, 9])
})

test('TESTBENCH_SANDBOX_CONCURRENCY sets the limit; nonsense is refused with the fix', () => {
  expect(sandboxConcurrency({ TESTBENCH_SANDBOX_CONCURRENCY: '3' })).toBe(3)
  expect(sandboxConcurrency({})).toBeGreaterThanOrEqual(1)
  expect(() => sandboxConcurrency({ TESTBENCH_SANDBOX_CONCURRENCY: 'lots' })).toThrow(/whole number/)
})
