import { describe, expect, test } from 'vitest'
import {
  countSamples,
  formatPassAtK,
  formatPassAtKWithInterval,
  meanPassAtK,
  meanPassHatK,
  passAtEveryK,
  passAtK,
  passHatEveryK,
  passHatK,
  scorePassAtK,
} from '../../../harness/scoring/pass-at-k.ts'
import { wilsonInterval } from '../../../harness/scoring/proportion-interval.ts'

describe('passAtK', () => {
  // 1 − C(3,k)/C(5,k): C(3,·) = 3, 3, 1, 0, 0 and C(5,·) = 5, 10, 10, 5, 1.
  test.for([
    [1, 1 - 3 / 5],
    [2, 1 - 3 / 10],
    [3, 1 - 1 / 10],
    [4, 1],
    [5, 1],
  ])('n=5, c=2, k=%i is %f', ([k, expected]) => {
    expect(passAtK(5, 2, k ?? 0)).toBeCloseTo(expected ?? -1, 12)
  })

  test('no correct sample gives 0 for every k', () => {
    for (let k = 1; k <= 5; k++) expect(passAtK(5, 0, k)).toBe(0)
  })

  test('all samples correct gives 1 for every k', () => {
    for (let k = 1; k <= 5; k++) expect(passAtK(5, 5, k)).toBe(1)
  })

  test('pass@1 is the fraction correct', () => {
    expect(passAtK(200, 37, 1)).toBeCloseTo(37 / 200, 12)
  })

  test('stays finite where the binomial coefficients would overflow', () => {
    // C(2000, 1000) is far beyond a double; the product form is not.
    const value = passAtK(2000, 3, 1000)
    expect(value).toBeCloseTo(1 - (1000 * 999 * 998) / (2000 * 1999 * 1998), 12)
  })

  test('refuses k larger than n, naming SAMPLES', () => {
    expect(() => passAtK(3, 1, 5)).toThrow(/SAMPLES=5/)
  })

  test('refuses more correct samples than samples', () => {
    expect(() => passAtK(3, 4, 1)).toThrow(/c ≤ n/)
  })
})

describe('meanPassAtK', () => {
  test('averages over problems and gives the standard error over problems', () => {
    // pass@1 per problem: 2/5, 1, 0 → mean 7/15; sample variance 57/225; SE = sqrt(57/225/3) = sqrt(19)/15.
    const result = meanPassAtK(
      [
        { n: 5, c: 2 },
        { n: 5, c: 5 },
        { n: 5, c: 0 },
      ],
      1,
    )
    expect(result.value).toBeCloseTo(7 / 15, 12)
    expect(result.standardError).toBeCloseTo(Math.sqrt(19) / 15, 12)
    expect(result.problems).toBe(3)
  })

  test('the 95% interval is Wilson’s on the effective sample size, between the problems and the samples', () => {
    // pass@1 per problem: 0.4, 0.6, 0.4, 0.6 → mean 0.5; the spread is far below a coin's, so the 20 samples
    // count as up to 20 trials, shrunk towards the 4 problems by Student's t on the 4 problems that carry the
    // variance: 4 + 16 · (1.96 / 2.776)² ≈ 12 trials.
    const result = meanPassAtK(
      [
        { n: 5, c: 2 },
        { n: 5, c: 3 },
        { n: 5, c: 2 },
        { n: 5, c: 3 },
      ],
      1,
    )
    expect(result.value).toBeCloseTo(0.5, 12)
    expect(result.standardError).toBeCloseTo(Math.sqrt(1 / 300), 12)
    const trials = 4 + 16 * (1.959963984540054 / 2.7764451051977987) ** 2
    expect(result.low).toBeCloseTo(wilsonInterval(trials / 2, trials).low, 3)
    expect(result.high).toBeCloseTo(wilsonInterval(trials / 2, trials).high, 3)
    expect(result.high - result.low).toBeLessThan(wilsonInterval(2, 4).high - wilsonInterval(2, 4).low)
    expect(result.high - result.low).toBeGreaterThan(wilsonInterval(10, 20).high - wilsonInterval(10, 20).low)
    // Problems that always pass or always fail: one trial each, the same interval as one sample per problem.
    const allOrNothing = meanPassAtK(
      [
        { n: 5, c: 5 },
        { n: 5, c: 0 },
        { n: 5, c: 5 },
        { n: 5, c: 0 },
      ],
      1,
    )
    expect(allOrNothing.low).toBeCloseTo(wilsonInterval(2, 4).low, 12)
    expect(allOrNothing.high).toBeCloseTo(wilsonInterval(2, 4).high, 12)
  })

  test('a perfect run has an interval below 100 %, as wide as Wilson’s for its problems', () => {
    const result = meanPassAtK(
      [
        { n: 1, c: 1 },
        { n: 1, c: 1 },
      ],
      1,
    )
    expect(result).toMatchObject({ value: 1, standardError: 0, high: 1 })
    expect(result.low).toBeCloseTo(2 / (2 + 1.959963984540054 ** 2), 12)
    expect(formatPassAtK(result)).toBe('100.0%')
    expect(formatPassAtKWithInterval(result)).toBe('100.0% (34.2–100.0)')
  })

  test('the interval stays within 0…1 and holds the value', () => {
    const result = meanPassAtK(
      [
        { n: 1, c: 1 },
        { n: 1, c: 0 },
      ],
      1,
    )
    expect(result.value).toBe(0.5)
    expect(result.low).toBeGreaterThan(0)
    expect(result.high).toBeLessThan(1)
    expect(result.low).toBeLessThan(0.5)
    expect(result.high).toBeGreaterThan(0.5)
  })

  test('formats as EvalPlus prints it, and with its interval in a results table', () => {
    const result = meanPassAtK(
      [
        { n: 5, c: 2 },
        { n: 5, c: 5 },
        { n: 5, c: 0 },
      ],
      1,
    )
    expect(formatPassAtK(result)).toBe('46.7%')
    expect(formatPassAtKWithInterval(result)).toMatch(/^46\.7% \(\d+\.\d–\d+\.\d\)$/)
  })
})

describe('pass^k', () => {
  test('is C(c, k)/C(n, k): the chance that k samples drawn are all correct', () => {
    // C(3,2)/C(5,2) = 3/10; C(3,3)/C(5,3) = 1/10; fewer correct samples than k: 0.
    expect(passHatK(5, 3, 2)).toBeCloseTo(0.3, 12)
    expect(passHatK(5, 3, 3)).toBeCloseTo(0.1, 12)
    expect(passHatK(5, 1, 2)).toBe(0)
    expect(passHatK(5, 5, 5)).toBe(1)
    expect(passHatK(4, 2, 1)).toBe(0.5)
    expect(() => passHatK(3, 1, 4)).toThrow(/SAMPLES=4/)
  })

  test('averages over problems with its interval, for k = 2 … the smallest n', () => {
    const problems = [
      { n: 4, c: 4 },
      { n: 4, c: 2 },
      { n: 3, c: 0 },
    ]
    const result = meanPassHatK(problems, 2)
    expect(result.value).toBeCloseTo((1 + 1 / 6 + 0) / 3, 12)
    expect(result.low).toBeGreaterThan(0)
    expect(result.high).toBeLessThan(1)
    expect(passHatEveryK(problems).map((each) => each.k)).toEqual([2, 3])
    expect(passHatEveryK([{ n: 1, c: 1 }])).toEqual([])
  })
})

describe('passAtEveryK', () => {
  test('gives k = 1 … the smallest n', () => {
    const results = passAtEveryK([
      { n: 3, c: 1 },
      { n: 2, c: 0 },
    ])
    expect(results.map((result) => result.k)).toEqual([1, 2])
    // Problem 1: pass@2 = 1 − C(2,2)/C(3,2) = 2/3; problem 2: 0.
    expect(results[1]?.value).toBeCloseTo(1 / 3, 12)
  })
})

describe('countSamples', () => {
  test('counts samples and correct samples per problem', () => {
    const samples = [
      { id: 'a', ok: true },
      { id: 'a', ok: false },
      { id: 'b', ok: false },
      { id: 'a', ok: true },
    ]
    const counts = countSamples(
      samples,
      (sample) => sample.id,
      (sample) => sample.ok,
    )
    expect(Object.fromEntries(counts)).toEqual({ a: { n: 3, c: 2 }, b: { n: 1, c: 0 } })
  })
})

describe('scorePassAtK', () => {
  test('excluded items are listed on every score of their variant', () => {
    const records = [
      { suite: 's', itemId: 'a', model: 'm', provider: 'p', sample: 0, outcome: 'passed' as const, variant: 'v' },
    ]
    const scores = scorePassAtK(records, {
      scoreName: (variant) => `S-${variant}`,
      excluded: (variant) =>
        variant === 'v' ? [{ itemId: 'b', reason: 'its canonical solution fails its tests' }] : [],
    })
    expect(scores).toEqual([
      {
        suite: 's',
        model: 'm',
        name: 'S-v pass@1',
        value: 1,
        interval: { low: wilsonInterval(1, 1).low, high: 1, method: 'Wilson' },
        display: '100.0%',
        counted: { solved: 1, total: 1 },
        excluded: [{ itemId: 'b', reason: 'its canonical solution fails its tests' }],
        columns: { Model: 'm', 'S-v pass@1': '100.0% (20.7–100.0)', 'S-v outcomes': 'passed 1' },
      },
    ])
  })

  test('with several samples, pass^k follows each pass@k, and an item that always passes counts as solved', () => {
    const sample = (itemId: string, index: number, passed: boolean) => ({
      suite: 's',
      itemId,
      model: 'm',
      provider: 'p',
      sample: index,
      outcome: passed ? ('passed' as const) : ('wrong_answer' as const),
    })
    const records = [
      ...[true, true, true].map((passed, index) => sample('a', index, passed)),
      ...[true, false, false].map((passed, index) => sample('b', index, passed)),
    ]
    const scores = scorePassAtK(records, { scoreName: () => 'S' })
    expect(scores.map((score) => score.name)).toEqual(['S pass@1', 'S pass@2', 'S pass^2', 'S pass@3', 'S pass^3'])
    const allOf = scores.find((score) => score.name === 'S pass^2')
    expect(allOf).toMatchObject({ value: 0.5, display: '50.0%', counted: { solved: 1, total: 2 } })
    expect(allOf?.interval?.method).toBe('Wilson on the effective sample size')
    expect(scores[0]?.columns?.['S pass^2']).toMatch(/^50\.0% \(/)
  })
})
