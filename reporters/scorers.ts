import type { Scorer } from '../harness/score.ts'
import { scoreBigCodeBench } from '../suites/bigcodebench/score.ts'
import { eulerResultsTable } from '../suites/euler/results-table.ts'
import { scoreEuler } from '../suites/euler/score.ts'
import { scoreFarel } from '../suites/farel/score.ts'
import { scoreHumanEval } from '../suites/humaneval/score.ts'
import { scoreMbpp } from '../suites/mbpp/score.ts'
import { writePredictions } from '../suites/swebench/predictions.ts'
import { scoreSwebench } from '../suites/swebench/score.ts'
import type { ItemRecord } from '../harness/item-record.ts'
import { passRate } from './pass-rate.ts'

/** Each suite's own scorer; a suite not listed is scored by its pass rate. */
const SCORERS: Record<string, Scorer> = {
  bigcodebench: scoreBigCodeBench,
  euler: scoreEuler,
  farel: scoreFarel,
  humaneval: scoreHumanEval,
  mbpp: scoreMbpp,
  swebench: scoreSwebench,
}

export function scorerFor(suite: string): Scorer {
  return SCORERS[suite] ?? passRate
}

/** Orders a suite's results-table rows (one per model) and fills the columns that compare models. */
export type ResultsTable = (rows: ReadonlyArray<Record<string, string>>) => Array<Record<string, string>>

/** Suites whose results table is more than one row per model in the order met. */
const RESULTS_TABLES: Record<string, ResultsTable> = {
  euler: eulerResultsTable,
}

export function resultsTableFor(suite: string): ResultsTable {
  return RESULTS_TABLES[suite] ?? ((rows) => [...rows])
}

/** Files a suite writes from its records at the end of a run, beside the reports (SWE-bench's predictions). */
export type SuiteFiles = (reportDir: string, records: readonly ItemRecord[]) => void

const SUITE_FILES: Record<string, SuiteFiles> = {
  swebench: writePredictions,
}

export function suiteFilesFor(suite: string): SuiteFiles | undefined {
  return SUITE_FILES[suite]
}
