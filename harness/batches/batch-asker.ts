import { createConnection, type Socket } from 'node:net'
import { basename } from 'node:path'
import { expect } from 'vitest'
import { batchable } from '../../adapters/models/batch-wire.ts'
import type { ChatRequest } from '../../adapters/models/model-adapter.ts'
import { ProviderError } from '../../adapters/models/model-adapter.ts'
import type { BatchAsk, BatchReplyLine, OneByOne } from './batch-server.ts'
import type { Asker, ResolvedModel } from '../resolved-model.ts'

interface Waiter {
  resolve: (line: BatchReplyLine) => void
  reject: (error: Error) => void
}

/** This worker's one connection to the run's batch server (harness/batches/batch-server.ts), shared by every model. */
class BatchConnection {
  private readonly address: string
  private socket: Socket | undefined
  private readonly waiting = new Map<number, Waiter>()
  private nextId = 0

  constructor(address: string) {
    this.address = address
  }

  send(ask: Omit<BatchAsk, 'id'> | Omit<OneByOne, 'id'>, signal: AbortSignal | undefined): Promise<BatchReplyLine> {
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason)
      const onAbort = () => {
        this.waiting.delete(id)
        reject(signal?.reason)
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      this.waiting.set(id, {
        resolve: (line) => {
          signal?.removeEventListener('abort', onAbort)
          resolve(line)
        },
        reject,
      })
      this.connected().write(`${JSON.stringify({ id, ...ask })}\n`)
    })
  }

  private connected(): Socket {
    if (this.socket !== undefined) return this.socket
    const socket = createConnection(this.address)
    this.socket = socket
    let buffered = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      buffered += chunk
      for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
        const line = JSON.parse(buffered.slice(0, end)) as BatchReplyLine
        buffered = buffered.slice(end + 1)
        const waiter = this.waiting.get(line.id)
        this.waiting.delete(line.id)
        waiter?.resolve(line)
      }
    })
    const fail = (reason: string) => {
      this.socket = undefined
      const error = new Error(
        `The run's batch server at ${this.address} (harness/batches/batch-server.ts) ${reason}. Run the suites through Vitest's "suites" project.`,
      )
      for (const waiter of this.waiting.values()) waiter.reject(error)
      this.waiting.clear()
    }
    socket.on('error', (error) => fail(`is not reachable (${error.message})`))
    socket.on('close', () => fail('closed'))
    return socket
  }
}

const connections = new Map<string, BatchConnection>()
/** Notes this worker sent: the server says each once per run, before the first item it concerns is asked. */
const sent = new Set<string>()

/**
 * Asks through the run's batches: a one-shot request goes to the batch server and waits for its reply there; a
 * request a batch cannot carry (tools, raw completions) or one the batch answered with an error goes to `ordinary`,
 * and the run says once per suite why (the server, so once for all workers). `fileFor` is the reply cache's file of a request, whose name is its key.
 */
export function batchingAsker(
  address: string,
  model: ResolvedModel,
  fileFor: (request: ChatRequest) => string,
  ordinary: Asker,
): Asker {
  let connection = connections.get(address)
  if (connection === undefined) {
    connection = new BatchConnection(address)
    connections.set(address, connection)
  }
  const server = connection
  return async (request) => {
    const why = batchable(request)
    if (why !== undefined) {
      // Once per file: the note also tells the batch server that the file has begun to ask.
      const note = `${model.label} ${request.item.suite} ${testFile()}`
      if (!sent.has(note)) {
        sent.add(note)
        await server.send({ testFile: testFile(), label: model.label, suite: request.item.suite, why }, request.signal)
      }
      return ordinary(request)
    }
    const file = fileFor(request)
    const { signal, ...carried } = request
    const started = performance.now()
    const answer = await server.send(
      { testFile: testFile(), label: model.label, key: basename(file, '.json'), file, request: carried },
      signal,
    )
    if ('reply' in answer) return { ...answer.reply, latencyMs: performance.now() - started }
    if ('error' in answer) throw new ProviderError(answer.error)
    return ordinary(request)
  }
}

/** The test file this worker runs: the batch server waits for every file of the run to ask (harness/run-wide/run-files.ts). */
function testFile(): string {
  return expect.getState().testPath ?? ''
}
