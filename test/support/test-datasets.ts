import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { DatasetUnavailableError } from '../../harness/datasets/dataset-file.ts'
import { cacheDir, dataDir } from '../../harness/knobs.ts'
import { skipForMissing, type SkippableContext } from './required-tool.ts'

export type { SkippableContext } from './required-tool.ts'

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

export const EULER_SNAPSHOT_MISSING =
  'needs a PE-Bench snapshot in TESTBENCH_DATA_DIR/euler (scores of scraped problems change as solved_by counts grow)'

/**
 * What a test loads of a public dataset (`load` gets `withDatasets(env)`), or, where the dataset cannot be had
 * (offline without TESTBENCH_DATA_DIR, or a TESTBENCH_DATA_DIR without the file), a skip naming the file and how
 * to get it; under TESTBENCH_REQUIRE_TOOLS=1 (CI) a failure instead. A file that is there but is not the pinned
 * one still fails the test. Call it before running a suite that reads the dataset, too.
 */
export async function datasetOrSkip<T>(
  context: SkippableContext,
  load: (env: NodeJS.ProcessEnv) => Promise<T>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<T> {
  try {
    return await load(withDatasets(env))
  } catch (error) {
    if (!(error instanceof DatasetUnavailableError)) throw error
    return skipForMissing(context, datasetMissingReason(error), 'a dataset that cannot be had', env)
  }
}

export function datasetMissingReason(error: DatasetUnavailableError): string {
  const name = `${error.spec.dataset}/${error.spec.file}`
  return `needs the dataset file ${name}, which cannot be had here (${error.why}): let it download from ${error.spec.url}, or set TESTBENCH_DATA_DIR to a directory that holds ${name}`
}
