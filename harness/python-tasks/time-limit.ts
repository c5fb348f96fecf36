/**
 * Per-task time limits calibrated on this machine: max(floor, factor × the
 * canonical solution's time), so that a slow machine does not turn right
 * answers into timeouts. The canonical solution is timed once and the time
 * cached; it is timed only for tasks where a program runs past the floor
 * (the limit of a task whose canonical time is known is used from the start).
 */
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomically } from '../atomic-file.ts'
import { isRecord } from '../dataset-file.ts'

export interface TimeLimitPolicy {
  floorMs: number
  /** The per-input floor where the check is by inputs and outputs (CPU time). */
  inputFloorMs: number
  factor: number
  /** Memory per program, for the canonical run too. */
  memoryBytes: number
  /** Where canonical times are kept (`<cacheDir>/canonical-times`). */
  cacheDir: string
}

/** Runs the canonical program with a generous limit and says how long it took, or undefined when it did not pass. */
export type TimeCanonical = () => Promise<number | undefined>

/** The most a canonical solution may take while being timed (MBPP+/599's takes about 100 s). */
export const CALIBRATION_LIMIT_MS = 600_000

const measuring = new Map<string, Promise<number | undefined>>()

/** The task's calibrated limit: the floor, or factor × its canonical time when that is longer. */
export async function calibratedLimitMs(policy: TimeLimitPolicy, key: string, timeCanonical: TimeCanonical): Promise<number> {
  const canonicalMs = await canonicalTime(policy.cacheDir, key, timeCanonical)
  return canonicalMs === undefined ? policy.floorMs : Math.max(policy.floorMs, Math.ceil(policy.factor * canonicalMs))
}

/** The calibrated limit when the canonical time is already known (cached), without timing anything. */
export async function knownLimitMs(policy: TimeLimitPolicy, key: string): Promise<number | undefined> {
  const canonicalMs = await (measuring.get(join(policy.cacheDir, `${key}.json`)) ?? readCached(join(policy.cacheDir, `${key}.json`)))
  return canonicalMs === undefined ? undefined : Math.max(policy.floorMs, Math.ceil(policy.factor * canonicalMs))
}

/** A cache key that changes when the canonical program or its tests change. */
export function calibrationKey(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 24)
}

async function canonicalTime(dir: string, key: string, timeCanonical: TimeCanonical): Promise<number | undefined> {
  const file = join(dir, `${key}.json`)
  let pending = measuring.get(file)
  if (pending === undefined) {
    pending = readCached(file).then(async (cached) => {
      if (cached !== undefined) return cached
      const measured = await timeCanonical()
      if (measured !== undefined) await writeFileAtomically(file, JSON.stringify({ canonicalMs: measured, measuredAt: new Date().toISOString() }))
      return measured
    })
    measuring.set(file, pending)
  }
  return pending
}

async function readCached(file: string): Promise<number | undefined> {
  try {
    const value: unknown = JSON.parse(await readFile(file, 'utf8'))
    return isRecord(value) && typeof value.canonicalMs === 'number' ? value.canonicalMs : undefined
  } catch {
    return undefined
  }
}
