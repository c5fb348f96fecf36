import type { ItemRecord } from '../records/item-record.ts'

/** A score of each model with its 95% interval, best first: every suite's chart. */
export interface IntervalChart {
  kind: 'interval'
  id: string
  title: string
  /** `low` and `high`: the 95% interval, absent when the score has none. */
  points: Array<{ model: string; value: number; low?: number; high?: number; display: string }>
}

/** A score against the memory the model needs, and the best model for each size (PE-Bench's Mem-Score view). */
export interface SizeChart {
  kind: 'size'
  id: string
  title: string
  score: string
  points: Array<{ model: string; memory: number; value: number; best: boolean }>
}

/** One model's accuracy per relation class (FaRel). */
export interface RelationChart {
  kind: 'relations'
  id: string
  title: string
  relations: string[]
  accuracies: number[]
}

/** One chart of the leaderboard page; the page's script turns each into a Chart.js chart. */
export type ChartSpec = IntervalChart | SizeChart | RelationChart

/** What a suite's own charts are drawn from: its leaderboard's rows and each model's records, best first. */
export interface ChartedBoard {
  suite: string
  rows: ReadonlyArray<Record<string, string>>
  entries: ReadonlyArray<{ model: string; items: readonly ItemRecord[]; headline?: { name: string; display: string } }>
}

/** The charts a suite adds to the interval charts every suite has. */
export type SuiteCharts = (board: ChartedBoard) => ChartSpec[]

/** The page anchor of a suite's section; chart ids start with it. */
export function suiteAnchor(suite: string): string {
  return `suite-${suite.replace(/[^A-Za-z0-9_-]+/g, '-')}`
}
