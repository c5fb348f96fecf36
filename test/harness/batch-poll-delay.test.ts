import { expect, test } from 'vitest'
import { pollDelay } from '../../harness/batch-queue.ts'

test('a batch is polled from 1/32 of the longest wait, then every 2 % of the time waited, never less often than the longest wait', () => {
  expect(pollDelay(0, 60_000)).toBe(1875)
  expect(pollDelay(10_000, 60_000)).toBe(1875)
  expect(pollDelay(600_000, 60_000)).toBe(12_000)
  expect(pollDelay(3_600_000, 60_000)).toBe(60_000)
})
