import type { Score, Scorer } from '../harness/score.ts'
import type { ResultsTable, SuiteFiles } from '../harness/suite-declaration.ts'
import { suiteNamed } from '../suites/registry.ts'
import { passHatKScores, passRate } from './pass-rate.ts'
import type { RunReport } from './run-report.ts'

/**
 * The suite's own scorer (its declaration's); a suite without one is scored by its pass rate. With two or more
 * samples per item, a scorer that gives no pass^k gets it added (reporters/pass-rate.ts).
 */
export function scorerFor(suite: string): Scorer {
  const own = suiteNamed(suite)?.scorer
  if (own === undefined) return passRate
  return (records) => {
    const scores = own(records)
    return scores.some((score) => score.name.includes(' pass^')) ? scores : [...scores, ...passHatKScores(records)]
  }
}

/** The suite's results table; one row per model in the order met when it declares none. */
export function resultsTableFor(suite: string): ResultsTable {
  return suiteNamed(suite)?.resultsTable ?? ((rows) => [...rows])
}

export function suiteFilesFor(suite: string): SuiteFiles | undefined {
  return suiteNamed(suite)?.suiteFiles
}

/**
 * A saved report's scores for its model: computed again from its items by the suite's scorer, so that a report
 * written by an older version is scored as today's; for a suite this process does not know (a project's own,
 * read by `llm-testbench compare` outside that project's Vitest run), the scores its run stored.
 */
export function reportScores(report: RunReport): Score[] {
  const known = suiteNamed(report.benchmark) !== undefined
  const scores = known ? scorerFor(report.benchmark)(report.items) : report.scores
  return scores.filter((score) => score.model === report.model.label)
}
