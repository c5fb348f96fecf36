import { EndpointPace } from './endpoint-pace.ts'
import type { Slots } from './limit-concurrency.ts'
import { pacedSlots } from './paced-slots.ts'

/** Slots of one endpoint shared by every process of a run (the run's slot server, harness/run-wide/run-slots.ts). */
export type RunWideSlots = (endpoint: string, ceiling: number) => Slots

const byEndpoint = new Map<string, Slots>()
const paces = new Map<string, EndpointPace>()
let runWide: RunWideSlots | undefined

/**
 * The in-flight slots of one endpoint, shared by every model this process asks through it, so that
 * TESTBENCH_CONCURRENCY bounds what a provider sees however many of its models run, and so that the
 * endpoint's pace (endpoint-pace.ts) follows what the provider says. Across the run's workers when the
 * run has a slot server; in this process alone otherwise (the harness's own tests, scripts).
 */
export function endpointSlots(endpoint: string, ceiling: number): Slots {
  const key = `${endpoint}\u0000${ceiling}`
  let slots = byEndpoint.get(key)
  if (slots === undefined) {
    if (runWide !== undefined) slots = runWide(endpoint, ceiling)
    else {
      const pace = new EndpointPace(ceiling)
      paces.set(endpoint, pace)
      slots = pacedSlots(pace)
    }
    byEndpoint.set(key, slots)
  }
  return slots
}

/** From now on, endpoints take their slots from the run-wide slot server; set once per worker, before any request. */
export function useRunWideSlots(slots: RunWideSlots): void {
  if (runWide === slots) return
  runWide = slots
  byEndpoint.clear()
}

/** The paces of the endpoints this process paces itself (none when the run's slot server does). */
export function endpointPaces(): ReadonlyMap<string, EndpointPace> {
  return paces
}
