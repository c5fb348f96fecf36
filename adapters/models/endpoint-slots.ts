import { limitConcurrency, type Slots } from './limit-concurrency.ts'

const byEndpoint = new Map<string, Slots>()

/**
 * The in-flight slots of one endpoint, shared by every model this process asks through it,
 * so that TESTBENCH_CONCURRENCY bounds what a provider sees however many of its models run.
 */
export function endpointSlots(endpoint: string, limit: number): Slots {
  const key = `${endpoint}\u0000${limit}`
  let slots = byEndpoint.get(key)
  if (slots === undefined) {
    slots = limitConcurrency(limit)
    byEndpoint.set(key, slots)
  }
  return slots
}
