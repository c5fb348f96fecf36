import type { EndpointPace } from './endpoint-pace.ts'
import type { Slots } from './limit-concurrency.ts'

/**
 * In-flight slots that follow the endpoint's pace: a task starts when fewer than the pace's current
 * concurrency are in flight and no hold is on; waiting tasks start in order, and one whose signal aborts
 * leaves the queue. Each task reports what its attempt met, and the pace moves.
 */
export function pacedSlots(pace: EndpointPace, now: () => number = Date.now): Slots {
  let running = 0
  /** Each waiter hears the pace's count of starts with its own. */
  const waiting: Array<(startNumber: number) => void> = []
  let wake: NodeJS.Timeout | undefined
  const pump = (): void => {
    while (waiting.length > 0 && pace.mayStart(running)) {
      running++
      pace.started()
      waiting.shift()?.(pace.starts)
    }
    const held = pace.waitForMs()
    if (waiting.length > 0 && held > 0 && wake === undefined)
      wake = setTimeout(() => {
        wake = undefined
        pump()
      }, held)
  }
  return async (task, signal) => {
    const startNumber = await new Promise<number>((resolve, reject) => {
      if (signal?.aborted) return reject(abortReason(signal))
      const start = (number: number): void => {
        signal?.removeEventListener('abort', leave)
        resolve(number)
      }
      const leave = (): void => {
        const index = waiting.indexOf(start)
        if (index >= 0) waiting.splice(index, 1)
        reject(abortReason(signal))
      }
      signal?.addEventListener('abort', leave, { once: true })
      waiting.push(start)
      pump()
    })
    const startedAt = now()
    try {
      return await task((report) => pace.report(report, pace.starts - startNumber, startedAt))
    } finally {
      running--
      pace.ended()
      pump()
    }
  }
}

/** Why a wait for a slot ended: the signal's reason, when it is an error. */
export function abortReason(signal: AbortSignal | undefined): Error {
  return signal?.reason instanceof Error ? signal.reason : new Error('Aborted while waiting for a slot.')
}
