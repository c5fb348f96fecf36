import { resolve } from 'node:path'
import { positiveInteger } from '../adapters/knob.ts'

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
