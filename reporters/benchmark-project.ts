import { availableParallelism } from 'node:os'
import { extname } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ViteUserConfig } from 'vitest/config'
import { CONCURRENCY, providerConcurrency } from '../adapters/models/knobs.ts'
import { SANDBOX_CONCURRENCY } from '../adapters/sandbox/knobs.ts'
import { sandboxConcurrency } from '../adapters/sandbox/concurrency.ts'
import { BATCH } from '../harness/batches/batch-knobs.ts'

export type BenchmarkTestOptions = NonNullable<ViteUserConfig['test']>

/**
 * How Vitest runs a project of benchmark suites, this repository's `suites` project and a project that installs
 * the package alike: `include` is the suites' test files.
 */
export function benchmarkTestOptions(include: string[], env: NodeJS.ProcessEnv = process.env): BenchmarkTestOptions {
  return {
    include,
    // The run's slot server, the models and the sandbox's warm servers, started once per run.
    globalSetup: [siblingModule('../harness/run-wide/global-setup')],
    // Items wait on models and sandboxes, which bound themselves; a test's own limit is the request timeout.
    testTimeout: 0,
    maxConcurrency: itemsAtOnce(env),
    // Parts of one suite run at once, so that one part's last requests overlap the next part's first ones.
    maxWorkers: workers(env),
    // Part files of a suite share one worker's modules: datasets, the warm Python fork server, connections.
    isolate: false,
  }
}

const ITEMS_IN_A_BATCH_AT_ONCE = 50_000

/** More than every part file of the suites together (Vitest starts no more workers than files). */
const PART_FILES_IN_A_BATCH_AT_ONCE = 256

/**
 * A worker runs its part files one after another, and a part waiting on a batch holds its worker until the batch
 * ends: with TESTBENCH_BATCH every part file gets a worker, so that the whole run's requests go into the first batch
 * instead of one batch per round of parts (each waiting up to 24 h).
 */
function workers(env: NodeJS.ProcessEnv): number {
  if (BATCH.raw(env)?.toLowerCase() === 'on') return PART_FILES_IN_A_BATCH_AT_ONCE
  return Math.max(2, availableParallelism() - 1)
}

/**
 * Items of one part file started at once. TESTBENCH_CONCURRENCY bounds the model requests in flight across
 * workers (harness/run-wide/run-slots.ts) and the sandbox bounds its programs; this only keeps 10,000 items from all
 * waiting in memory at once, and is 4 times what either may run, so that it never caps them.
 */
function itemsAtOnce(env: NodeJS.ProcessEnv): number {
  // Items waiting on a batch hold no slot: all of a file's items go into the batch at once.
  if (BATCH.raw(env)?.toLowerCase() === 'on') return ITEMS_IN_A_BATCH_AT_ONCE
  // A bad value is reported by the plugin before any item; here it counts as unset.
  const requests = Number(CONCURRENCY.raw(env)) || providerConcurrency('any', {})
  const programs = Number(SANDBOX_CONCURRENCY.raw(env)) || sandboxConcurrency({})
  return 4 * Math.max(requests, programs, 8)
}

/** A module of this package by its path from here, with this module's own extension (`.ts` here, `.js` installed). */
function siblingModule(pathWithoutExtension: string): string {
  const here = fileURLToPath(import.meta.url)
  return fileURLToPath(new URL(`${pathWithoutExtension}${extname(here)}`, import.meta.url))
}
