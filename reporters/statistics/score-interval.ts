import seedrandom from 'seedrandom'
import { groupBy } from '../../harness/group-by.ts'
import type { ItemRecord } from '../../harness/records/item-record.ts'
import type { Score, ScoreInterval, Scorer } from '../../harness/scoring/score.ts'

/**
 * A 95% interval for every score, in the score's own scale. The built-in scorers give their own, which
 * hold at 0 % and 100 % (harness/scoring/proportion-interval.ts; docs/reports.md lists each score's method).
 * A score a project's own scorer gives without one gets value ± 1.96 bootstrap standard errors over
 * the items: the model's items (an item with all its samples and variants) drawn with replacement as
 * many times as there are items, each draw scored by the suite's own scorer, the interval kept within
 * the lowest and highest draw; when every draw gives the same value the bootstrap says nothing, and the
 * score has no interval rather than one of zero width. The draws are seeded, so one run, merged shards
 * and a saved report give the same interval.
 */
export interface IntervalOptions {
  /** Draws per model. Default: 200, enough for a standard error within about 5 %. */
  draws?: number
  seed?: string
}

const DEFAULT_DRAWS = 200
export const BOOTSTRAP = 'bootstrap'
const Z_95 = 1.959963984540054

export function withIntervals(
  scores: readonly Score[],
  records: readonly ItemRecord[],
  scorer: Scorer,
  options: IntervalOptions = {},
): Score[] {
  // A score over no item is no score: it has no interval either.
  const missing = scores.filter((score) => score.interval === undefined && score.noItems === undefined)
  if (missing.length === 0) return [...scores]
  const intervals = new Map<string, ScoreInterval>()
  for (const [model, modelRecords] of groupBy(records, (record) => record.model)) {
    if (!missing.some((score) => score.model === model)) continue
    for (const [name, interval] of bootstrap(modelRecords, scorer, options))
      intervals.set(JSON.stringify([model, name]), interval)
  }
  return scores.map((score) => {
    const interval = score.interval ?? intervals.get(JSON.stringify([score.model, score.name]))
    return interval === undefined || score.noItems !== undefined ? score : { ...score, interval }
  })
}

/** Each score name's interval over bootstrap draws of one model's items. */
function bootstrap(
  records: readonly ItemRecord[],
  scorer: Scorer,
  options: IntervalOptions,
): Map<string, ScoreInterval> {
  const full = new Map(scorer(records).map((score) => [score.name, score.value]))
  const items = [...groupBy(records, (record) => record.itemId).values()]
  const intervals = new Map<string, ScoreInterval>()
  if (items.length < 2) return intervals
  const draws = options.draws ?? DEFAULT_DRAWS
  const random = seedrandom(options.seed ?? 'llm-testbench score intervals')
  const values = new Map<string, number[]>()
  for (let draw = 0; draw < draws; draw++) {
    const sample: ItemRecord[] = []
    for (let index = 0; index < items.length; index++) {
      const item = items[Math.floor(random() * items.length)] ?? []
      // Each drawn copy is an item of its own: scorers count items by id.
      for (const record of item) sample.push({ ...record, itemId: `${record.itemId}\u0000${index}` })
    }
    for (const score of scorer(sample)) {
      const list = values.get(score.name) ?? []
      list.push(score.value)
      values.set(score.name, list)
    }
  }
  for (const [name, list] of values) {
    const value = full.get(name)
    // A score that some draws lack (a class no draw happened to hold) has no interval worth printing.
    if (value === undefined || list.length < draws) continue
    const mean = list.reduce((sum, draw) => sum + draw, 0) / list.length
    const standardError = Math.sqrt(list.reduce((sum, draw) => sum + (draw - mean) ** 2, 0) / (list.length - 1))
    if (!(standardError > 0)) continue
    intervals.set(name, {
      low: Math.max(Math.min(...list), value - Z_95 * standardError),
      high: Math.min(Math.max(...list), value + Z_95 * standardError),
      method: BOOTSTRAP,
    })
  }
  return intervals
}

/**
 * `28.10–38.55` in the display's own form: as many decimals as the display shows, and in percent when
 * the display shows the value as a percentage (pass@k's `61.6%` for 0.616 gives `53.9–68.7%`); an
 * interval read from a report written before today's methods says so: `… (interval as saved)`.
 */
export function formatInterval(score: Score): string | undefined {
  if (score.interval === undefined) return undefined
  const high = formatLikeScore(score, score.interval.high)
  const range = `${formatLikeScore(score, score.interval.low).replace(/%$/, '')}–${high}`
  return score.interval.asSaved ? `${range} ${AS_SAVED}` : range
}

export const AS_SAVED = '(interval as saved)'

/** A number in the scale and decimals the score's display uses (points of a percentage for pass@k's `61.6% ± 3.8`). */
export function formatLikeScore(score: Score, value: number): string {
  const shown = /-?\d+(?:\.(\d+))?/.exec(score.display)
  const decimals = shown?.[1]?.length ?? 2
  const number = Number(shown?.[0] ?? Number.NaN)
  const percent =
    score.display.includes('%') &&
    Number.isFinite(number) &&
    Math.abs(number - score.value * 100) <= Math.abs(number - score.value)
  return `${(value * (percent ? 100 : 1)).toFixed(decimals)}${percent ? '%' : ''}`
}
