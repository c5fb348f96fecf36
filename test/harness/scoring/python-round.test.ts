import { expect, test } from 'vitest'
import { numpyRound, pythonFixed, pythonRound } from '../../../harness/scoring/python-round.ts'

// Each expected value is what Python 3.11 prints for f"{x:.2f}" / f"{x:.0f}" / round(x, 2).
test.for([
  [1.005, '1.00', '1', 1],
  [2.675, '2.67', '3', 2.67],
  [0.125, '0.12', '0', 0.12],
  [0.375, '0.38', '0', 0.38],
  [1.125, '1.12', '1', 1.12],
  [0.5, '0.50', '0', 0.5],
  [1.5, '1.50', '2', 1.5],
  [2.5, '2.50', '2', 2.5],
  [100.5, '100.50', '100', 100.5],
  [28.8762190279213, '28.88', '29', 28.88],
  [-0.001, '-0.00', '-0', -0],
  [360.15, '360.15', '360', 360.15],
] as const)("%s → '%s', '%s', %s as Python", ([x, twoDecimals, noDecimals, rounded]) => {
  expect(pythonFixed(x, 2)).toBe(twoDecimals)
  expect(pythonFixed(x, 0)).toBe(noDecimals)
  expect(pythonRound(x, 2)).toBe(rounded)
})

// numpy.round(x, 2): rint(x * 100) / 100, as pandas rounds FaRel's mean.
test.for([
  [83.33500000000001, 83.34],
  [0.125, 0.12],
  [0.375, 0.38],
  [1.005, 1],
  [88.88888888888889, 88.89],
] as const)('numpyRound(%s, 2) is %s as numpy', ([x, expected]) => {
  expect(numpyRound(x, 2)).toBe(expected)
})
