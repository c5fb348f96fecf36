import type { PaceReport } from './endpoint-pace.ts'

/**
 * Runs a task when one of the limited slots is free; the task may tell its endpoint's pace what it met.
 * A task whose `signal` aborts while it waits leaves the queue (its promise rejects with the signal's reason).
 */
export type Slots = <T>(task: (report: PaceReport) => Promise<T>, signal?: AbortSignal) => Promise<T>

/**
 * At most `limit` calls of the returned function run at once; the rest wait in order.
 * A finishing task hands its slot straight to the next waiter, so a caller arriving
 * in between cannot take it too (the limit holds exactly, also at 1).
 */
export function limitConcurrency(limit: number): Slots {
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`a concurrency limit must be a whole number of at least 1, not ${limit}`)
  let running = 0
  const waiting: Array<() => void> = []
  const release = (): void => {
    const next = waiting.shift()
    if (next) next()
    else running--
  }
  return async (task) => {
    if (running < limit) running++
    else await new Promise<void>((resolve) => waiting.push(resolve))
    try {
      return await task(() => undefined)
    } finally {
      release()
    }
  }
}
