import { createConnection, createServer, type Socket } from 'node:net'
import { EndpointPace, type PaceReport, type PaceSignal } from '../adapters/models/endpoint-pace.ts'
import { abortReason } from '../adapters/models/paced-slots.ts'
import type { RunWideSlots } from '../adapters/models/endpoint-slots.ts'
import { serveBudget, type BudgetMessage } from './run-budget.ts'
import { processWide } from './process-wide.ts'
import { runSocket } from './run-socket.ts'

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
  waiting: Socket[]
  granted: Set<Socket>
  /** The pace's count of starts when each granted slot's current task started. */
  startNumbers: Map<Socket, number>
  pace: EndpointPace
  wake?: NodeJS.Timeout
  /** What the workers were last told: the pace's concurrency and hold. */
  told: string
}

const paces = processWide('run-paces', () => new Map<string, EndpointPace>())

/** The paces the run's slot server keeps, by key (`endpoint:<url>`…): for the progress line and the end of the run. */
export function runWidePaces(): ReadonlyMap<string, EndpointPace> {
  return paces
}

export async function startSlotServer(): Promise<SlotServer> {
  const pools = new Map<string, Pool>()
  const { address, remove } = runSocket('slots')

  const grant = (pool: Pool): void => {
    for (let next = pool.waiting[0]; next !== undefined && pool.pace.mayStart(pool.active); next = pool.waiting[0]) {
      pool.waiting.shift()
      pool.active++
      pool.granted.add(next)
      pool.pace.started()
      pool.startNumbers.set(next, pool.pace.starts)
      next.write(`go\n`)
    }
    const held = pool.pace.heldForMs()
    if (pool.waiting.length > 0 && held > 0 && pool.wake === undefined)
      pool.wake = setTimeout(() => {
        pool.wake = undefined
        grant(pool)
      }, held)
  }
  /** Every worker holding a slot hears the pace's concurrency and hold, so that none starts a request while it holds. */
  const tell = (pool: Pool): void => {
    const state = `${JSON.stringify({ current: pool.pace.current, holdUntil: pool.pace.holdUntil })}\n`
    if (state === pool.told) return
    pool.told = state
    for (const socket of pool.granted) socket.write(state)
  }
  const server = createServer((socket) => {
    let request = ''
    let pool: Pool | undefined
    let budget: ((message: BudgetMessage) => void) | undefined
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      request += chunk
      for (let line = request.indexOf('\n'); line >= 0; line = request.indexOf('\n')) {
        const message = JSON.parse(request.slice(0, line)) as SlotMessage | BudgetMessage
        request = request.slice(line + 1)
        if ('reserve' in message) budget = serveBudget(socket, message)
        else if ('cost' in message) budget?.(message)
        else if (pool === undefined && 'key' in message) {
          const { key, limit } = message
          pool = pools.get(key)
          if (pool === undefined) {
            const pace = new EndpointPace(limit)
            pool = { active: 0, waiting: [], granted: new Set(), startNumbers: new Map(), pace, told: '' }
            pools.set(key, pool)
            paces.set(key, pace)
          }
          pool.waiting.push(socket)
          grant(pool)
        } else if (pool !== undefined && 'started' in message) {
          // The worker passed its slot to its next task without asking: a start all the same.
          pool.pace.started()
          pool.startNumbers.set(socket, pool.pace.starts)
          tell(pool)
        } else if (pool !== undefined && 'report' in message) {
          const startNumber = pool.startNumbers.get(socket) ?? pool.pace.starts
          pool.pace.report(message.report, pool.pace.starts - startNumber, message.startedAt)
          tell(pool)
          grant(pool)
        }
      }
    })
    socket.on('error', () => socket.destroy())
    socket.on('close', () => {
      if (pool === undefined) return
      pool.startNumbers.delete(socket)
      if (pool.granted.delete(socket)) pool.active--
      else pool.waiting = pool.waiting.filter((waiting) => waiting !== socket)
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
        for (const pool of pools.values()) clearTimeout(pool.wake)
        server.close(() => {
          remove()
          resolve()
        })
      }),
  }
}

/** A worker asks for a slot under a key, then tells the pace what each of its attempts met. */
type SlotMessage = { key: string; limit: number } | { started: true } | { report: PaceSignal; startedAt: number }

/**
 * At most `limit` tasks under `key` run at once across every process that uses the server at `address`,
 * fewer while the key's pace says so (an endpoint the provider throttles). This process asks the server for
 * no more slots than it has tasks waiting (and never more than `limit`, so a part file of 10,000 items opens
 * at most `limit` connections); a slot it holds passes straight to its next waiting task without a round
 * trip to the server, whose process is also busy with the reporters, unless the pace holds every request
 * or is below the slots held, and goes back when no task here waits.
 */
export function runWideLimiter(
  address: string,
  key: string,
  limit: number,
): <T>(task: (report: PaceReport) => Promise<T>, signal?: AbortSignal) => Promise<T> {
  const slots = new ProcessSlots(address, key, limit)
  return async (task, signal) => {
    const slot = await slots.take(signal)
    const startedAt = Date.now()
    try {
      return await task((report) => slots.report(slot, report, startedAt))
    } finally {
      slots.give(slot)
    }
  }
}

/** The run-wide slots of each endpoint (`endpoint:<url>`), for the model adapters of a worker. */
export function runWideEndpointSlots(address: string): RunWideSlots {
  return (endpoint, ceiling) => {
    const limited = runWideLimiter(address, `endpoint:${endpoint}`, ceiling)
    return (task, signal) => limited(task, signal)
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
  /** Slots this process holds, and those of them no task uses. */
  readonly #held = new Set<Socket>()
  readonly #idle: Socket[] = []
  /** Slots the server granted that no task has used yet: the server counted their first start. */
  readonly #fresh = new Set<Socket>()
  #asked = 0
  /** The pace as the server last told it. */
  #current: number
  #holdUntil = 0
  #wake: NodeJS.Timeout | undefined

  constructor(address: string, key: string, limit: number) {
    this.#address = address
    this.#key = key
    this.#limit = limit
    this.#current = limit
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
        this.#pump()
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      this.#waiting.push(waiter)
      this.#pump()
    })
  }

  give(slot: Socket): void {
    if (!this.#held.has(slot)) return this.#pump()
    this.#idle.push(slot)
    this.#pump()
  }

  /** Tells the server's pace what an attempt met; a wait asked for holds this process's slots at once. */
  report(slot: Socket, signal: PaceSignal, startedAt: number): void {
    if (signal.throttled && signal.waitMs !== undefined)
      this.#holdUntil = Math.max(this.#holdUntil, (signal.heardAt ?? Date.now()) + signal.waitMs)
    if (this.#held.has(slot)) slot.write(`${JSON.stringify({ report: signal, startedAt })}\n`)
  }

  /** Hands idle slots to waiting tasks unless a hold is on, gives back what is not needed, asks for what is. */
  #pump(): void {
    while (this.#idle.length > 0 && (this.#held.size > this.#current || this.#waiting.length === 0)) {
      const surplus = this.#idle.pop()
      if (surplus === undefined) break
      this.#held.delete(surplus)
      this.#fresh.delete(surplus)
      surplus.destroy()
    }
    const held = this.#holdUntil - Date.now()
    if (held > 0) {
      if (this.#wake === undefined && this.#waiting.length > 0)
        this.#wake = setTimeout(() => {
          this.#wake = undefined
          this.#pump()
        }, held)
      return
    }
    while (this.#idle.length > 0 && this.#waiting.length > 0) {
      const slot = this.#idle.pop()
      if (slot === undefined) break
      if (!this.#fresh.delete(slot)) slot.write(`${JSON.stringify({ started: true })}\n`)
      this.#waiting.shift()?.resolve(slot)
    }
    this.#ask()
  }

  #hear(state: { current: number; holdUntil: number }): void {
    this.#current = state.current
    this.#holdUntil = Math.max(this.#holdUntil, state.holdUntil)
    this.#pump()
  }

  /** Asks the server for a slot per waiting task not yet asked for, within the limit. */
  #ask(): void {
    while (
      this.#asked < this.#waiting.length - this.#idle.length &&
      this.#held.size + this.#asked < Math.min(this.#limit, this.#current)
    ) {
      this.#asked++
      let answered = false
      let lines = ''
      const connection = createConnection(this.#address)
      connection.setEncoding('utf8')
      connection.once('connect', () => connection.write(`${JSON.stringify({ key: this.#key, limit: this.#limit })}\n`))
      connection.on('data', (chunk: string) => {
        lines += chunk
        for (let end = lines.indexOf('\n'); end >= 0; end = lines.indexOf('\n')) {
          const line = lines.slice(0, end)
          lines = lines.slice(end + 1)
          if (line !== 'go') this.#hear(JSON.parse(line) as { current: number; holdUntil: number })
          else if (!answered) {
            answered = true
            this.#asked--
            this.#held.add(connection)
            this.#fresh.add(connection)
            this.#idle.push(connection)
            this.#pump()
          }
        }
      })
      const fail = (reason: string) => {
        if (answered) {
          this.#fresh.delete(connection)
          if (this.#held.delete(connection)) {
            const index = this.#idle.indexOf(connection)
            if (index >= 0) this.#idle.splice(index, 1)
          }
          return
        }
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
