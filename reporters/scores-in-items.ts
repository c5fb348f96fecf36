import type { TestModule } from 'vitest/node'
import { summaryText, type RunReport } from './run-report.ts'

/** Rows of a results table shown in each item at most; a bigger table is printed after the run and in the job summary. */
const MAX_TABLE_ROWS = 20

/**
 * Puts a suite's scores, exactly as the score reporter prints them (the same reports, the same text),
 * into the meta of each of the run's items of that suite (`scores`, listed first under "Test Meta"):
 * the item's model's summary (scores with their 95% intervals, counts per outcome, tokens, cost,
 * latency) and the suite's results table. The Vitest UI and the html report then show the scores
 * beside any item, whichever is opened. It changes the run's own state, as the score reporter finishes
 * and before the html report is written; a UI page open during the run shows them once reloaded.
 * A shard's or a partial run's summary says so, as its reports do.
 */
export function showScoresInItems(
  testModules: ReadonlyArray<TestModule>,
  suite: string,
  reports: readonly RunReport[],
  table: string,
): void {
  const summaries = new Map(reports.map((report) => [report.model.label, summaryText(report)]))
  const rows = table === '' ? 0 : table.split('\n').length - 2
  const tableText =
    table === ''
      ? ''
      : rows <= MAX_TABLE_ROWS
        ? `\n\n${suite}: results table\n${table}`
        : `\n\n(the results table of ${rows} models is printed after the run, in the job summary and in npm run leaderboard)`
  for (const testModule of testModules) {
    for (const testCase of testModule.children.allTests()) {
      const meta = testCase.meta()
      const summary = meta.bench?.suite === suite ? summaries.get(meta.bench.model) : undefined
      if (summary !== undefined) meta.scores = `${summary}${tableText}`
    }
  }
}
