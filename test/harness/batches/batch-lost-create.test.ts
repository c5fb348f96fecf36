import { mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { sumAnswer } from '../../support/batch-loopback.ts'
import { BATCH_PROVIDERS, batchServer } from '../../support/batch-providers.ts'
import type { LoopbackServer } from '../../support/loopback-server.ts'
import { killRun, startVitestRun } from '../../support/run-vitest.ts'
import { waitFor } from '../../support/wait-for.ts'

let server: LoopbackServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

describe.each(BATCH_PROVIDERS)('$name: a run killed while the provider creates its batch', (provider) => {
  test('the rerun finds the batch in the provider list and pays for nothing twice', async () => {
    // The batch exists at once, but its id comes 8 s later: the run is killed before it can record it.
    const started = await batchServer(provider, { batchMs: 1500, answer: sumAnswer, holdCreateMs: 8000 })
    server = started.server
    const { engine } = started
    const cache = mkdtempSync(join(tmpdir(), 'batch-lost-cache-'))
    const env = {
      ...started.env,
      TESTBENCH_CACHE_DIR: cache,
      TESTBENCH_REPORT_DIR: mkdtempSync(join(tmpdir(), 'batch-lost-reports-')),
    }
    const journal = join(cache, 'batches')
    const first = startVitestRun(['--project', 'suites', 'suites/demo'], env)
    await waitFor(() => engine.counts.creates === 1, 30_000)
    killRun(first)
    await first.done
    const [pending] = readdirSync(journal)
    expect(JSON.parse(readFileSync(join(journal, pending ?? ''), 'utf8'))).not.toHaveProperty('id')
    engine.behaviour.holdCreateMs = undefined

    const second = await startVitestRun(['--project', 'suites', 'suites/demo'], env).done
    expect(second.code, second.output).toBe(0)
    expect(second.output).toMatch(/5 passed/)
    expect(second.output).toMatch(/collecting it instead of asking again/)
    // Counted at the server: one batch, every request carried once, none asked one by one.
    expect(engine.counts.creates).toBe(1)
    expect([...engine.counts.carried.values()]).toEqual([1, 1, 1, 1, 1])
    expect(engine.counts.ordinary).toBe(0)
    expect(readdirSync(journal)).toEqual([])
  }, 90_000)
})
