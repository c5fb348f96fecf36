import type { EndpointPace } from './endpoint-pace.ts'
import type { Slots } from './limit-concurrency.ts'

/**
 * In-flight slots that follow the endpoint's pace: a task starts when fewer than the pace's current
 * concurrency are in flight and no hold is on; waiting tasks start in order. Each task reports what its
 * attempt met, and the pace moves.
 */
export function pacedSlots(pace: EndpointPace, now: () => number = Date.now): Slots {
  let running = 0
  const waiting: Array<() => void> = []
  let wake: NodeJS.Timeout | undefined
  const pump = (): void => {
    while (waiting.length > 0 && pace.mayStart(running)) {
      running++
      waiting.shift()?.()
    }
    const held = pace.heldForMs()
    if (waiting.length > 0 && held > 0 && wake === undefined)
      wake = setTimeout(() => {
        wake = undefined
        pump()
      }, held)
  }
  return async (task) => {
    await new Promise<void>((resolve) => {
      waiting.push(resolve)
      pump()
    })
    const startedAt = now()
    try {
      return await task((signal) => pace.report(signal, running - 1, startedAt))
    } finally {
      running--
      pump()
    }
  }
}
