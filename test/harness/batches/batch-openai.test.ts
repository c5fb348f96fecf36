import { readdirSync } from 'node:fs'
import { afterEach, expect, test } from 'vitest'
import { BatchEngine, startOpenAIBatchServer, sumAnswer, type BatchBehaviour } from '../../support/batch-loopback.ts'
import type { LoopbackServer } from '../../support/loopback-server.ts'
import { runSuiteForRecords, startVitestRun } from '../../support/run-vitest.ts'
import { demoRunKilledMidBatch } from '../../support/batch-providers.ts'

let server: LoopbackServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

async function openaiBatches(behaviour: Partial<BatchBehaviour>) {
  const engine = new BatchEngine({ batchMs: 1000, answer: sumAnswer, ...behaviour })
  server = await startOpenAIBatchServer(engine)
  const env = {
    MODEL: 'openai:fake',
    OPENAI_BASE_URL: `${server.url}/v1`,
    OPENAI_API_KEY: 'test',
    TESTBENCH_BATCH: 'on',
    TESTBENCH_BATCH_WAIT: '0.3',
    TESTBENCH_BATCH_POLL: '0.4',
    TESTBENCH_RETRY_DELAY: '0.01',
  }
  return { engine, env }
}

test('the demo suite through one OpenAI batch: polls that fail, a request answered with an error', async () => {
  const { engine, env } = await openaiBatches({ errorEvery: 5, failPollEvery: 2 })
  const run = await runSuiteForRecords('demo', env)
  expect(run.code, run.output).toBe(0)
  expect(run.records.map((record) => record.outcome)).toEqual(Array(5).fill('passed'))
  expect(engine.counts.creates).toBe(1)
  expect(engine.counts.uploads).toBe(1)
  // The one request the batch answered with an error is asked the ordinary way, as a failed request is retried.
  expect(engine.counts.ordinary).toBe(1)
  const batched = run.records.filter((record) => record.batch !== undefined)
  expect(batched).toHaveLength(4)
  expect(new Set(batched.map((record) => record.batch))).toEqual(new Set([[...engine.batches.keys()][0]]))
  expect(run.output).toMatch(/batch batch_\d+: 5\/5 completed/)
}, 60_000)

test('a codex model batches on /v1/responses (TESTBENCH_OPENAI_API unset): Response objects read as replies', async () => {
  const { engine, env } = await openaiBatches({ errorEvery: 5 })
  const run = await runSuiteForRecords('demo', { ...env, MODEL: 'openai:gpt-5.3-codex' })
  expect(run.code, run.output).toBe(0)
  expect(run.records.map((record) => record.outcome)).toEqual(Array(5).fill('passed'))
  const created = server?.seen.filter((seen) => seen.method === 'POST' && seen.path === '/v1/batches') ?? []
  expect(created.map((seen) => (JSON.parse(seen.body) as { endpoint: string }).endpoint)).toEqual(['/v1/responses'])
  // The request the batch answered with an error is asked the ordinary way, through the same API.
  expect(engine.counts.ordinary).toBe(1)
  expect(server?.seen.filter((seen) => seen.path === '/v1/chat/completions')).toEqual([])
  const batched = run.records.filter((record) => record.batch !== undefined)
  expect(batched).toHaveLength(4)
  for (const record of batched) {
    expect(record.tokens).toEqual({ prompt: 20, completion: 6, reasoning: 4, cacheRead: 0 })
    expect(record.finishReason).toBe('completed')
  }
  expect(run.records.every((record) => record.modelDetails?.api === 'responses')).toBe(true)
}, 60_000)

test('a batch that expires half done: its unanswered requests go into the next batch', async () => {
  const { engine, env } = await openaiBatches({ expireFirstHalfway: true })
  const run = await runSuiteForRecords('demo', env)
  expect(run.code, run.output).toBe(0)
  expect(run.records.map((record) => record.outcome)).toEqual(Array(5).fill('passed'))
  expect(engine.counts.creates).toBe(2)
  expect(engine.counts.ordinary).toBe(0)
  // Two answered before it expired; the other three were carried twice.
  expect([...engine.counts.carried.values()].sort()).toEqual([1, 1, 2, 2, 2])
  expect(run.output).toMatch(/ended expired: 3 unanswered/)
}, 60_000)

test('a refused batch is one clear error, and no item is asked one by one', async () => {
  const { engine, env } = await openaiBatches({ refuse: 'The model fake does not support batches.' })
  const run = await runSuiteForRecords('demo', env)
  expect(run.code).not.toBe(0)
  expect(run.output.match(/refused a batch of 5 requests/g)).toHaveLength(1)
  expect(run.output).toMatch(/does not support batches/)
  expect(run.records.map((record) => record.outcome)).toEqual(Array(5).fill('provider_error'))
  expect(engine.counts.ordinary).toBe(0)
}, 60_000)

test('a run killed while its batch runs, started again, collects the batch and pays for nothing twice', async () => {
  const { engine, env } = await openaiBatches({ batchMs: 4000 })
  const { runEnv, journal } = await demoRunKilledMidBatch(env)
  expect(engine.counts.creates).toBe(1)

  const second = await startVitestRun(['--project', 'suites', 'suites/demo'], runEnv).done
  expect(second.code, second.output).toBe(0)
  expect(second.output).toMatch(/5 passed/)
  expect(second.output).toMatch(/collecting it instead of asking again/)
  // Counted at the server: one upload, one batch, every request carried once, none asked one by one.
  expect(engine.counts.uploads).toBe(1)
  expect(engine.counts.creates).toBe(1)
  expect([...engine.counts.carried.values()]).toEqual([1, 1, 1, 1, 1])
  expect(engine.counts.ordinary).toBe(0)
  // The batch is collected: the journal is gone, the replies are in the cache.
  expect(readdirSync(journal)).toEqual([])

  const third = await startVitestRun(['--project', 'suites', 'suites/demo'], runEnv).done
  expect(third.code, third.output).toBe(0)
  expect(engine.counts.creates).toBe(1)
}, 90_000)

test("a run's progress line shows its open batch while the items wait on it", async () => {
  const { env } = await openaiBatches({ batchMs: 13_000 })
  const run = await runSuiteForRecords('demo', env)
  expect(run.code, run.output).toBe(0)
  // Printed by the reporter every 10 s, in the main process: the batch server's queues are on the process.
  expect(run.output).toMatch(
    /demo: 0\/5 items · 1\d s so far · The OpenAI-compatible server batch batch_\d+: \d\/5 in_progress, waited 1\d s/,
  )
}, 60_000)
