/**
 * CPython's `random` module, the parts FaRel's generator uses, reproduced
 * bit for bit: `seed(int)`, `random()`, `getrandbits(k)`, `_randbelow(n)`,
 * and on top of it `choice`, `shuffle` and `sample` (Lib/random.py).
 *
 * The draws that FaRel makes go through `_randbelow`, so `choice`, `shuffle`
 * and `sample` live in a base class over an abstract `randbelow`: the
 * python-compat mode feeds them CPython's Mersenne Twister, the seedrandom
 * mode feeds them seedrandom.
 */
import { MersenneTwister } from './mersenne-twister.ts'

/** CPython's algorithms for choosing and shuffling, over any source of uniform integers below n. */
export abstract class Sampler {
  /** A uniform integer in [0, n), n ≥ 1. */
  abstract randbelow(n: number): number

  /** `random.choice(seq)`: `seq[_randbelow(len(seq))]`. */
  choice<T>(seq: readonly T[]): T {
    if (seq.length === 0) throw new Error('Cannot choose from an empty sequence')
    return seq[this.randbelow(seq.length)]!
  }

  /** `random.shuffle(x)` in place: i from len-1 down to 1 swaps x[i] with x[_randbelow(i + 1)]. */
  shuffle<T>(x: T[]): void {
    for (let i = x.length - 1; i > 0; i--) {
      const j = this.randbelow(i + 1)
      const held = x[i]!
      x[i] = x[j]!
      x[j] = held
    }
  }

  /**
   * `random.sample(population, k)`: a pool algorithm when an n-list is smaller
   * than a k-set (CPython's setsize rule), otherwise rejection into a set.
   */
  sample<T>(population: readonly T[], k: number): T[] {
    const n = population.length
    if (!Number.isInteger(k) || k < 0 || k > n) throw new Error('Sample larger than population or is negative')
    const result: T[] = new Array<T>(k)
    let setsize = 21 // size of a small set minus size of an empty list
    if (k > 5) setsize += 4 ** Math.ceil(Math.log(k * 3) / Math.log(4)) // table size for big sets
    if (n <= setsize) {
      const pool = [...population]
      for (let i = 0; i < k; i++) {
        const j = this.randbelow(n - i)
        result[i] = pool[j]!
        pool[j] = pool[n - i - 1]! // move the non-selected item into the vacancy
      }
    } else {
      const selected = new Set<number>()
      for (let i = 0; i < k; i++) {
        let j = this.randbelow(n)
        while (selected.has(j)) j = this.randbelow(n)
        selected.add(j)
        result[i] = population[j]!
      }
    }
    return result
  }
}

/** `random.Random` of CPython 3 (the same draws from 3.2 on for int seeds). */
export class PythonRandom extends Sampler {
  private readonly mt = new MersenneTwister()

  constructor(seed: number | bigint) {
    super()
    this.seed(seed)
  }

  /** `random.seed(a)` for an int: init_by_array over |a| split in 32-bit words, least significant first. */
  seed(a: number | bigint): void {
    if (typeof a === 'number' && !Number.isSafeInteger(a))
      throw new Error(`A python-compat seed must be a whole number, not ${a}.`)
    let rest = BigInt(a)
    if (rest < 0n) rest = -rest
    const key: number[] = []
    while (rest > 0n) {
      key.push(Number(rest & 0xffffffffn))
      rest >>= 32n
    }
    if (key.length === 0) key.push(0)
    this.mt.initByArray(key)
  }

  /** `random.random()`: 53 bits from two outputs, a = 27 bits and b = 26 bits. */
  random(): number {
    const a = this.mt.genrandUint32() >>> 5
    const b = this.mt.genrandUint32() >>> 6
    return (a * 67108864 + b) / 9007199254740992
  }

  /** `random.getrandbits(k)` for k ≤ 32, as a number. */
  getrandbits32(k: number): number {
    if (!Number.isInteger(k) || k < 0 || k > 32) throw new Error(`getrandbits32 takes 0 to 32 bits, not ${k}.`)
    if (k === 0) return 0
    return this.mt.genrandUint32() >>> (32 - k)
  }

  /** `random.getrandbits(k)` for any k ≥ 0: 32-bit words filled least significant first, the last one cut to size. */
  getrandbits(k: number): bigint {
    if (!Number.isInteger(k) || k < 0)
      throw new Error(`getrandbits takes a non-negative whole number of bits, not ${k}.`)
    if (k <= 32) return BigInt(this.getrandbits32(k))
    let result = 0n
    let shift = 0n
    for (let left = k; left > 0; left -= 32) {
      let word = this.mt.genrandUint32()
      if (left < 32) word >>>= 32 - left // drop the least significant bits
      result |= BigInt(word) << shift
      shift += 32n
    }
    return result
  }

  /** `_randbelow_with_getrandbits(n)`: k = n.bit_length() bits, drawn again while r ≥ n. */
  randbelow(n: number): number {
    if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`randbelow needs a whole number of at least 1, not ${n}.`)
    const k = bitLength(n)
    if (k <= 32) {
      let r = this.getrandbits32(k)
      while (r >= n) r = this.getrandbits32(k)
      return r
    }
    const limit = BigInt(n)
    let r = this.getrandbits(k)
    while (r >= limit) r = this.getrandbits(k)
    return Number(r)
  }
}

/** Python's `int.bit_length()` for a positive safe integer. */
export function bitLength(n: number): number {
  return n < 2 ** 32 ? 32 - Math.clz32(n) : BigInt(n).toString(2).length
}
