import { createServer, type Socket } from 'node:net'
import { batchWireFor } from '../../adapters/models/batch-wire-for.ts'
import type { ChatRequest } from '../../adapters/models/model-adapter.ts'
import type { ModelSpec } from '../../adapters/models/model-spec.ts'
import { BATCH_POLL, BATCH_WAIT } from './batch-knobs.ts'
import { BatchJournal } from './batch-journal.ts'
import { BatchQueue, progressLine, type BatchAnswer } from './batch-queue.ts'
import { cacheDir, cacheMode } from '../knobs.ts'
import { processWide } from '../run-wide/process-wide.ts'
import { runFiles } from '../run-wide/run-files.ts'
import { runSocket } from '../run-wide/run-socket.ts'

/**
 * What a worker sends for one request: its id on the connection, the test file asking, the model, the cache key
 * and file, the request.
 */
export interface BatchAsk {
  id: number
  testFile: string
  label: string
  key: string
  file: string
  request: Omit<ChatRequest, 'signal'>
}

/** What a worker sends for a request no batch can carry: the server says why once per run, then answers `ordinary`. */
export interface OneByOne {
  id: number
  testFile: string
  label: string
  suite: string
  why: string
}

export type BatchReplyLine = { id: number } & BatchAnswer

export interface BatchServer {
  /** Where workers connect: a Unix socket path, or a named pipe on Windows. */
  address: string
  /** Each model's queue, for the progress line and the figures of bench:batch. */
  queues: ReadonlyMap<string, BatchQueue>
  close(): Promise<void>
}

/** The queues of the run's batch server, for the progress line (reporters/progress-reporter.ts) in the same process. */
const runQueues = processWide('run-batch-queues', () => new Set<BatchQueue>())

/** `OpenAI batch batch_abc: 12/64 in_progress, waited 1 min 20 s` for each open batch of the run. */
export function runWideBatches(now = Date.now()): string[] {
  return [...runQueues].flatMap((queue) =>
    [...queue.open.values()].map((batch) => progressLine(queue.wire.name, batch, now)),
  )
}

/**
 * The run's batches (TESTBENCH_BATCH=on), in the global setup's process: every worker sends its one-shot requests
 * here over a local socket, one connection per worker, a JSON line per request and per answer; each model whose
 * provider has a batch API gets a queue (harness/batches/batch-queue.ts). The models without one are named here, once,
 * before any item; their items are asked one by one.
 */
export async function startBatchServer(
  models: readonly (ModelSpec & { label: string })[],
  env: NodeJS.ProcessEnv = process.env,
  say: (line: string) => void = (line) => process.stderr.write(`testbench: ${line}\n`),
): Promise<BatchServer> {
  const journal = cacheMode(env) === 'off' ? undefined : new BatchJournal(cacheDir(env))
  const queues = new Map<string, BatchQueue>()
  for (const model of models) {
    const wire = await batchWireFor(model, env)
    if ('unsupported' in wire) {
      say(`TESTBENCH_BATCH=on: ${model.label}'s items are asked one by one: ${wire.unsupported}.`)
      continue
    }
    const queue = new BatchQueue(model.label, wire, {
      waitMs: BATCH_WAIT.read(env) * 1000,
      files: runFiles(),
      pollMs: BATCH_POLL.read(env) * 1000,
      journal,
      say,
    })
    await queue.resume()
    queues.set(model.label, queue)
  }
  if (journal === undefined && queues.size > 0)
    say('TESTBENCH_BATCH=on with TESTBENCH_CACHE=off: a stopped run cannot collect its batches, and asks again')
  for (const queue of queues.values()) runQueues.add(queue)

  const { address, remove } = runSocket('batches')
  const said = new Set<string>()
  const oneByOne = (ask: OneByOne): void => {
    const note = `${ask.label} ${ask.suite}`
    if (said.has(note)) return
    said.add(note)
    say(`TESTBENCH_BATCH=on: ${note}'s items are asked one by one: ${ask.why}.`)
  }
  const server = createServer((socket) => serve(socket, queues, oneByOne))
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(address, resolve)
  })
  return {
    address,
    queues,
    close: () =>
      new Promise<void>((resolve) => {
        for (const queue of queues.values()) {
          queue.close()
          runQueues.delete(queue)
        }
        server.close(() => {
          remove()
          resolve()
        })
      }),
  }
}

function serve(socket: Socket, queues: ReadonlyMap<string, BatchQueue>, oneByOne: (ask: OneByOne) => void): void {
  let buffered = ''
  socket.setEncoding('utf8')
  socket.on('error', () => socket.destroy())
  socket.on('data', (chunk: string) => {
    buffered += chunk
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      const ask = JSON.parse(buffered.slice(0, end)) as BatchAsk | OneByOne
      buffered = buffered.slice(end + 1)
      runFiles().asked(ask.testFile)
      if ('why' in ask) {
        oneByOne(ask)
        socket.write(`${JSON.stringify({ id: ask.id, ordinary: ask.why })}\n`)
        continue
      }
      const queue = queues.get(ask.label)
      const answer: Promise<BatchAnswer> =
        queue === undefined
          ? Promise.resolve({ ordinary: 'its provider has no batch API' })
          : queue.ask(ask.key, ask.file, ask.request)
      void answer.then((settled) => {
        if (!socket.destroyed) socket.write(`${JSON.stringify({ id: ask.id, ...settled })}\n`)
      })
    }
  })
}
