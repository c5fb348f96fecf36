import { resolve } from 'node:path'

/** The environment variables a run takes, read in one place so the README's list stays true. */

// The model adapters' knobs are read on their side of the layers; the harness reads them from there.
export {
  cacheDir,
  cacheMode,
  idleTimeoutMs,
  maxRetries,
  providerConcurrency,
  requestTimeoutMs,
  retryDelayMs,
  type CacheMode,
} from '../adapters/models/knobs.ts'

export function sampleCount(env: NodeJS.ProcessEnv = process.env): number {
  return positiveInteger(env, 'SAMPLES', 1)
}

export function dataDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dir = env.TESTBENCH_DATA_DIR
  return dir ? resolve(dir) : undefined
}

export function reportDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.TESTBENCH_REPORT_DIR ?? '.testbench/reports')
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
