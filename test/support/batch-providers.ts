import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  BatchEngine,
  startAnthropicBatchServer,
  startGeminiBatchServer,
  startOpenAIBatchServer,
  type BatchBehaviour,
} from './batch-loopback.ts'
import type { LoopbackServer } from './loopback-server.ts'
import { batchWireFor } from '../../adapters/models/batch-wire-for.ts'
import type { BatchWire } from '../../adapters/models/batch-wire.ts'
import { killRun, startVitestRun } from './run-vitest.ts'
import { waitFor } from './wait-for.ts'

/** One provider's loopback batch server and the env that points a run at it. */
export interface BatchProvider {
  name: string
  start: (engine: BatchEngine) => Promise<LoopbackServer>
  env: (url: string) => Record<string, string>
}

export const BATCH_PROVIDERS: readonly BatchProvider[] = [
  {
    name: 'OpenAI',
    start: startOpenAIBatchServer,
    env: (url) => ({ MODEL: 'openai:fake', OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: 'test' }),
  },
  {
    name: 'Anthropic',
    start: startAnthropicBatchServer,
    env: (url) => ({ MODEL: 'anthropic:fake', ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: 'test' }),
  },
  {
    name: 'Gemini',
    start: startGeminiBatchServer,
    env: (url) => ({ MODEL: 'google:fake', GOOGLE_GEMINI_BASE_URL: url, GEMINI_API_KEY: 'test' }),
  },
]

/** A provider's batch server with `behaviour`, and the env of a batched run against it (quick waits and polls). */
export async function batchServer(provider: BatchProvider, behaviour: BatchBehaviour) {
  const engine = new BatchEngine(behaviour)
  const server = await provider.start(engine)
  const env: Record<string, string> = {
    ...provider.env(server.url),
    TESTBENCH_BATCH: 'on',
    TESTBENCH_BATCH_WAIT: '0.3',
    TESTBENCH_BATCH_POLL: '0.4',
    TESTBENCH_RETRY_DELAY: '0.01',
  }
  return { engine, server, env }
}

/** The batch wire a run of `openai:fake` uses against a loopback OpenAI batch server. */
export async function openaiBatchWire(server: LoopbackServer): Promise<BatchWire> {
  const wire = await batchWireFor(
    { provider: 'openai', model: 'fake', label: 'openai:fake' },
    { OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_API_KEY: 'test' },
  )
  if ('unsupported' in wire) throw new Error(wire.unsupported)
  return wire
}

/** Batches the journal holds with their id: created, and recorded. */
export function createdBatches(journal: string): number {
  if (!existsSync(journal)) return 0
  return readdirSync(journal)
    .filter((name) => name.endsWith('.json'))
    .filter((name) => {
      try {
        return 'id' in (JSON.parse(readFileSync(join(journal, name), 'utf8')) as object)
      } catch {
        return false // Being written.
      }
    }).length
}

/**
 * Starts `suites/demo` batched against `env`'s server and kills it once its batch is created and recorded: the
 * env to run it again with (the same cache and reports), and the journal the rerun must collect from.
 */
export async function demoRunKilledMidBatch(
  env: Record<string, string>,
): Promise<{ runEnv: Record<string, string>; journal: string }> {
  const cache = mkdtempSync(join(tmpdir(), 'batch-resume-cache-'))
  const runEnv = {
    ...env,
    TESTBENCH_CACHE_DIR: cache,
    TESTBENCH_REPORT_DIR: mkdtempSync(join(tmpdir(), 'batch-resume-reports-')),
  }
  const journal = join(cache, 'batches')
  const first = startVitestRun(['--project', 'suites', 'suites/demo'], runEnv)
  await waitFor(() => createdBatches(journal) > 0, 30_000)
  killRun(first)
  await first.done
  return { runEnv, journal }
}
