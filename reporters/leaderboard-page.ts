import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import {
  suiteAnchor as anchor,
  type ChartSpec,
  type IntervalChart,
  type RelationChart,
} from '../harness/leaderboard-chart.ts'
import { suiteNamed } from '../suites/registry.ts'
import type { Leaderboard } from './leaderboard.ts'
import { savedScores } from './saved-scores.ts'
import { formatInterval } from './score-interval.ts'

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
<header><h1>llm-testbench leaderboard</h1><p>Generated ${escapeHtml(generatedAt.toISOString().slice(0, 16).replace('T', ' '))} UTC from the saved reports: ${boards.map((board) => `<a href="#${anchor(board.suite)}">${escapeHtml(board.suite)}</a>`).join(' · ')}</p></header>
${sections.join('\n')}
<script type="application/json" id="leaderboard-data">${data}</script>
<script>${chartJs()}</script>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`
}

function section(board: Leaderboard, charts: readonly ChartSpec[]): string {
  const columns: string[] = []
  for (const row of board.rows)
    for (const column of Object.keys(row)) if (!columns.includes(column)) columns.push(column)
  const table =
    board.rows.length === 0
      ? '<p>(no complete run yet)</p>'
      : `<div class="table"><table><thead><tr><th>#</th>${columns.map((column) => `<th>${escapeHtml(column)}</th>`).join('')}</tr></thead><tbody>${board.rows
          .map(
            (row, index) =>
              `<tr><td>${index + 1}</td>${columns.map((column) => `<td>${escapeHtml(row[column] ?? '')}</td>`).join('')}</tr>`,
          )
          .join('')}</tbody></table></div>`
  const relations = charts.filter((chart): chart is RelationChart => chart.kind === 'relations')
  const others = charts.filter((chart) => chart.kind !== 'relations')
  const chartBoxes = others.map(
    (chart) =>
      `<figure class="chart"><figcaption>${escapeHtml(chart.title)}</figcaption><div class="canvas" style="height:${chartHeight(chart)}px"><canvas id="${chart.id}" role="img" aria-label="${escapeHtml(chart.title)}"></canvas></div></figure>`,
  )
  const relationBoxes =
    relations.length === 0
      ? ''
      : `<h3>Accuracy per relation, one chart per model (best first)</h3><div class="multiples">${relations
          .map(
            (chart) =>
              `<figure class="small"><figcaption>${escapeHtml(chart.title)}</figcaption><div class="canvas" style="height:220px"><canvas id="${chart.id}" role="img" aria-label="${escapeHtml(chart.title)}"></canvas></div></figure>`,
          )
          .join('')}</div>`
  return `<section id="${anchor(board.suite)}"><h2>${escapeHtml(board.suite)}</h2><p>${escapeHtml(board.note)}</p>${table}<div class="charts">${chartBoxes.join('')}</div>${relationBoxes}</section>`
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
  const names = [...new Set(perModel.flatMap(({ scores }) => scores.map((score) => score.name)))].slice(0, max)
  return names.map((name, index) => {
    const points = perModel
      .flatMap(({ model, scores }) => {
        const score = scores.find((candidate) => candidate.name === name)
        if (!score) return []
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

/** The suite's own charts (its declaration's), drawn from the board's rows and each model's records. */
function suiteCharts(board: Leaderboard): ChartSpec[] {
  const entries = board.entries.map((entry) => ({
    model: entry.run.report.model.label,
    items: entry.run.report.items,
    headline: entry.scores[0],
  }))
  return suiteNamed(board.suite)?.charts?.({ suite: board.suite, rows: board.rows, entries }) ?? []
}

/** Chart.js's UMD build, as npm installed it, without its source-map comment (the page has no map beside it). */
function chartJs(): string {
  const main = createRequire(import.meta.url).resolve('chart.js')
  return readFileSync(join(dirname(main), 'chart.umd.min.js'), 'utf8')
    .replace(/\n\/\/# sourceMappingURL=.*$/m, '')
    .replace(/<\/script/gi, '<\\/script')
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

/** Turns each chart spec into a Chart.js chart; runs in the page. */
const PAGE_SCRIPT = `
(() => {
  const { charts } = JSON.parse(document.getElementById('leaderboard-data').textContent)
  Chart.defaults.animation = false
  Chart.defaults.font.size = 11
  const blue = '#0969da', orange = '#bc4c00', grey = 'rgba(9, 105, 218, 0.28)'
  const frontierLabels = {
    id: 'frontierLabels',
    afterDatasetsDraw(chart) {
      const meta = chart.getDatasetMeta(1)
      const { ctx } = chart
      ctx.save()
      ctx.font = '11px system-ui, sans-serif'
      ctx.fillStyle = orange
      // A label that would cover one already drawn is left to the tooltip.
      const drawn = []
      meta.data.forEach((point, index) => {
        const text = chart.data.datasets[1].data[index].model
        const box = { x: point.x + 6, y: point.y - 16, width: ctx.measureText(text).width, height: 13 }
        if (drawn.some((other) => box.x < other.x + other.width && other.x < box.x + box.width && box.y < other.y + other.height && other.y < box.y + box.height)) return
        drawn.push(box)
        ctx.fillText(text, box.x, point.y - 6)
      })
      ctx.restore()
    },
  }
  const builders = {
    interval: (spec) => ({
      type: 'bar',
      data: {
        labels: spec.points.map((point) => point.model),
        datasets: [
          { type: 'bar', label: '95% interval', data: spec.points.map((point) => (point.low === undefined ? null : [point.low, point.high])), backgroundColor: grey, borderColor: blue, borderWidth: 1, barPercentage: 0.5, categoryPercentage: 0.9 },
          { type: 'line', label: 'score', data: spec.points.map((point) => point.value), showLine: false, pointStyle: 'rectRot', pointRadius: 5, pointBackgroundColor: blue, borderColor: blue },
        ],
      },
      options: {
        indexAxis: 'y', maintainAspectRatio: false,
        scales: { y: { ticks: { autoSkip: false } }, x: { beginAtZero: true } },
        plugins: { legend: { position: 'top' }, tooltip: { callbacks: { label: (item) => spec.points[item.dataIndex].display } } },
      },
    }),
    size: (spec) => ({
      type: 'scatter',
      data: {
        datasets: [
          { label: 'model', data: spec.points.map((point) => ({ x: point.memory, y: point.value, model: point.model })), backgroundColor: grey, borderColor: blue, pointRadius: 4 },
          { label: 'best for its size', data: spec.points.filter((point) => point.best).sort((a, b) => a.memory - b.memory).map((point) => ({ x: point.memory, y: point.value, model: point.model })), showLine: true, stepped: 'after', borderColor: orange, backgroundColor: orange, pointRadius: 5 },
        ],
      },
      options: {
        maintainAspectRatio: false,
        scales: { x: { type: 'logarithmic', title: { display: true, text: 'memory (GB)' } }, y: { beginAtZero: true, title: { display: true, text: spec.score } } },
        plugins: { tooltip: { callbacks: { label: (item) => item.raw.model + ': ' + item.raw.y + ' at ' + item.raw.x.toFixed(1) + ' GB' } } },
      },
      plugins: [frontierLabels],
    }),
    relations: (spec) => ({
      type: 'bar',
      data: { labels: spec.relations, datasets: [{ label: 'accuracy (%)', data: spec.accuracies, backgroundColor: blue }] },
      options: {
        maintainAspectRatio: false,
        scales: { y: { min: 0, max: 100 }, x: { ticks: { autoSkip: false, maxRotation: 60, minRotation: 45 } } },
        plugins: { legend: { display: false } },
      },
    }),
  }
  for (const spec of charts) new Chart(document.getElementById(spec.id), builders[spec.kind](spec))
  document.body.dataset.chartsDrawn = String(charts.length)
})()
`
