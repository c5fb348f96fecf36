import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, expect, test } from 'vitest'
import type { Outcome } from '../../../adapters/outcome.ts'
import type { ItemRecord } from '../../../harness/records/item-record.ts'
import { buildRunReport } from '../../../reporters/run-report.ts'
import { leaderboard } from '../../../reporters/leaderboard/leaderboard.ts'
import { leaderboardPage } from '../../../reporters/leaderboard/leaderboard-page.ts'
import { withIntervals } from '../../../reporters/statistics/score-interval.ts'
import { scorerFor } from '../../../reporters/scorers.ts'
import { openChromium, screenshotPath, skipWithoutChromium } from '../../ui/chromium.ts'
import { REPO_ROOT } from '../../support/run-vitest.ts'

/**
 * `npm run leaderboard`'s html page with 50 models of FaRel, PE-Bench and HumanEval (made-up saved
 * reports), opened from disk in headless Chromium with every request that is not the file itself
 * refused: every chart is drawn, each of the 50 models is labelled on its own line, the best-for-size
 * frontier is the results table's, and a full-page screenshot goes to <report dir>/ui/.
 */

const MODELS = 50
const RELATIONS = [
  'child',
  'parent',
  'grandchild',
  'sibling',
  'grandparent',
  'great grandchild',
  'niece or nephew',
  'aunt or uncle',
  'great grandparent',
]
const LANGUAGES = ['python', 'java', 'rust', 'clojure']

const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A made-up model's answer: passes with a chance that grows with its skill, the same every run. */
function outcome(model: number, item: number): Outcome {
  const noise = ((model * 7919 + item * 104_729) % 1000) / 1000
  return noise < 0.15 + (0.8 * model) / MODELS ? 'passed' : 'wrong_answer'
}

function modelName(index: number): string {
  return `ollama:made-up-model-${String(index).padStart(2, '0')}:${[1, 3, 7, 8, 14, 32, 70][index % 7]}b`
}

function saveReport(directory: string, suite: string, model: string, items: ItemRecord[]): void {
  const scorer = scorerFor(suite)
  // Fewer bootstrap draws than a run's 200: the page only shows them.
  const report = buildRunReport(items, withIntervals(scorer(items), items, scorer, { draws: 40 }), {
    complete: true,
    endedAt: new Date('2026-03-01T12:00:00Z'),
  })
  mkdirSync(join(directory, suite), { recursive: true })
  writeFileSync(
    join(directory, suite, `2026-03-01T12-00-00-000Z__${model.replace(/[^A-Za-z0-9._-]+/g, '_')}.json`),
    JSON.stringify(report),
  )
}

function writeReports(directory: string): void {
  for (let m = 0; m < MODELS; m++) {
    const model = modelName(m)
    const base = { model, provider: 'ollama', sample: 0, tokens: { prompt: 120, completion: 40 }, latencyMs: 800 + m }
    const farel = Array.from({ length: RELATIONS.length * 6 }, (_, i): ItemRecord => {
      const relation = RELATIONS[i % RELATIONS.length] ?? ''
      return {
        ...base,
        suite: 'farel',
        itemId: `${relation} #${Math.floor(i / RELATIONS.length)}`,
        outcome: outcome(m, i),
        scoring: {
          relation,
          length: 3,
          rank: i % RELATIONS.length,
          maxLength: 3,
          correct: 1,
          options: 9,
          system: 'none',
          template: 'default',
          set: 'published',
          published: true,
        },
      }
    })
    const parameters = [0.5, 1.5, 3, 7, 8, 14, 32, 70, 123, 235][m % 10] ?? 7
    const bits = [4, 8, 16][m % 3] ?? 4
    const euler = LANGUAGES.flatMap((variant, l) =>
      Array.from({ length: 20 }, (_, p): ItemRecord => ({
        ...base,
        suite: 'euler',
        variant,
        itemId: String(p + 1).padStart(4, '0'),
        outcome: outcome(m, p * 4 + l),
        scoring: { points: 1 + p * 3, problem: p + 1, era: 'current', parameters, bits },
      })),
    )
    const humaneval = Array.from({ length: 40 }, (_, i): ItemRecord => ({
      ...base,
      suite: 'humaneval',
      variant: 'humaneval',
      itemId: `HumanEval/${i}`,
      outcome: outcome(m, i),
    }))
    saveReport(directory, 'farel', model, farel)
    saveReport(directory, 'euler', model, euler)
    saveReport(directory, 'humaneval', model, humaneval)
  }
}

test('npm run leaderboard writes one html page with tables and charts that stays readable with 50 models', async (context) => {
  skipWithoutChromium(context)
  const directory = mkdtempSync(join(tmpdir(), 'leaderboard-page-'))
  writeReports(directory)
  const prices = join(directory, 'prices.json')
  writeFileSync(
    prices,
    JSON.stringify({ currency: 'USD', perMillionTokens: { [modelName(49)]: { input: 2.5, output: 10 } } }),
  )
  execFileSync(process.execPath, ['scripts/leaderboard.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, TESTBENCH_REPORT_DIR: directory, TESTBENCH_PRICES: prices },
    stdio: 'ignore',
  })
  const file = join(directory, 'leaderboard.html')
  expect(existsSync(file)).toBe(true)
  expect(readFileSync(join(directory, 'farel', 'LEADERBOARD.md'), 'utf8')).toContain(`| ${modelName(49)} |`)

  const { browser, page, close } = await openChromium({ width: 1500, height: 1100 })
  cleanups.push(close)
  const foreign: string[] = []
  await browser.route('**/*', (route) =>
    route.request().url().startsWith('file:') ? route.continue() : (foreign.push(route.request().url()), route.abort()),
  )
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('console', (message) => (message.type() === 'error' ? errors.push(message.text()) : undefined))
  await page.goto(pathToFileURL(file).href)
  // FaRel: FaRel-3 with its interval and one per-relation chart per model; PE-Bench: 4 languages and PE-20-Score, and size; HumanEval: pass@1.
  const expectedCharts = 1 + MODELS + 5 + 1 + 1
  await expect.poll(() => page.evaluate(() => document.body.dataset.chartsDrawn)).toBe(String(expectedCharts))
  expect(errors).toEqual([])
  expect(foreign).toEqual([])

  const charts = await page.evaluate(() => {
    type ChartLike = {
      data: { labels?: unknown[]; datasets: Array<{ label?: string; data: unknown[] }> }
      scales: Record<string, { ticks: unknown[]; getPixelForTick(index: number): number }>
      width: number
      height: number
    }
    const chartOf = (id: string) =>
      (window as unknown as { Chart: { getChart(canvas: Element | null): ChartLike | undefined } }).Chart.getChart(
        document.getElementById(id),
      )
    const farelScore = chartOf('suite-farel-score-0')
    const passAt1 = chartOf('suite-humaneval-score-0')
    const size = chartOf('suite-euler-size')
    const rows = Array.from(document.querySelectorAll('#suite-euler tbody tr')).map((row) =>
      Array.from(row.querySelectorAll('td')).map((cell) => cell.textContent ?? ''),
    )
    const header = Array.from(document.querySelectorAll('#suite-euler thead th')).map((cell) => cell.textContent ?? '')
    const best = header.indexOf('Best Model for Size (GB)')
    const model = header.indexOf('Model')
    return {
      farelLabels: farelScore?.data.labels?.length,
      farelTicks: farelScore?.scales.y?.ticks.length,
      farelTickSpacing: farelScore
        ? farelScore.scales.y!.getPixelForTick(1) - farelScore.scales.y!.getPixelForTick(0)
        : 0,
      passAt1Intervals: passAt1?.data.datasets[0]?.data as Array<[number, number]> | undefined,
      passAt1Values: passAt1?.data.datasets[1]?.data as number[] | undefined,
      frontier: (size?.data.datasets[1]?.data as Array<{ model: string }> | undefined)
        ?.map((point) => point.model)
        .sort(),
      frontierInTable: rows
        .filter((row) => (row[best] ?? '') !== '')
        .map((row) => row[model] ?? '')
        .sort(),
      sizePoints: size?.data.datasets[0]?.data.length,
      relationCharts: document.querySelectorAll('#suite-farel .multiples canvas').length,
      costCells: Array.from(document.querySelectorAll('#suite-farel td'))
        .filter((cell) => /USD$/.test(cell.textContent ?? ''))
        .map((cell) => cell.textContent),
    }
  })
  expect(charts.farelLabels).toBe(MODELS)
  // Every model labelled, each on a line of its own at least 14 px high.
  expect(charts.farelTicks).toBe(MODELS)
  expect(charts.farelTickSpacing).toBeGreaterThanOrEqual(14)
  expect(charts.passAt1Values).toHaveLength(MODELS)
  charts.passAt1Intervals?.forEach(([low, high], index) => {
    const value = charts.passAt1Values?.[index] ?? Number.NaN
    expect(low).toBeLessThanOrEqual(value)
    expect(high).toBeGreaterThanOrEqual(value)
    if (value > 0 && value < 1) expect(high).toBeGreaterThan(low)
  })
  expect(charts.sizePoints).toBe(MODELS)
  expect(charts.frontier?.length).toBeGreaterThan(1)
  expect(charts.frontier).toEqual(charts.frontierInTable)
  expect(charts.relationCharts).toBe(MODELS)
  // 54 quizzes · (120 · 2.5 + 40 · 10) / 1e6 = 0.0378 USD, for the one model with a price.
  expect(charts.costCells).toEqual(['0.0378 USD'])
  await page.screenshot({ path: screenshotPath('leaderboard-50-models.png'), fullPage: true })
  await page.locator('#suite-euler .charts').screenshot({ path: screenshotPath('leaderboard-euler-charts.png') })
  const farelTop = await page.evaluate(
    () => (document.querySelector('#suite-farel .multiples')?.getBoundingClientRect().top ?? 0) + window.scrollY,
  )
  await page.screenshot({
    path: screenshotPath('leaderboard-farel-relations.png'),
    fullPage: true,
    clip: { x: 0, y: farelTop - 40, width: 1500, height: 1400 },
  })
}, 120_000)

test('the page gives an unranked run no rank and no point at 0 in any chart', () => {
  const saved = (model: string, outcomes: Outcome[]) => {
    const items = outcomes.map((each, index): ItemRecord => ({
      suite: 'demo',
      itemId: `i${index}`,
      model,
      provider: 'replay',
      sample: 0,
      outcome: each,
    }))
    const report = buildRunReport(items, [], { complete: true, endedAt: new Date('2026-03-01T12:00:00Z') })
    return { file: `${model}.json`, report }
  }
  const board = leaderboard('demo', [saved('left-out', ['provider_error']), saved('weak', ['wrong_answer'])])
  const page = leaderboardPage([board], new Date('2026-03-02T00:00:00Z'))
  expect(page).toMatch(/<tr><td>1<\/td><td>weak<\/td>/)
  expect(page).toMatch(/<tr><td>–<\/td><td>left-out<\/td><td>no items were judged<\/td>/)
  const data = /<script type="application\/json" id="leaderboard-data">(.*?)<\/script>/s.exec(page)?.[1] ?? '{}'
  const { charts } = JSON.parse(data) as { charts: Array<{ points?: Array<{ model: string }> }> }
  expect(charts.flatMap((chart) => chart.points ?? []).map((point) => point.model)).toEqual(['weak'])
})
