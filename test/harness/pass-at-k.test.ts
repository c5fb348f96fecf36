import { describe, expect, test } from 'vitest'
import {
  countSamples,
  formatPassAtK,
  meanPassAtK,
  passAtEveryK,
  passAtK,
  scorePassAtK,
} from '../../harness/pass-at-k.ts'

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

  test('the 95% interval is the mean ± 1.96 standard errors', () => {
    // pass@1 per problem: 0.4, 0.6, 0.4, 0.6 → mean 0.5; sample variance 0.04/3; SE = sqrt(1/300).
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
    expect(result.low).toBeCloseTo(0.5 - 1.959963984540054 * Math.sqrt(1 / 300), 12)
    expect(result.high).toBeCloseTo(0.5 + 1.959963984540054 * Math.sqrt(1 / 300), 12)
  })

  test('a perfect run has a zero-width interval at 1', () => {
    const result = meanPassAtK(
      [
        { n: 1, c: 1 },
        { n: 1, c: 1 },
      ],
      1,
    )
    expect(result).toMatchObject({ value: 1, standardError: 0, low: 1, high: 1 })
    expect(formatPassAtK(result)).toBe('100.0% ± 0.0')
  })

  test('the interval is clipped to 0…1', () => {
    const result = meanPassAtK(
      [
        { n: 1, c: 1 },
        { n: 1, c: 0 },
      ],
      1,
    )
    expect(result.value).toBe(0.5)
    expect(result.low).toBe(0)
    expect(result.high).toBe(1)
  })

  test('formats as percent ± half-width in points', () => {
    const result = meanPassAtK(
      [
        { n: 5, c: 2 },
        { n: 5, c: 5 },
        { n: 5, c: 0 },
      ],
      1,
    )
    expect(formatPassAtK(result)).toBe(`46.7% ± ${(1.959963984540054 * (Math.sqrt(19) / 15) * 100).toFixed(1)}`)
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
        interval: { low: 1, high: 1 },
        display: '100.0% ± 0.0',
        counted: { solved: 1, total: 1 },
        excluded: [{ itemId: 'b', reason: 'its canonical solution fails its tests' }],
        columns: { Model: 'm', 'S-v pass@1': '100.0% ± 0.0', 'S-v outcomes': 'passed 1' },
      },
    ])
  })
})
