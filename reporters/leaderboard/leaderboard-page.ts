import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import {
  suiteAnchor as anchor,
  type ChartSpec,
  type IntervalChart,
  type RelationChart,
} from '../../harness/scoring/leaderboard-chart.ts'
import { suiteNamed } from '../../suites/registry.ts'
import type { Leaderboard } from './leaderboard.ts'
import { savedScores } from '../saved-reports/saved-scores.ts'
import { formatInterval } from '../statistics/score-interval.ts'

export interface LeaderboardPageOptions {
  /** Score names charted per suite at most, in the order the scorer gives them. Default: 6. */
  maxScoreCharts?: number
}

/**
 * The leaderboard as one html file that opens from disk, without a server or a network: for each
 * suite the results table (the Markdown leaderboard's rows) and charts drawn by Chart.js, whose UMD
 * build is inlined into the page. Every suite charts its scores with their 95% intervals (each
 * score's method in docs/reports.md; a saved report's older interval marked as saved); PE-Bench adds score versus
 * memory with the best-for-size frontier (the results table's "Best Model for Size" rows), FaRel
 * one chart of per-relation accuracies per model. Charts grow with the number of models, so that
 * 50 models stay readable.
 */
export function leaderboardPage(
  boards: readonly Leaderboard[],
  generatedAt: Date,
  options: LeaderboardPageOptions = {},
): string {
  const charts: ChartSpec[] = []
  const sections = boards.map((board) => {
    const boardCharts = [...intervalCharts(board, options.maxScoreCharts ?? 6), ...suiteCharts(board)]
    charts.push(...boardCharts)
    return section(board, boardCharts)
  })
  const data = JSON.stringify({ charts }).replace(/</g, '\\u003c')
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>llm-testbench leaderboard</title>
<style>${STYLE}</style>
</head>
<body>
${header(boards, generatedAt)}
${sections.join('\n')}
<script type="application/json" id="leaderboard-data">${data}</script>
<script>${chartJs()}</script>
<script>${pageScript()}</script>
</body>
</html>
`
}

function header(boards: readonly Leaderboard[], generatedAt: Date): string {
  const when = generatedAt.toISOString().slice(0, 16).replace('T', ' ')
  const links = boards.map((board) => `<a href="#${anchor(board.suite)}">${escapeHtml(board.suite)}</a>`)
  return `<header><h1>llm-testbench leaderboard</h1><p>Generated ${escapeHtml(when)} UTC from the saved reports: ${links.join(' · ')}</p></header>`
}

function section(board: Leaderboard, charts: readonly ChartSpec[]): string {
  const relations = charts.filter((chart): chart is RelationChart => chart.kind === 'relations')
  const others = charts.filter((chart) => chart.kind !== 'relations')
  const chartBoxes = others.map((chart) => chartBox(chart, 'chart', chartHeight(chart)))
  const relationBoxes =
    relations.length === 0
      ? ''
      : `<h3>Accuracy per relation, one chart per model (best first)</h3><div class="multiples">${relations
          .map((chart) => chartBox(chart, 'small', 220))
          .join('')}</div>`
  const title = `<h2>${escapeHtml(board.suite)}</h2><p>${escapeHtml(board.note)}</p>`
  const body = `${resultsTable(board)}<div class="charts">${chartBoxes.join('')}</div>${relationBoxes}`
  return `<section id="${anchor(board.suite)}">${title}${body}</section>`
}

function resultsTable(board: Leaderboard): string {
  if (board.rows.length === 0) return '<p>(no complete run yet)</p>'
  const columns: string[] = []
  for (const row of board.rows)
    for (const column of Object.keys(row)) if (!columns.includes(column)) columns.push(column)
  const head = `<tr><th>#</th>${columns.map((column) => `<th>${escapeHtml(column)}</th>`).join('')}</tr>`
  const rows = board.rows.map(
    (row, index) =>
      `<tr><td>${index < board.ranked ? index + 1 : '–'}</td>${columns.map((column) => `<td>${escapeHtml(row[column] ?? '')}</td>`).join('')}</tr>`,
  )
  return `<div class="table"><table><thead>${head}</thead><tbody>${rows.join('')}</tbody></table></div>`
}

function chartBox(chart: ChartSpec, figureClass: string, height: number): string {
  const title = escapeHtml(chart.title)
  const canvas = `<canvas id="${chart.id}" role="img" aria-label="${title}"></canvas>`
  return `<figure class="${figureClass}"><figcaption>${title}</figcaption><div class="canvas" style="height:${height}px">${canvas}</div></figure>`
}

function chartHeight(chart: ChartSpec): number {
  if (chart.kind === 'interval') return 60 + 22 * chart.points.length
  return 460
}

function intervalCharts(board: Leaderboard, max: number): IntervalChart[] {
  const perModel = board.entries.map((entry) => ({
    model: entry.run.report.model.label,
    scores: savedScores(entry.run.report),
  }))
  // A score over no item has no point to draw: it is no score, not 0.
  const charted = perModel.flatMap(({ scores }) => scores.filter((score) => score.noItems === undefined))
  const names = [...new Set(charted.map((score) => score.name))].slice(0, max)
  return names.map((name, index) => {
    const points = perModel
      .flatMap(({ model, scores }) => {
        const score = scores.find((candidate) => candidate.name === name)
        if (!score || score.noItems !== undefined) return []
        const range = formatInterval(score)
        return [
          {
            model,
            value: score.value,
            // A score without an interval is drawn as its point alone, never as a bar of zero width.
            ...(score.interval ? { low: score.interval.low, high: score.interval.high } : {}),
            display: `${score.display}${range ? ` (95% interval ${range})` : ' (no interval)'}`,
          },
        ]
      })
      .sort((a, b) => b.value - a.value)
    return {
      kind: 'interval',
      id: `${anchor(board.suite)}-score-${index}`,
      title: `${name}, with its 95% interval`,
      points,
    }
  })
}

/** The suite's own charts (its declaration's), drawn from the ranked rows and each ranked model's records. */
function suiteCharts(board: Leaderboard): ChartSpec[] {
  const rows = board.rows.slice(0, board.ranked)
  const entries = board.entries.slice(0, board.ranked).map((entry) => ({
    model: entry.run.report.model.label,
    items: entry.run.report.items,
    headline: entry.scores[0],
  }))
  return suiteNamed(board.suite)?.charts?.({ suite: board.suite, rows, entries }) ?? []
}

/** Chart.js's UMD build, as npm installed it, without its source-map comment (the page has no map beside it). */
function chartJs(): string {
  const main = createRequire(import.meta.url).resolve('chart.js')
  return readFileSync(join(dirname(main), 'chart.umd.min.js'), 'utf8')
    .replace(/\n\/\/# sourceMappingURL=.*$/m, '')
    .replace(/<\/script/gi, '<\\/script')
}

/** The script that draws the charts (`leaderboard-page-charts.js`, plain JavaScript), as the page inlines it. */
function pageScript(): string {
  return readFileSync(new URL('./leaderboard-page-charts.js', import.meta.url), 'utf8').replace(
    /<\/script/gi,
    '<\\/script',
  )
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

const STYLE = `
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0 24px 48px; color: #1f2328; }
header { border-bottom: 1px solid #d0d7de; margin-bottom: 8px; }
h1 { font-size: 22px; margin: 16px 0 4px; }
h2 { font-size: 19px; margin: 28px 0 4px; border-bottom: 1px solid #d0d7de; }
h3 { font-size: 15px; margin: 18px 0 6px; }
a { color: #0969da; }
.table { overflow-x: auto; max-height: 640px; overflow-y: auto; border: 1px solid #d0d7de; }
table { border-collapse: collapse; font-size: 12.5px; white-space: nowrap; }
th, td { padding: 3px 8px; border-bottom: 1px solid #eaeef2; text-align: left; }
th { position: sticky; top: 0; background: #f6f8fa; }
tbody tr:nth-child(even) { background: #fafbfc; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(560px, 1fr)); gap: 16px; margin-top: 12px; }
.multiples { display: grid; grid-template-columns: repeat(auto-fill, minmax(300px, 1fr)); gap: 10px; }
figure { margin: 0; border: 1px solid #d0d7de; border-radius: 6px; padding: 8px; }
figcaption { font-weight: 600; font-size: 13px; margin-bottom: 4px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
figure.small figcaption { font-weight: 500; font-size: 12px; }
.canvas { position: relative; }
`
