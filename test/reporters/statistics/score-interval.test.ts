import { expect, test } from 'vitest'
import type { Outcome } from '../../../adapters/outcome.ts'
import type { ItemRecord } from '../../../harness/records/item-record.ts'
import type { Score, Scorer } from '../../../harness/scoring/score.ts'
import { wilsonInterval } from '../../../harness/scoring/proportion-interval.ts'
import { formatInterval, formatLikeScore, withIntervals } from '../../../reporters/statistics/score-interval.ts'
import { passRate } from '../../../reporters/statistics/pass-rate.ts'
import { scoreHumanEval } from '../../../suites/humaneval/score.ts'

function records(suite: string, outcomes: Outcome[], variant?: string): ItemRecord[] {
  return outcomes.map((outcome, index) => ({
    suite,
    itemId: `item-${index}`,
    model: 'm',
    provider: 'p',
    sample: 0,
    outcome,
    ...(variant ? { variant } : {}),
  }))
}

const outcomes = (passed: number, failed: number): Outcome[] => [
  ...Array<Outcome>(passed).fill('passed'),
  ...Array<Outcome>(failed).fill('wrong_answer'),
]

/** A project's own scorer that gives no interval: the share passed, in points. */
const ownScorer: Scorer = (run) => {
  const passed = run.filter((record) => record.outcome === 'passed').length
  const value = (100 * passed) / run.length
  return [{ suite: 'own', model: 'm', name: 'own score', value, display: value.toFixed(2) }]
}

test('a pass rate has the Wilson interval: 5 of 5 is 56.55–100.00 %, not 100–100', () => {
  const perfect = records('demo', outcomes(5, 0))
  const [score] = passRate(perfect)
  expect(score?.interval).toEqual({ ...wilsonInterval(5, 5), method: 'Wilson' })
  expect(formatInterval(score!)).toBe('56.55–100.00%')
  const [none] = passRate(records('demo', outcomes(0, 164)))
  expect(none?.interval?.low).toBe(0)
  expect(none?.interval?.high).toBeGreaterThan(0.02)
  // withIntervals keeps it.
  expect(withIntervals([score!], perfect, passRate)[0]?.interval).toEqual(score?.interval)
})

test('pass@k keeps the interval its scorer gives', () => {
  const run = records('humaneval', outcomes(3, 1), 'humaneval')
  const scored = scoreHumanEval(run)
  expect(withIntervals(scored, run, scoreHumanEval).map((score) => score.interval)).toEqual(
    scored.map((score) => score.interval),
  )
  expect(scored[0]?.interval).toMatchObject({ ...wilsonInterval(3, 4), method: 'Wilson' })
})

test("a project's own score without an interval gets the bootstrap's, close to the binomial one; never one of zero width", () => {
  const run = records('own', outcomes(60, 40))
  const [score] = withIntervals(ownScorer(run), run, ownScorer)
  const halfWidth = 100 * 1.959963984540054 * Math.sqrt((0.6 * 0.4) / 100)
  expect(score?.interval?.method).toBe('bootstrap')
  expect(Math.abs((score?.interval?.high ?? 0) - 60 - halfWidth)).toBeLessThan(0.2 * halfWidth)
  // Seeded: the same records give the same interval.
  expect(withIntervals(ownScorer(run), run, ownScorer)[0]?.interval).toEqual(score?.interval)
  // Every draw of a perfect run is perfect: the bootstrap says nothing, and the score has no interval.
  const perfect = records('own', outcomes(10, 0))
  expect(withIntervals(ownScorer(perfect), perfect, ownScorer)[0]?.interval).toBeUndefined()
})

test('intervals and differences print as the score’s display does; an old saved one says so', () => {
  const farel: Score = {
    suite: 'farel',
    model: 'm',
    name: 'FaRel-3',
    value: 44.44,
    display: '44.44',
    interval: { low: 30.123, high: 58.9 },
  }
  expect(formatInterval(farel)).toBe('30.12–58.90')
  expect(formatInterval({ ...farel, interval: { low: 30.123, high: 58.9, asSaved: true } })).toBe(
    '30.12–58.90 (interval as saved)',
  )
  const passAt1: Score = {
    suite: 'humaneval',
    model: 'm',
    name: 'HumanEval pass@1',
    value: 0.616,
    display: '61.6%',
    interval: { low: 0.5391, high: 0.6873 },
  }
  expect(formatInterval(passAt1)).toBe('53.9–68.7%')
  expect(formatLikeScore(passAt1, -0.0123)).toBe('-1.2%')
  // Reports written before showed pass@k as `61.6% ± 3.8`: read the same way.
  expect(formatLikeScore({ ...passAt1, display: '61.6% ± 3.8' }, 0.5781)).toBe('57.8%')
})
