import { expect, test } from 'vitest'
import { pollDelay } from '../../../harness/batches/batch-queue.ts'

test('a batch is polled from 1/32 of the longest wait, then every 2 % of the time waited, never less often than the longest wait', () => {
  expect(pollDelay(0, 60_000)).toBe(1875)
  expect(pollDelay(10_000, 60_000)).toBe(1875)
  expect(pollDelay(600_000, 60_000)).toBe(12_000)
  expect(pollDelay(3_600_000, 60_000)).toBe(60_000)
})

test('a batch whose counts show its pace is polled once more when it should end at that pace', () => {
  // 600 s waited, 900 of 1,000 done: at that pace it ends in 66.7 s, later than the 2 % rule's 12 s.
  expect(pollDelay(600_000, 60_000, { done: 900, total: 1000 })).toBe(12_000)
  // 990 of 1,000 done: it ends in about 6 s.
  expect(pollDelay(600_000, 60_000, { done: 990, total: 1000 })).toBeCloseTo(6061, 0)
  // Never sooner than 1/32 of the longest wait; no counts yet (Gemini has none), or all done: the 2 % rule.
  expect(pollDelay(600_000, 60_000, { done: 999, total: 1000 })).toBe(1875)
  expect(pollDelay(600_000, 60_000, { done: 0, total: 1000 })).toBe(12_000)
  expect(pollDelay(600_000, 60_000, { done: 1000, total: 1000 })).toBe(12_000)
})
