import { NOT_THE_MODELS_FAULT } from '../adapters/outcome.ts'
import type { ItemRecord } from '../harness/records/item-record.ts'
import type { Score, Scorer } from '../harness/scoring/score.ts'
import type { ResultsTable, SuiteFiles } from '../harness/suite-declaration.ts'
import { suiteNamed } from '../suites/registry.ts'
import { passHatKScores, passRate } from './statistics/pass-rate.ts'
import type { RunReport } from './run-report.ts'

/**
 * The suite's own scorer (its declaration's); a suite without one is scored by its pass rate. With two or more
 * samples per item, a scorer that gives no pass^k gets it added (reporters/statistics/pass-rate.ts).
 */
export function scorerFor(suite: string): Scorer {
  const own = suiteNamed(suite)?.scorer
  if (own === undefined) return (records) => withoutEmptyScores(passRate(records), records)
  return (records) => {
    const scores = own(records)
    const all = scores.some((score) => score.name.includes(' pass^')) ? scores : [...scores, ...passHatKScores(records)]
    return withoutEmptyScores(all, records)
  }
}

/** What a score over no item shows, everywhere scores are shown. */
export const NO_ITEMS = 'no items were judged'

/**
 * A score over no item is no score: where a model's items were all left out (not asked for the cost limit,
 * provider errors), or a score counted none of them, it says "no items were judged" and why, never `0.00 (solved
 * 0/0)`.
 */
export function withoutEmptyScores(scores: readonly Score[], records: readonly ItemRecord[]): Score[] {
  return scores.map((score) => {
    const own = records.filter((record) => record.model === score.model)
    const judged = own.some((record) => record.outcome !== undefined && !NOT_THE_MODELS_FAULT.has(record.outcome))
    if (judged && score.counted?.total !== 0) return score
    const { counted: _counted, interval: _interval, ...rest } = score
    const columns =
      score.columns === undefined
        ? {}
        : {
            columns: Object.fromEntries(
              Object.entries(score.columns).map(([name, text]) => [name, name === score.name ? NO_ITEMS : text]),
            ),
          }
    return { ...rest, ...columns, display: NO_ITEMS, noItems: leftOutText(own) }
  })
}

/** Why a model's items were left out: `45 not asked (the cost limit was reached: TESTBENCH_COST_LIMIT)`. */
export function leftOutText(records: readonly ItemRecord[]): string {
  const counts = new Map<string, number>()
  for (const record of records) {
    const why =
      record.notAsked === 'cost_limit'
        ? 'not asked (the cost limit was reached: raise TESTBENCH_COST_LIMIT and run again, only those are asked)'
        : record.outcome === undefined
          ? 'unfinished'
          : NOT_THE_MODELS_FAULT.has(record.outcome)
            ? `${record.outcome} (not the model's fault: see each item's reason)`
            : undefined
    if (why !== undefined) counts.set(why, (counts.get(why) ?? 0) + 1)
  }
  if (counts.size === 0) return 'no item counted toward this score'
  return [...counts].map(([why, count]) => `${count} ${why}`).join('; ')
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
