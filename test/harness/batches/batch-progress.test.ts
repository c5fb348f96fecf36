import { afterEach, expect, test } from 'vitest'
import { runWideBatches, startBatchServer, type BatchServer } from '../../../harness/batches/batch-server.ts'
import { BatchEngine, startOpenAIBatchServer, sumAnswer } from '../../support/batch-loopback.ts'
import { chatRequest } from '../../support/chat-request.ts'
import type { LoopbackServer } from '../../support/loopback-server.ts'
import { waitFor } from '../../support/wait-for.ts'

let server: LoopbackServer | undefined
let batches: BatchServer | undefined
afterEach(async () => {
  await batches?.close()
  await server?.close()
})

test("the run's open batches, for the progress line: provider, id, done/total, status, time waited; gone once closed", async () => {
  const engine = new BatchEngine({ batchMs: 60_000, answer: sumAnswer })
  server = await startOpenAIBatchServer(engine)
  const env = {
    OPENAI_BASE_URL: `${server.url}/v1`,
    OPENAI_API_KEY: 'test',
    TESTBENCH_CACHE: 'off',
    TESTBENCH_BATCH_WAIT: '0',
    TESTBENCH_BATCH_POLL: '0.4',
  }
  const said: string[] = []
  batches = await startBatchServer([{ provider: 'openai', model: 'fake', label: 'openai:fake' }], env, (line) =>
    said.push(line),
  )
  const answer = batches.queues.get('openai:fake')?.ask('a'.repeat(64), '', chatRequest('What is 1 + 2?'))
  await waitFor(() => runWideBatches().some((line) => line.includes('in_progress')), 10_000)
  expect(runWideBatches()).toEqual([
    expect.stringMatching(/^The OpenAI-compatible server batch batch_\d+: 0\/1 in_progress, waited \d+ s$/),
  ])
  // Polls say nothing while the batch runs: the progress line shows it.
  expect(said.filter((line) => line.includes('batch_'))).toEqual([
    expect.stringMatching(/^The OpenAI-compatible server batch batch_\d+ submitted: 1 requests for openai:fake$/),
  ])
  await batches.close()
  expect(await answer).toEqual({ ordinary: 'the run ended before its batch did' })
  expect(runWideBatches()).toEqual([])
})
