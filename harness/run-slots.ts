import { mkdtempSync, rmSync } from 'node:fs'
import { createConnection, createServer, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * Slots shared by every worker of a run: the part files of one suite run in several workers at
 * once, and `TESTBENCH_CONCURRENCY` must still bound the requests in flight to a provider across
 * all of them, not per worker. The run's main process keeps the count (a server on a local socket,
 * started by the global setup); a worker holds one connection per slot it waits for or uses, and a
 * slot is free again when that connection closes: when the task ends, is aborted, or its worker dies.
 */
export interface SlotServer {
  /** Where workers connect: a Unix socket path, or a named pipe on Windows. */
  address: string
  close(): Promise<void>
}

interface Pool {
  active: number
  waiting: Array<{ socket: Socket; limit: number }>
}

export async function startSlotServer(): Promise<SlotServer> {
  const pools = new Map<string, Pool>()
  // A Unix socket path must stay under about 100 bytes.
  const base = tmpdir().length <= 60 ? tmpdir() : '/tmp'
  const dir = process.platform === 'win32' ? undefined : mkdtempSync(join(base, 'testbench-slots-'))
  const address =
    dir === undefined ? `\\\\.\\pipe\\testbench-slots-${process.pid}-${Date.now()}` : join(dir, 'slots.sock')

  const grant = (pool: Pool) => {
    for (let next = pool.waiting[0]; next !== undefined && pool.active < next.limit; next = pool.waiting[0]) {
      pool.waiting.shift()
      pool.active++
      granted.add(next.socket)
      next.socket.write('go\n')
    }
  }
  const granted = new WeakSet<Socket>()
  const server = createServer((socket) => {
    let request = ''
    let pool: Pool | undefined
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      if (pool !== undefined) return
      request += chunk
      const line = request.indexOf('\n')
      if (line < 0) return
      const { key, limit } = JSON.parse(request.slice(0, line)) as { key: string; limit: number }
      pool = pools.get(key) ?? { active: 0, waiting: [] }
      pools.set(key, pool)
      pool.waiting.push({ socket, limit })
      grant(pool)
    })
    socket.on('error', () => socket.destroy())
    socket.on('close', () => {
      if (pool === undefined) return
      if (granted.has(socket)) pool.active--
      else pool.waiting = pool.waiting.filter((waiting) => waiting.socket !== socket)
      grant(pool)
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(address, resolve)
  })
  return {
    address,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
          resolve()
        })
      }),
  }
}

/**
 * At most `limit` tasks under `key` run at once across every process that uses the server at `address`.
 * This process asks the server for no more slots than it has tasks waiting (and never more than
 * `limit`, so a part file of 10,000 items opens at most `limit` connections); a slot it holds passes
 * straight to its next waiting task without a round trip to the server, whose process is also busy
 * with the reporters, and goes back when no task here waits.
 */
export function runWideLimiter(
  address: string,
  key: string,
  limit: number,
): <T>(task: () => Promise<T>, signal?: AbortSignal) => Promise<T> {
  const slots = new ProcessSlots(address, key, limit)
  return async (task, signal) => {
    const slot = await slots.take(signal)
    try {
      return await task()
    } finally {
      slots.give(slot)
    }
  }
}

interface Waiter {
  resolve: (slot: Socket) => void
  reject: (error: Error) => void
}

class ProcessSlots {
  readonly #address: string
  readonly #key: string
  readonly #limit: number
  readonly #waiting: Waiter[] = []
  #inUse = 0
  #asked = 0

  constructor(address: string, key: string, limit: number) {
    this.#address = address
    this.#key = key
    this.#limit = limit
  }

  take(signal: AbortSignal | undefined): Promise<Socket> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(abortReason(signal))
      const waiter: Waiter = {
        resolve: (slot) => {
          signal?.removeEventListener('abort', onAbort)
          resolve(slot)
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort)
          reject(error)
        },
      }
      const onAbort = () => {
        const index = this.#waiting.indexOf(waiter)
        if (index >= 0) this.#waiting.splice(index, 1)
        reject(abortReason(signal))
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      this.#waiting.push(waiter)
      this.#ask()
    })
  }

  give(slot: Socket): void {
    const next = this.#waiting.shift()
    if (next !== undefined) return next.resolve(slot)
    this.#inUse--
    slot.destroy()
  }

  /** Asks the server for a slot per waiting task not yet asked for, within the limit. */
  #ask(): void {
    while (this.#asked < this.#waiting.length && this.#inUse + this.#asked < this.#limit) {
      this.#asked++
      let answered = false
      const connection = createConnection(this.#address)
      connection.setEncoding('utf8')
      connection.once('connect', () => connection.write(`${JSON.stringify({ key: this.#key, limit: this.#limit })}\n`))
      connection.once('data', () => {
        answered = true
        this.#asked--
        const next = this.#waiting.shift()
        if (next === undefined) return connection.destroy()
        this.#inUse++
        next.resolve(connection)
      })
      const fail = (reason: string) => {
        if (answered) return
        answered = true
        this.#asked--
        connection.destroy()
        this.#waiting
          .shift()
          ?.reject(
            new Error(
              `The run's slot server at ${this.#address} (harness/global-setup.ts) ${reason} while ${this.#key} waited for a slot. Run the suites through Vitest's "suites" project.`,
            ),
          )
        this.#ask()
      }
      connection.on('error', (error) => fail(`is not reachable (${error.message})`))
      connection.once('close', () => fail('closed'))
    }
  }
}

function abortReason(signal: AbortSignal | undefined): Error {
  return signal?.reason instanceof Error ? signal.reason : new Error('Aborted while waiting for a slot.')
}
