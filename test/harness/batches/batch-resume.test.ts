import { existsSync, mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { BatchJournal } from '../../../harness/batches/batch-journal.ts'
import { BatchQueue, type BatchAnswer } from '../../../harness/batches/batch-queue.ts'
import type { BatchWire } from '../../../adapters/models/batch-wire.ts'
import { BatchEngine, startOpenAIBatchServer, sumAnswer } from '../../support/batch-loopback.ts'
import { chatRequest } from '../../support/chat-request.ts'
import type { LoopbackServer } from '../../support/loopback-server.ts'
import { openaiBatchWire } from '../../support/batch-providers.ts'
import { waitFor } from '../../support/wait-for.ts'

let server: LoopbackServer | undefined
const queues: BatchQueue[] = []
afterEach(async () => {
  for (const queue of queues.splice(0)) queue.close()
  await server?.close()
})

/** Queues of one model on one cache dir against the loopback OpenAI batch server, as a run and its rerun have. */
async function resumable(wrap: (wire: BatchWire) => BatchWire = (wire) => wire) {
  const engine = new BatchEngine({ batchMs: 300, answer: sumAnswer })
  server = await startOpenAIBatchServer(engine)
  const wire = wrap(await openaiBatchWire(server))
  const cache = mkdtempSync(join(tmpdir(), 'batch-resume-'))
  const journal = new BatchJournal(cache)
  const said: string[] = []
  const queue = (): BatchQueue => {
    const made = new BatchQueue('openai:fake', wire, {
      waitMs: 0,
      pollMs: 400,
      journal,
      say: (line) => said.push(line),
    })
    queues.push(made)
    return made
  }
  const recorded = () => (existsSync(journal.directory) ? readdirSync(journal.directory).length : 0)
  const key = 'a'.repeat(64)
  return { engine, journal, said, queue, recorded, key, file: join(cache, `${key}.json`) }
}

test('a resumed batch that ends before its item asks answers the item when it does, and nothing is asked again', async () => {
  const { engine, queue, recorded, key, file } = await resumable()

  // A run submits the batch and stops before it ends.
  const stopped = queue()
  void stopped.ask(key, file, chatRequest('What is 1 + 2?'))
  await waitFor(() => recorded() > 0 && engine.counts.creates === 1, 10_000)
  stopped.close()

  // The rerun collects it before its item asks: the item looked in the reply cache a moment too early.
  const rerun = queue()
  await rerun.resume()
  await waitFor(() => recorded() === 0, 10_000)
  const answer = await rerun.ask(key, file, chatRequest('What is 1 + 2?'))
  expect(answer).toEqual({ reply: expect.objectContaining({ text: expect.stringContaining('3'), batch: 'batch_2' }) })
  expect(engine.counts.creates).toBe(1)
  expect(engine.counts.ordinary).toBe(0)
})

test('an item that asks while its resumed batch is being collected gets that answer, and nothing is asked again', async () => {
  let onResults = (): void => {}
  // The provider's results, then the item's ask in the next turn of the event loop: while the replies are stored.
  const racing = (wire: BatchWire): BatchWire =>
    new Proxy(wire, {
      get(target, property) {
        if (property === 'results')
          return async (id: string) => {
            const results = await target.results(id)
            setImmediate(() => onResults())
            return results
          }
        const value: unknown = Reflect.get(target, property)
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value
      },
    })
  const { engine, queue, recorded, key, file } = await resumable(racing)

  const stopped = queue()
  void stopped.ask(key, file, chatRequest('What is 1 + 2?'))
  await waitFor(() => recorded() > 0 && engine.counts.creates === 1, 10_000)
  stopped.close()

  const rerun = queue()
  const asked = new Promise<BatchAnswer>((resolve) => {
    onResults = () => resolve(rerun.ask(key, file, chatRequest('What is 1 + 2?')))
  })
  await rerun.resume()
  expect(await asked).toEqual({
    reply: expect.objectContaining({ text: expect.stringContaining('3'), batch: 'batch_2' }),
  })
  // The gather submits at once (waitMs 0): a request enqueued again would have made a second batch by now.
  await new Promise((resolve) => setTimeout(resolve, 500))
  expect(engine.counts.creates).toBe(1)
})

test('a batch whose create never reached the provider: the rerun asks its requests again, in a batch of its own', async () => {
  const { engine, journal, said, queue, recorded, key, file } = await resumable()
  // Recorded just before the create, which the stopped run never sent.
  await journal.write({
    label: 'openai:fake',
    tag: 'tb-never-made',
    createdAt: new Date().toISOString(),
    requests: [{ key, file }],
  })
  const rerun = queue()
  await rerun.resume()
  expect(said).toEqual([
    expect.stringMatching(
      /the batch a stopped run was creating at .* \(tb-never-made\) was not made: its 1 requests are asked again/,
    ),
  ])
  expect(recorded()).toBe(0)
  const answer = await rerun.ask(key, file, chatRequest('What is 1 + 2?'))
  expect(answer).toEqual({ reply: expect.objectContaining({ text: expect.stringContaining('3') }) })
  expect(engine.counts.creates).toBe(1)
})
