import { afterEach, expect, test } from 'vitest'
import { BatchQueue } from '../../../harness/batches/batch-queue.ts'
import { RunFiles } from '../../../harness/run-wide/run-files.ts'
import { BatchEngine, startOpenAIBatchServer, sumAnswer } from '../../support/batch-loopback.ts'
import { chatRequest } from '../../support/chat-request.ts'
import type { LoopbackServer } from '../../support/loopback-server.ts'
import { openaiBatchWire } from '../../support/batch-providers.ts'
import { waitFor } from '../../support/wait-for.ts'

let server: LoopbackServer | undefined
let queue: BatchQueue | undefined
afterEach(async () => {
  queue?.close()
  await server?.close()
})

/** A queue with a 200 ms gather against the loopback OpenAI batch server, and the run files it waits for. */
async function gatherWithFiles() {
  const engine = new BatchEngine({ batchMs: 200, answer: sumAnswer })
  server = await startOpenAIBatchServer(engine)
  const wire = await openaiBatchWire(server)
  const files = new RunFiles()
  const started = () =>
    new BatchQueue('openai:fake', wire, { waitMs: 200, files, pollMs: 400, journal: undefined, say: () => {} })
  return { engine, files, started }
}

test("a batch waits for the run's files that have not asked yet, then takes their requests too", async () => {
  const { engine, files, started } = await gatherWithFiles()
  files.expect(['first.test.ts', 'late.test.ts'], 8)
  queue = started()

  files.started('first.test.ts')
  files.asked('first.test.ts')
  const first = queue.ask('a'.repeat(64), '', chatRequest('What is 1 + 2?'))
  // Five gathers' time twice: the late file's worker is still starting, then loading its provider's SDK.
  await new Promise((resolve) => setTimeout(resolve, 1000))
  files.started('late.test.ts')
  await new Promise((resolve) => setTimeout(resolve, 1000))
  expect(engine.counts.creates).toBe(0)

  files.asked('late.test.ts')
  const late = queue.ask('b'.repeat(64), '', chatRequest('What is 2 + 3?'))
  await waitFor(() => engine.counts.creates > 0, 10_000)
  expect(await Promise.all([first, late])).toEqual([
    { reply: expect.objectContaining({ text: expect.stringContaining('3') }) },
    { reply: expect.objectContaining({ text: expect.stringContaining('5') }) },
  ])
  expect(engine.counts.creates).toBe(1)
  expect([...engine.batches.values()].map((batch) => batch.keys.length)).toEqual([2])
})

test('once every file of the run has asked or ended, a batch is submitted after the gather', async () => {
  const { engine, files, started } = await gatherWithFiles()
  files.expect(['only.test.ts'], 8)
  files.ended('only.test.ts')
  queue = started()
  const answer = queue.ask('a'.repeat(64), '', chatRequest('What is 1 + 2?'))
  expect(await answer).toEqual({ reply: expect.objectContaining({ text: expect.stringContaining('3') }) })
  expect(engine.counts.creates).toBe(1)
})
