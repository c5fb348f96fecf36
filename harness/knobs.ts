import { resolve } from 'node:path'

/** The environment variables a run takes, read in one place so the README's list stays true. */

export function sampleCount(env: NodeJS.ProcessEnv = process.env): number {
  return positiveInteger(env, 'SAMPLES', 1)
}

export function dataDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dir = env.TESTBENCH_DATA_DIR
  return dir ? resolve(dir) : undefined
}

export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.TESTBENCH_CACHE_DIR ?? '.testbench/cache')
}

export function reportDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.TESTBENCH_REPORT_DIR ?? '.testbench/reports')
}

export type CacheMode = 'on' | 'off' | 'refresh'

/** `on` reuses stored replies (a rerun resumes), `off` neither reads nor writes, `refresh` asks again and overwrites. */
export function cacheMode(env: NodeJS.ProcessEnv = process.env): CacheMode {
  const value = env.TESTBENCH_CACHE ?? 'on'
  if (value === 'on' || value === 'off' || value === 'refresh') return value
  throw new Error(`TESTBENCH_CACHE=${value} is not understood: use on (default), off or refresh.`)
}

export function requestTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  return positiveInteger(env, 'TESTBENCH_REQUEST_TIMEOUT', 600) * 1000
}

export function maxRetries(env: NodeJS.ProcessEnv = process.env): number {
  return nonNegativeInteger(env, 'TESTBENCH_RETRIES', 4)
}

/** Requests in flight per provider across the run's workers (harness/run-slots.ts); the default suits a local server or a hosted API. */
export function providerConcurrency(provider: string, env: NodeJS.ProcessEnv = process.env): number {
  return positiveInteger(env, 'TESTBENCH_CONCURRENCY', provider === 'ollama' ? 2 : 8)
}

export function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = nonNegativeInteger(env, name, fallback)
  if (value === 0) throw new Error(`${name}=0: it must be a whole number of at least 1.`)
  return value
}

export function nonNegativeInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  if (!/^\d+$/.test(raw.trim())) throw new Error(`${name}=${raw} is not a whole number.`)
  return Number(raw.trim())
}

export function positiveNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = nonNegativeNumber(env, name, fallback)
  if (value === 0) throw new Error(`${name}=0: it must be more than 0.`)
  return value
}

export function nonNegativeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]
  if (raw === undefined || raw.trim() === '') return fallback
  const value = Number(raw)
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name}=${raw} is not a number of at least 0.`)
  return value
}
