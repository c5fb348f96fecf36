import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { cacheDir, dataDir } from '../../harness/knobs.ts'

/**
 * Where the tests' suite runs and dataset loaders find the public datasets: TESTBENCH_DATA_DIR when
 * it is set (`.ci/run` sets it to `../shared/datasets` where that copy exists); else the product's
 * own download cache (TESTBENCH_CACHE_DIR, default `.testbench/cache`), which the suites fill from
 * the pinned public sources on first use, each file checked against its sha256, and which a CI
 * workflow keeps between runs (actions/cache). Nothing here knows where a copy of the data lives.
 */
export function datasetEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const dir = dataDir(env)
  return dir === undefined ? { TESTBENCH_CACHE_DIR: cacheDir(env) } : { TESTBENCH_DATA_DIR: dir }
}

/** The process environment with `datasetEnv()`, for loading datasets in the test process itself. */
export function withDatasets(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...env, ...datasetEnv(env) }
}

/**
 * The PE-Bench problems as a data dir holds them (`<TESTBENCH_DATA_DIR>/euler`): a snapshot whose
 * solved_by counts, and so whose points, are fixed. Without one the suite scrapes projecteuler.net,
 * whose counts grow every day, so the tests of the snapshot's scores skip (EULER_SNAPSHOT_MISSING).
 */
export function eulerSnapshot(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dir = dataDir(env)
  return dir !== undefined && existsSync(join(dir, 'euler', 'solutions.json')) ? join(dir, 'euler') : undefined
}

export const EULER_SNAPSHOT_MISSING = 'needs a PE-Bench snapshot in TESTBENCH_DATA_DIR/euler (scores of scraped problems change as solved_by counts grow)'
