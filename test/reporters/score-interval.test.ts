import { expect, test } from 'vitest'
import type { Outcome } from '../../adapters/outcome.ts'
import type { ItemRecord } from '../../harness/item-record.ts'
import type { Score } from '../../harness/score.ts'
import { formatInterval, formatLikeScore, withIntervals } from '../../reporters/score-interval.ts'
import { passRate } from '../../reporters/pass-rate.ts'
import { scoreHumanEval } from '../../suites/humaneval/score.ts'

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

test('a score without its own interval gets value ± 1.96 bootstrap standard errors, close to the binomial one for a pass rate', () => {
  const run = records('demo', outcomes(60, 40))
  const [score] = withIntervals(passRate(run), run, passRate)
  const halfWidth = 1.959963984540054 * Math.sqrt((0.6 * 0.4) / 100)
  expect(score?.interval?.low).toBeCloseTo(0.6 - halfWidth, 1)
  expect(score?.interval?.high).toBeCloseTo(0.6 + halfWidth, 1)
  expect(Math.abs((score?.interval?.high ?? 0) - 0.6 - halfWidth)).toBeLessThan(0.2 * halfWidth)
  // Seeded: the same records give the same interval.
  expect(withIntervals(passRate(run), run, passRate)[0]?.interval).toEqual(score?.interval)
})

test('pass@k keeps the interval its scorer gives', () => {
  const run = records('humaneval', outcomes(3, 1), 'humaneval')
  const scored = scoreHumanEval(run)
  expect(withIntervals(scored, run, scoreHumanEval).map((score) => score.interval)).toEqual(
    scored.map((score) => score.interval),
  )
  expect(scored[0]?.interval).toBeDefined()
})

test('a perfect run has a zero-width interval, and one item none', () => {
  const perfect = records('demo', outcomes(10, 0))
  expect(withIntervals(passRate(perfect), perfect, passRate)[0]?.interval).toEqual({ low: 1, high: 1 })
  const single = records('demo', outcomes(1, 0))
  expect(withIntervals(passRate(single), single, passRate)[0]?.interval).toBeUndefined()
})

test('intervals and differences print as the score’s display does', () => {
  const farel: Score = {
    suite: 'farel',
    model: 'm',
    name: 'FaRel-3',
    value: 44.44,
    display: '44.44',
    interval: { low: 30.123, high: 58.9 },
  }
  expect(formatInterval(farel)).toBe('30.12–58.90')
  const passAt1: Score = {
    suite: 'humaneval',
    model: 'm',
    name: 'HumanEval pass@1',
    value: 0.616,
    display: '61.6% ± 3.8',
    interval: { low: 0.5781, high: 0.6539 },
  }
  expect(formatInterval(passAt1)).toBe('57.8–65.4%')
  expect(formatLikeScore(passAt1, -0.0123)).toBe('-1.2%')
})
