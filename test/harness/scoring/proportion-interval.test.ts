/**
 * The 95% intervals hold the true value about 95% of the time at every value, 0 % and 100 % included, and
 * never have zero width on a finite set: checked by simulation, seeded, for the set sizes the suites have.
 */
import seedrandom from 'seedrandom'
import { describe, expect, test } from 'vitest'
import { meanInterval, wilsonInterval, type ShareUnit } from '../../../harness/scoring/proportion-interval.ts'
import { meanPassAtK, meanPassHatK } from '../../../harness/scoring/pass-at-k.ts'

const RATES = [0.5, 0.9, 0.99] as const
const SIZES = [5, 50, 164, 1140] as const
const RUNS = 2000
/**
 * Tolerance: each cell's coverage at least 92 %, and the mean over the cells within 2.5 points of 95 %. A
 * cell may cover more (a binomial's coverage moves in steps with the count: 5 items allow six outcomes, and
 * 5 of 5 right at a true 99 % is covered every time). 2000 runs per cell give a simulation error of about
 * 0.5 point (fewer for the sets of 5 samples per item and FaRel's: up to 1.8 points at 1140 items).
 */
const CELL_LOW = 0.92
const MEAN_TOLERANCE = 0.025
/** Simulated runs of sets of 5 samples per item, fewer for the big sets to keep the test to a few seconds. */
const RUNS_WITH_SAMPLES: Record<(typeof SIZES)[number], number> = { 5: 1000, 50: 500, 164: 300, 1140: 150 }

function binomial(random: () => number, trials: number, rate: number): number {
  let successes = 0
  for (let trial = 0; trial < trials; trial++) if (random() < rate) successes++
  return successes
}

function expectCoverage(coverage: ReadonlyArray<{ cell: string; covered: number }>): void {
  if (process.env.SHOW_COVERAGE)
    console.log(coverage.map(({ cell, covered }) => `${cell}: ${covered.toFixed(3)}`).join('\n'))
  for (const { cell, covered } of coverage) {
    expect(covered, cell).toBeGreaterThanOrEqual(CELL_LOW)
  }
  const mean = coverage.reduce((sum, { covered }) => sum + covered, 0) / coverage.length
  expect(Math.abs(mean - 0.95), `mean coverage ${mean}`).toBeLessThanOrEqual(MEAN_TOLERANCE)
}

describe('wilsonInterval', () => {
  test('covers a pass rate of 0.5, 0.9 and 0.99 about 95 % of the time on 5, 50, 164 and 1140 items', () => {
    const random = seedrandom('wilson coverage')
    const coverage = RATES.flatMap((rate) =>
      SIZES.map((size) => {
        let covered = 0
        for (let run = 0; run < RUNS; run++) {
          const { low, high } = wilsonInterval(binomial(random, size, rate), size)
          if (!(high > low)) throw new Error(`zero width at ${low}`)
          if (low <= rate && rate <= high) covered++
        }
        return { cell: `rate ${rate}, ${size} items`, covered: covered / RUNS }
      }),
    )
    expectCoverage(coverage)
  })

  test('never has zero width: 0 of n and n of n reach into the set', () => {
    for (const size of [1, 5, 50, 164, 1140]) {
      const none = wilsonInterval(0, size)
      const all = wilsonInterval(size, size)
      expect(none.low).toBe(0)
      expect(none.high).toBeGreaterThan(0)
      expect(all.high).toBe(1)
      expect(all.low).toBeLessThan(1)
    }
    // 5 of 5: about 57–100 %, as the issue that asked for it says.
    expect(wilsonInterval(5, 5).low).toBeCloseTo(0.5655, 3)
  })

  test('a few failures from 100 %, the Poisson bound reaches above the true rate where plain Wilson falls short', () => {
    // 48 of 50 at a true rate of 0.99: plain Wilson ends at 0.989, below it; this one reaches past it.
    expect(wilsonInterval(48, 50).high).toBeGreaterThan(0.99)
    expect(wilsonInterval(2, 50).low).toBeLessThan(0.01)
  })
})

describe('meanInterval', () => {
  test('pass@1, pass@2 and pass^2 over 5 samples per item cover their true value about 95 % of the time', () => {
    // Each item's own rate: 1 with probability w, else uniform on 0…1 (flaky), so the set's true pass@1 is
    // w + (1 − w)/2, its pass@2 w + (1 − w)·2/3 and its pass^2 w + (1 − w)/3.
    const random = seedrandom('pass@k coverage')
    const samples = 5
    const coverage: Array<{ cell: string; covered: number }> = []
    let zeroWidth = 0
    for (const rate of RATES) {
      const always = 2 * rate - 1
      const truth = { 'pass@1': rate, 'pass@2': always + ((1 - always) * 2) / 3, 'pass^2': always + (1 - always) / 3 }
      for (const size of SIZES) {
        const covered = { 'pass@1': 0, 'pass@2': 0, 'pass^2': 0 }
        const runs = RUNS_WITH_SAMPLES[size]
        for (let run = 0; run < runs; run++) {
          const problems = Array.from({ length: size }, () => {
            const own = random() < always ? 1 : random()
            return { n: samples, c: binomial(random, samples, own) }
          })
          const results = [
            ['pass@1', meanPassAtK(problems, 1)],
            ['pass@2', meanPassAtK(problems, 2)],
            ['pass^2', meanPassHatK(problems, 2)],
          ] as const
          for (const [name, result] of results) {
            if (!(result.high > result.low)) zeroWidth++
            if (result.low <= truth[name] && truth[name] <= result.high) covered[name]++
          }
        }
        for (const [name, count] of Object.entries(covered))
          coverage.push({ cell: `${name}, rate ${rate}, ${size} items`, covered: count / runs })
      }
    }
    expect(zeroWidth).toBe(0)
    expectCoverage(coverage)
  })

  test("FaRel's macro-average over 9 classes of 50 quizzes covers the mean of the class rates", () => {
    const random = seedrandom('macro-average coverage')
    const runs = RUNS / 2
    const coverage = RATES.map((rate) => {
      // Classes of unequal difficulty around the rate, each within 0…1.
      const classRates = Array.from({ length: 9 }, (_, index) => Math.min(1, rate + (index - 4) * (1 - rate) * 0.2))
      const truth = classRates.reduce((sum, each) => sum + each, 0) / classRates.length
      let covered = 0
      for (let run = 0; run < runs; run++) {
        const units: ShareUnit[] = classRates.flatMap((classRate) =>
          Array.from({ length: 50 }, () => ({ value: random() < classRate ? 1 : 0, weight: 1 / (9 * 50) })),
        )
        const { low, high } = meanInterval(units)
        if (!(high > low)) throw new Error(`zero width at ${low}`)
        if (low <= truth && truth <= high) covered++
      }
      return { cell: `macro-average around ${rate}`, covered: covered / runs }
    })
    expectCoverage(coverage)
  })

  test("PE-Bench's points-weighted share covers the true weighted rate, a few heavy problems counting as few trials", () => {
    const random = seedrandom('weighted coverage')
    // Points spread as PE-Bench's: most problems worth a little, a few worth a hundred times more.
    const points = Array.from({ length: 100 }, (_, index) => 1.3 * Math.exp(index / 20))
    const coverage = RATES.map((rate) => {
      let covered = 0
      for (let run = 0; run < RUNS; run++) {
        const { low, high } = meanInterval(points.map((weight) => ({ value: random() < rate ? 1 : 0, weight })))
        if (low <= rate && rate <= high) covered++
      }
      return { cell: `weighted, rate ${rate}`, covered: covered / RUNS }
    })
    expectCoverage(coverage)
    // The heavy tail counts: 100 problems weigh as about 60 equal ones.
    const { effectiveSize } = meanInterval(points.map((weight) => ({ value: 1, weight })))
    expect(effectiveSize).toBeLessThan(80)
    expect(effectiveSize).toBeGreaterThan(30)
  })

  test('one sample per item is exactly Wilson’s; every share at 0 or 1 still gives a width', () => {
    const units = [1, 1, 1, 0].map((value) => ({ value }))
    const { low, high, effectiveSize } = meanInterval(units)
    expect(effectiveSize).toBeCloseTo(4, 12)
    expect(low).toBeCloseTo(wilsonInterval(3, 4).low, 12)
    expect(high).toBeCloseTo(wilsonInterval(3, 4).high, 12)
    expect(meanInterval([{ value: 1 }, { value: 1 }]).low).toBeLessThan(1)
  })
})
