import type { ItemRecord } from '../records/item-record.ts'

/** One named score of one model, e.g. `PE-Bench-Python-100 = 32.07` or `pass@1 = 0.62`. */
export interface Score {
  suite: string
  model: string
  /** The benchmark's own name for it, e.g. `FaRel-3`, `HumanEval+ pass@1`. */
  name: string
  value: number
  /** How the benchmark prints it (`32.07`, `61.6% ± 3.8`). */
  display: string
  /** The 95% interval of `value`, in its scale (docs/reports.md says which method each score uses). */
  interval?: ScoreInterval
  /** Items that counted (solved k of N…), for the summary line. */
  counted?: { solved: number; total: number }
  /** Extra columns for the suite's results table, in order. */
  columns?: Record<string, string>
  /** Lines the summary prints under the score, for what a reader should know of how it came about. */
  notes?: string[]
  /** Items left out of the score, with the reason (e.g. the environment cannot run them). */
  excluded?: Array<{ itemId: string; reason: string }>
  /**
   * Why no item was judged (all left out: not asked for the cost limit, provider errors): then the score is no
   * score, whatever `value` holds, and `display` says "no items were judged" (reporters/scorers.ts).
   */
  noItems?: string
}

/** Turns the records of one suite (all its models and samples) into its scores. */
export type Scorer = (records: readonly ItemRecord[]) => Score[]

/** A score's 95% interval, in the score's scale. */
export interface ScoreInterval {
  low: number
  high: number
  /**
   * How it was computed (`Wilson`, `Wilson on the effective sample size`, `stratified Wilson`, `bootstrap`).
   * Reports written before intervals held at 0 % and 100 % have none.
   */
  method?: string
  /** Read from a saved report written before those intervals, and shown as it was saved. */
  asSaved?: boolean
}
