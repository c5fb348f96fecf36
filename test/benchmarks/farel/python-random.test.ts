import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { bitLength, PythonRandom } from '../../../suites/farel/python-random.ts'

/** Draws made by CPython itself (fixtures/farel/cpython-random.py says how). */
interface CpythonCase {
  seed: string
  random: string[]
  getrandbits: Array<[number, string]>
  randbelow: Array<[number, number]>
  choice: string[]
  shuffle: number[]
  sample_small: number[]
  sample_all: number[]
  sample_set: number[]
  after: string
}

const fixture = JSON.parse(
  readFileSync(new URL('../../../fixtures/farel/cpython-random.json', import.meta.url), 'utf8'),
) as {
  cases: CpythonCase[]
}
const range = (n: number) => Array.from({ length: n }, (_, i) => i)

describe('PythonRandom reproduces CPython random', () => {
  test.for(fixture.cases.map((c) => [c.seed, c] as const))('seed %s', ([seed, expected]) => {
    const r = new PythonRandom(BigInt(seed))
    expect(expected.random.map(() => r.random())).toEqual(expected.random.map(Number))
    for (const [k, value] of expected.getrandbits) expect(r.getrandbits(k), `getrandbits(${k})`).toBe(BigInt(value))
    for (const [n, value] of expected.randbelow) expect(r.randbelow(n), `_randbelow(${n})`).toBe(value)
    expect(expected.choice.map(() => r.choice(['a', 'b', 'c']))).toEqual(expected.choice)
    const x = range(10)
    r.shuffle(x)
    expect(x).toEqual(expected.shuffle)
    expect(r.sample(range(10), 4)).toEqual(expected.sample_small)
    expect(r.sample(range(100), 100)).toEqual(expected.sample_all)
    expect(r.sample(range(1000), 7)).toEqual(expected.sample_set)
    expect(r.random()).toBe(Number(expected.after))
  })

  test('seed(42) starts with the well-known 0.6394267984578837', () => {
    expect(new PythonRandom(42).random()).toBe(0.6394267984578837)
  })

  test('a number seed and a bigint seed are the same seed', () => {
    expect(new PythonRandom(2 ** 40).random()).toBe(new PythonRandom(2n ** 40n).random())
  })

  test('rejects what CPython would', () => {
    const r = new PythonRandom(1)
    expect(() => r.sample([1, 2], 3)).toThrow(/larger than population/)
    expect(() => r.choice([])).toThrow(/empty sequence/)
    expect(() => r.randbelow(0)).toThrow(/at least 1/)
    expect(() => new PythonRandom(1.5)).toThrow(/whole number/)
  })

  test('bitLength is int.bit_length()', () => {
    expect([1, 2, 3, 4, 255, 256, 2 ** 32 - 1, 2 ** 32, 2 ** 40 + 3].map(bitLength)).toEqual([
      1, 2, 2, 3, 8, 9, 32, 33, 41,
    ])
  })
})
