import { resolve } from 'node:path'
import { DATA_DIR, REPORT_DIR, SAMPLES } from './knob-table.ts'

/** The run-wide knobs' values, read through their declarations (knob-table.ts), in the units the code uses. */

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
  return SAMPLES.read(env)
}

export function dataDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dir = DATA_DIR.read(env)
  return dir === undefined ? undefined : resolve(dir)
}

export function reportDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(REPORT_DIR.read(env))
}
