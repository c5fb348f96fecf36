import { expect, test } from 'vitest'
import {
  formatPairedDifference,
  pairedDifference,
  pairedLine,
  tangoInterval,
  type PairedOutcome,
} from '../../../reporters/statistics/paired-difference.ts'

const Z_95 = 1.959963984540054

/** Tango's score statistic for Δ0, written out again from the paper's formula, to check the ends against. */
function tangoStatistic(n12: number, n21: number, total: number, delta: number): number {
  const b = -n12 - n21 + (2 * total - n12 + n21) * delta
  const c = -n21 * delta * (1 - delta)
  const p21 = (Math.sqrt(b * b - 8 * total * c) - b) / (4 * total)
  return (n12 - n21 - total * delta) / Math.sqrt(total * (2 * p21 + delta * (1 - delta)))
}

function pairs(counts: {
  bothPass: number
  passToFail: number
  failToPass: number
  bothFail: number
}): PairedOutcome[] {
  const make = (count: number, passedA: boolean, passedB: boolean, from: number) =>
    Array.from({ length: count }, (_, index) => ({ cluster: `item-${from + index}`, passedA, passedB }))
  return [
    ...make(counts.bothPass, true, true, 0),
    ...make(counts.passToFail, true, false, 10_000),
    ...make(counts.failToPass, false, true, 20_000),
    ...make(counts.bothFail, false, false, 30_000),
  ]
}

test("the ends are where Tango's score statistic is ±1.96", () => {
  for (const [n12, n21, total] of [
    [6, 16, 161],
    [1, 7, 21],
    [19, 12, 200],
    [3, 0, 50],
  ] as const) {
    const { low, high } = tangoInterval(n12, n21, total)
    expect(low).toBeLessThan((n12 - n21) / total)
    expect(high).toBeGreaterThan((n12 - n21) / total)
    expect(tangoStatistic(n12, n21, total, low)).toBeCloseTo(Z_95, 6)
    expect(tangoStatistic(n12, n21, total, high)).toBeCloseTo(-Z_95, 6)
  }
})

test('no item flipped: B − A is 0 with an interval of some width, narrower the more items', () => {
  const few = pairedDifference(pairs({ bothPass: 3, passToFail: 0, failToPass: 0, bothFail: 2 }))!
  const many = pairedDifference(pairs({ bothPass: 300, passToFail: 0, failToPass: 0, bothFail: 200 }))!
  expect(few.points).toBe(0)
  expect(few.low).toBeLessThan(-10)
  expect(few.high).toBeGreaterThan(10)
  expect(many.high).toBeGreaterThan(0.3)
  expect(many.high).toBeLessThan(few.high)
  expect(formatPairedDifference(many)).toMatch(/^0\.0 points \(95 % interval −0\.\d to \+0\.\d\)$/)
})

test('paired is much narrower than the two runs’ own intervals suggest: 19 fail → pass, 12 pass → fail of 200', () => {
  const difference = pairedDifference(pairs({ bothPass: 120, passToFail: 12, failToPass: 19, bothFail: 49 }))!
  expect(difference.points).toBeCloseTo(3.5, 12)
  // Each run's own 95% interval is about ±6.5 points wide; the paired one of the difference about ±5.5.
  expect(difference.high - difference.low).toBeLessThan(12)
  expect(difference.low).toBeLessThan(0)
  expect(pairedLine(difference, 0.28, 12, 19)).toMatch(
    /^\+3\.5 points \(95 % interval −\d\.\d to \+\d\.\d\), p = 0\.2800, 12 items pass → fail, 19 fail → pass$/,
  )
  // Everything flipped to pass: +100 points, the interval ending at +100.
  const all = pairedDifference(pairs({ bothPass: 0, passToFail: 0, failToPass: 10, bothFail: 0 }))!
  expect(all).toMatchObject({ points: 100, high: 100 })
  expect(all.low).toBeLessThan(100)
})

test('several samples of one item count as less than as many items: the design effect widens the interval', () => {
  const oneEach = pairs({ bothPass: 40, passToFail: 0, failToPass: 10, bothFail: 50 })
  const single = pairedDifference(oneEach)!
  // The same 100 items with 4 samples each that agree with each other: no more information than one sample.
  const fourEach = oneEach.flatMap((pair) => [pair, pair, pair, pair])
  const repeated = pairedDifference(fourEach)!
  expect(repeated.points).toBeCloseTo(single.points, 12)
  expect(repeated.designEffect).toBeCloseTo(4, 1)
  expect(repeated.low).toBeCloseTo(single.low, 0)
  // Were they counted as 400 independent pairs, the interval would be about half as wide.
  const asIndependent = pairedDifference(fourEach.map((pair, index) => ({ ...pair, cluster: String(index) })))!
  expect(asIndependent.high - asIndependent.low).toBeLessThan(0.6 * (repeated.high - repeated.low))
})
