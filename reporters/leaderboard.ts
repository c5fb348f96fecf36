import type { Score } from '../harness/score.ts'
import { markdownTable, rowsByModel } from './markdown-table.ts'
import type { RunReport } from './run-report.ts'
import { resultsTableFor, scorerFor } from './scorers.ts'

export interface SavedRun {
  file: string
  report: RunReport
}

/**
 * A suite's leaderboard in Markdown: the latest complete run of each model (and score set, so a
 * run with a system prompt and one without both show), best first, in the columns the suite
 * prints after a run. Scores are computed again from the saved items by the suite's scorer.
 */
export function leaderboardMarkdown(suite: string, runs: readonly SavedRun[]): string {
  const usable = runs.filter(({ report }) => report.complete && !report.shard && report.benchmark === suite)
  const latest = new Map<string, { run: SavedRun; scores: Score[] }>()
  for (const run of [...usable].sort((a, b) => a.report.endedAt.localeCompare(b.report.endedAt))) {
    const scores = scorerFor(suite)(run.report.items).filter((score) => score.model === run.report.model.label)
    latest.set(JSON.stringify([run.report.model.label, scores.map((score) => score.name)]), { run, scores })
  }
  const ranked = [...latest.values()].sort((a, b) => (b.scores[0]?.value ?? -Infinity) - (a.scores[0]?.value ?? -Infinity))
  const rows = ranked.map(({ run, scores }) => {
    const row = tableRow(run.report.model.label, scores)
    // A run whose programs ran without a sandbox (SANDBOX=none) could have forged its verdicts: it says so where its score is.
    if (run.report.unsandboxed === true) row['Model'] = `${row['Model'] ?? run.report.model.label} (UNSANDBOXED)`
    return { ...row, Run: run.report.endedAt.slice(0, 16).replace('T', ' ') }
  })
  const skipped = runs.length - usable.length
  const note = `The latest complete run of each model, best first: ${runs.length} saved run(s) read${skipped > 0 ? `, ${skipped} left out (interrupted, or one shard of a split run)` : ''}.`
  return `# ${suite} leaderboard\n\n${note}\n\n${rows.length > 0 ? markdownTable(resultsTableFor(suite)(rows)) : '(no complete run yet)'}\n`
}

function tableRow(model: string, scores: readonly Score[]): Record<string, string> {
  const [row] = rowsByModel(scores)
  if (row) return row
  return { Model: model, ...Object.fromEntries(scores.map((score) => [score.name, score.display])) }
}
