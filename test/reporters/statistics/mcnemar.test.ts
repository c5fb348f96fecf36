import { expect, test } from 'vitest'
import { exactMcNemar } from '../../../reporters/statistics/mcnemar.ts'

// p-values from scipy.stats.binomtest(b, b + c, 0.5).pvalue
test.for([
  [10, 0, 0.001953125],
  [0, 10, 0.001953125],
  [1, 0, 1],
  [5, 0, 0.0625],
  [6, 1, 0.125],
  [30, 12, 0.007915897334896727],
  [200, 150, 0.008720036530555943],
  [0, 0, 1],
] as const)('%i pass→fail and %i fail→pass give p = %f', ([passToFail, failToPass, expected]) => {
  expect(exactMcNemar(passToFail, failToPass).pValue).toBeCloseTo(expected, 12)
})

test('thousands of flips neither overflow nor underflow', () => {
  expect(exactMcNemar(5000, 5000).pValue).toBe(1)
  const { pValue } = exactMcNemar(3000, 2000)
  expect(pValue).toBeGreaterThan(0)
  expect(pValue).toBeLessThan(1e-40)
})

test('counts must be whole and not negative', () => {
  expect(() => exactMcNemar(-1, 2)).toThrow(/-1 is not a whole number/)
  expect(() => exactMcNemar(1.5, 2)).toThrow(/1.5/)
})
