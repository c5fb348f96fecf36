import type { KnobGroup } from '../adapters/knob.ts'
import type { ItemRecord } from './records/item-record.ts'
import type { SuiteCharts } from './scoring/leaderboard-chart.ts'
import type { Scorer } from './scoring/score.ts'

/** Orders a suite's results-table rows (one per model) and fills the columns that compare models. */
export type ResultsTable = (rows: ReadonlyArray<Record<string, string>>) => Array<Record<string, string>>

/** Files a suite writes from its records at the end of a run, beside the reports (SWE-bench's predictions). */
export type SuiteFiles = (reportDir: string, records: readonly ItemRecord[]) => void

/** The loads a suite's items need from outside (downloads, pinned files), one per file; each is reported on its own when it fails. */
export type PrepareDatasets = (env: NodeJS.ProcessEnv) => Array<Promise<unknown>>

/**
 * Everything the project outside `suites/<name>/` knows of a suite, declared once: a built-in suite's in
 * `suites/<name>/suite.ts`, listed in `suites/registered.ts`; a project's own in its vitest.config.ts, listed in
 * `testbench({ suites })`. Reporters, the gate, the knob checks and the workflows' test read it.
 */
export interface SuiteDeclaration {
  /** The folder's name, `suites/<name>/`, and the `suite` its records carry. */
  readonly name: string
  /** How its pages and tables name it (`PE-Bench`, `BigCodeBench`). */
  readonly title: string
  /** Its part files `<name>-1.test.ts … <name>-<parts>.test.ts`; 1 (the default) for a single `<name>.test.ts`. */
  readonly parts?: number
  /** Whether its items run model-written programs in adapters/sandbox: the run checks the sandbox first. */
  readonly runsPrograms: boolean
  readonly knobs?: KnobGroup
  /** Its own scores; a suite without one is scored by its pass rate. */
  readonly scorer?: Scorer
  /** Its results table when it is more than one row per model in the order met. */
  readonly resultsTable?: ResultsTable
  readonly suiteFiles?: SuiteFiles
  /** Fetched and checked once per run in the main process, before any test file starts. */
  readonly prepareDatasets?: PrepareDatasets
  /** Charts of its own on the leaderboard page. */
  readonly charts?: SuiteCharts
}
