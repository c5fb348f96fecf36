import type { Scorer } from '../harness/score.ts'
import type { ResultsTable, SuiteFiles } from '../harness/suite-declaration.ts'
import { suiteNamed } from '../suites/registry.ts'
import { passRate } from './pass-rate.ts'

/** The suite's own scorer (its declaration's); a suite without one is scored by its pass rate. */
export function scorerFor(suite: string): Scorer {
  return suiteNamed(suite)?.scorer ?? passRate
}

/** The suite's results table; one row per model in the order met when it declares none. */
export function resultsTableFor(suite: string): ResultsTable {
  return suiteNamed(suite)?.resultsTable ?? ((rows) => [...rows])
}

export function suiteFilesFor(suite: string): SuiteFiles | undefined {
  return suiteNamed(suite)?.suiteFiles
}
