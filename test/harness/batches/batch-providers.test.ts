import { readdirSync } from 'node:fs'
import { afterEach, describe, expect, test } from 'vitest'
import { BatchEngine, sumAnswer, type BatchBehaviour } from '../../support/batch-loopback.ts'
import type { LoopbackServer } from '../../support/loopback-server.ts'
import { runSuiteForRecords, startVitestRun } from '../../support/run-vitest.ts'
import { BATCH_PROVIDERS, demoRunKilledMidBatch } from '../../support/batch-providers.ts'

let server: LoopbackServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const PROVIDERS = BATCH_PROVIDERS.filter((provider) => provider.name !== 'OpenAI') // OpenAI: batch-openai.test.ts

describe.each(PROVIDERS)('$name batches', (provider) => {
  async function batches(behaviour: Partial<BatchBehaviour>) {
    const engine = new BatchEngine({ batchMs: 1000, answer: sumAnswer, ...behaviour })
    server = await provider.start(engine)
    const env = {
      ...provider.env(server.url),
      TESTBENCH_BATCH: 'on',
      TESTBENCH_BATCH_WAIT: '0.3',
      TESTBENCH_BATCH_POLL: '0.4',
      TESTBENCH_RETRY_DELAY: '0.01',
    }
    return { engine, env }
  }

  test('the demo suite through batches: failed polls, an errored request, a batch expired half done', async () => {
    const { engine, env } = await batches({ errorEvery: 2, failPollEvery: 3, expireFirstHalfway: true })
    const run = await runSuiteForRecords('demo', env)
    expect(run.code, run.output).toBe(0)
    expect(run.records.map((record) => record.outcome)).toEqual(Array(5).fill('passed'))
    // The first batch answers two of five (one with an error, asked the ordinary way) and expires; the next carries three.
    expect(engine.counts.creates).toBe(2)
    expect([...engine.counts.carried.values()].sort()).toEqual([1, 1, 2, 2, 2])
    expect(engine.counts.ordinary).toBe(2)
    expect(run.records.filter((record) => record.batch !== undefined)).toHaveLength(3)
    expect(run.records.every((record) => record.tokens !== undefined)).toBe(true)
  }, 60_000)

  test('a run killed while its batch runs, started again, pays for nothing twice', async () => {
    const { engine, env } = await batches({ batchMs: 4000 })
    const { runEnv, journal } = await demoRunKilledMidBatch(env)
    const second = await startVitestRun(['--project', 'suites', 'suites/demo'], runEnv).done
    expect(second.code, second.output).toBe(0)
    expect(second.output).toMatch(/5 passed/)
    expect(engine.counts.creates).toBe(1)
    expect([...engine.counts.carried.values()]).toEqual([1, 1, 1, 1, 1])
    expect(engine.counts.ordinary).toBe(0)
    expect(readdirSync(journal)).toEqual([])
  }, 90_000)
})
