import { availableParallelism } from 'node:os'
import { SANDBOX_CONCURRENCY } from './knobs.ts'

/** At most `limit` calls of `run` in flight; the rest wait in order. */
export class Limiter {
  readonly limit: number
  #active = 0
  readonly #waiting: (() => void)[] = []

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`A limiter needs a whole number of slots ≥ 1, not ${limit}.`)
    this.limit = limit
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#active >= this.limit) await new Promise<void>((resolve) => this.#waiting.push(resolve))
    else this.#active++
    try {
      return await task()
    } finally {
      const next = this.#waiting.shift()
      // The slot passes straight to the next waiter, so #active stays the same.
      if (next === undefined) this.#active--
      else next()
    }
  }
}

/** Sandbox runs at once in this process: TESTBENCH_SANDBOX_CONCURRENCY, or the number of cores. */
export function sandboxConcurrency(env: NodeJS.ProcessEnv = process.env): number {
  return SANDBOX_CONCURRENCY.read(env) ?? availableParallelism()
}

let shared: Limiter | undefined

/**
 * Shared by both tiers and independent of how many model requests are in flight. Made on first use, so that
 * importing the sandbox (as the config does) never throws: a bad TESTBENCH_SANDBOX_CONCURRENCY is reported up front.
 */
export const sandboxLimiter = {
  get limit(): number {
    return (shared ??= new Limiter(sandboxConcurrency())).limit
  },
  run<T>(task: () => Promise<T>): Promise<T> {
    return (shared ??= new Limiter(sandboxConcurrency())).run(task)
  },
}
