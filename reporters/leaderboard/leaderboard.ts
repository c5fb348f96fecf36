import type { Score } from '../../harness/scoring/score.ts'
import { markdownTable, rowsByModel } from '../markdown-table.ts'
import { completionTokenText, promptTokenText } from '../../harness/records/token-text.ts'
import { formatCost, runCost, type Prices } from '../../harness/run-wide/prices.ts'
import { countCutOff } from '../../harness/cut-off-replies.ts'
import type { RunReport } from '../run-report.ts'
import { NO_ITEMS, reportScores, resultsTableFor } from '../scorers.ts'

export interface SavedRun {
  file: string
  report: RunReport
}

/** One model's latest complete run on the leaderboard, its scores computed again from its items. */
export interface LeaderboardEntry {
  run: SavedRun
  scores: Score[]
  /** Why the run is not ranked: its headline score judged no item (the score's `noItems`). */
  unranked?: string
}

export interface Leaderboard {
  suite: string
  /** Best first, then the unranked in the order their runs ended. */
  entries: LeaderboardEntry[]
  /** How many of `entries` and `rows`, from the first, are ranked. */
  ranked: number
  /**
   * The results table's rows, in the suite's columns, with the run's time, tokens, latency and cost; an unranked
   * run's row says why in `Unranked`.
   */
  rows: Array<Record<string, string>>
  /** Which runs were read and which left out. */
  note: string
}

/**
 * A suite's leaderboard: the latest complete run of each model (and score set, so a run with a
 * system prompt and one without both show), best first, in the columns the suite prints after a
 * run. Scores are computed again from the saved items by the suite's scorer. A run whose headline
 * score judged no item has no rank: it follows the ranked runs with its reason, never ranked as 0.
 * With prices (TESTBENCH_PRICES), each run's cost.
 */
export function leaderboard(suite: string, runs: readonly SavedRun[], prices?: Prices): Leaderboard {
  const usable = runs.filter(({ report }) => report.complete && !report.shard && report.benchmark === suite)
  const latest = new Map<string, LeaderboardEntry>()
  for (const run of [...usable].sort((a, b) => a.report.endedAt.localeCompare(b.report.endedAt))) {
    const scores = reportScores(run.report)
    const unranked = scores[0]?.noItems
    const key = JSON.stringify([run.report.model.label, scores.map((score) => score.name)])
    latest.set(key, { run, scores, ...(unranked === undefined ? {} : { unranked }) })
  }
  const ranked = [...latest.values()]
    .filter((entry) => entry.unranked === undefined)
    .sort((a, b) => (b.scores[0]?.value ?? -Infinity) - (a.scores[0]?.value ?? -Infinity))
  const unranked = [...latest.values()].filter((entry) => entry.unranked !== undefined)
  const rowOf = ({ run, scores, unranked: why }: LeaderboardEntry) => {
    const row = tableRow(run.report.model.label, scores)
    // A run whose programs ran without a sandbox (SANDBOX=none) could have forged its verdicts: it says so where its score is.
    if (run.report.unsandboxed === true) row['Model'] = `${row['Model'] ?? run.report.model.label} (UNSANDBOXED)`
    const time = { Run: run.report.endedAt.slice(0, 16).replace('T', ' ') }
    return { ...row, ...time, ...usageColumns(run.report, prices), ...(why === undefined ? {} : { Unranked: why }) }
  }
  // The suite's table orders and marks ranked rows by their scores (PE-Bench's best for size): unranked rows stay out of it.
  const rankedRows = ranked.length > 0 ? resultsTableFor(suite)(ranked.map(rowOf)) : []
  const skipped = runs.length - usable.length
  const read = `${runs.length} saved run(s) read${skipped > 0 ? `, ${skipped} left out (interrupted, or one shard of a split run)` : ''}`
  const note = `The latest complete run of each model, best first: ${read}${unranked.length > 0 ? `, then ${unranked.length} unranked: ${NO_ITEMS}` : ''}.`
  return {
    suite,
    entries: [...ranked, ...unranked],
    ranked: ranked.length,
    rows: [...rankedRows, ...unranked.map(rowOf)],
    note,
  }
}

/** A suite's leaderboard in Markdown. */
export function leaderboardMarkdown(suite: string, runs: readonly SavedRun[], prices?: Prices): string {
  const board = leaderboard(suite, runs, prices)
  return `# ${suite} leaderboard\n\n${board.note}\n\n${board.rows.length > 0 ? markdownTable(board.rows) : '(no complete run yet)'}\n`
}

function tableRow(model: string, scores: readonly Score[]): Record<string, string> {
  const [row] = rowsByModel(scores)
  if (row) return row
  return { Model: model, ...Object.fromEntries(scores.map((score) => [score.name, score.display])) }
}

/** Tokens in and out, tokens/s, median latency and cost, for the runs that have them. */
function usageColumns(report: RunReport, prices: Prices | undefined): Record<string, string> {
  const columns: Record<string, string> = {}
  if (report.tokens.prompt + report.tokens.completion > 0)
    columns['Tokens in / out'] = `${promptTokenText(report.tokens)} / ${completionTokenText(report.tokens)}`
  if (report.tokens.completionPerSecond !== undefined) columns['Tokens/s'] = String(report.tokens.completionPerSecond)
  if (report.latencyMs) columns['Latency p50'] = `${report.latencyMs.p50} ms`
  const cost = runCost(prices, report.model.label, report.tokens, report.batchTokens) ?? report.cost
  if (cost) columns.Cost = formatCost(cost)
  const cutOff = countCutOff(report.items)
  if (cutOff.cut > 0) columns['Cut off'] = `${cutOff.cut} of ${cutOff.of}`
  return columns
}
