import { describe, expect, test } from 'vitest'
import { answerInCode, isAnswer, lastLine } from '../../../suites/euler/judge.ts'

describe('isAnswer: the last line of stdout, trimmed, compared exactly', () => {
  test.for([
    ['233168\n', true],
    ['233168', true],
    ['233168   \n', true],
    ['  233168\t\r\n', true],
    ['233168\n\n\n', true],
    ['debug: 12\nworking...\n233168\n', true],
    ['233168.0\n', false],
    ['233168\ndone\n', false],
    ['233 168\n', false],
    ['0233168\n', false],
    ['+233168\n', false],
    ['2.33168e5\n', false],
    ['', false],
  ] as const)('%j → %s', ([stdout, expected]) => {
    expect(isAnswer(stdout, '233168')).toBe(expected)
  })

  test('negative and non-integer answers compare as written', () => {
    expect(isAnswer('-59231\n', '-59231')).toBe(true)
    expect(isAnswer('59231\n', '-59231')).toBe(false)
    expect(isAnswer('123/59\n', '123/59')).toBe(true)
    expect(isAnswer('0.4643990\n', '0.464399')).toBe(false)
  })
})

test('lastLine skips trailing blank lines', () => {
  expect(lastLine('a\nb\n\n  \n')).toBe('b')
  expect(lastLine('')).toBe('')
})

describe('answerInCode (the compatibility rule, off by default)', () => {
  test('finds the answer anywhere in the code, which is why it is a false positive', () => {
    expect(answerInCode('print(233168)', '233168')).toBe(true)
    // Problem 35's answer is 55: a program that merely mentions 55 "solves" it.
    expect(answerInCode('for n in range(2, 1000000):\n    if n == 55: pass', '55')).toBe(true)
    expect(answerInCode('print(1)', '55')).toBe(false)
  })
})

test("answerInCode removes every comma from the code first, as the original's execute.py does", () => {
  expect(answerInCode('# the sum is 233,168\nprint(x)', '233168')).toBe(true)
  expect(answerInCode('print(2,33168)', '233168')).toBe(true)
  expect(answerInCode('print(233_168)', '233168')).toBe(false)
  // An answer that holds commas itself (problem 175) can then never be found, as upstream.
  expect(answerInCode('print("1,13717420,8")', '1,13717420,8')).toBe(false)
  expect(answerInCode('print(1)', '')).toBe(false)
})
