import { createConnection, createServer, type Socket } from 'node:net'
import {
  EndpointPace,
  roomSaid,
  type PaceReport,
  type PaceSignal,
} from '../../adapters/models/requests/endpoint-pace.ts'
import { abortReason } from '../../adapters/models/requests/paced-slots.ts'
import type { RunWideSlots } from '../../adapters/models/requests/endpoint-slots.ts'
import { serveBudget, type BudgetMessage } from './run-budget.ts'
import { processWide } from './process-wide.ts'
import { runSocket } from './run-socket.ts'

/**
 * Slots shared by every worker of a run: the part files of one suite run in several workers at
 * once, and `TESTBENCH_CONCURRENCY` must still bound the requests in flight to a provider across
 * all of them, not per worker. The run's main process keeps the count (a server on a local socket,
 * started by the global setup). A worker keeps one connection to it, on which it asks for slots, each
 * under an id of its own; a slot is free again when its worker gives it back (its task ended or was
 * aborted and no other task of that worker waits) or when the connection closes (the worker died).
 */
export interface SlotServer {
  /** Where workers connect: a Unix socket path, or a named pipe on Windows. */
  address: string
  close(): Promise<void>
}

interface Pool {
  key: string
  active: number
  waiting: ServedSlot[]
  granted: Set<ServedSlot>
  pace: EndpointPace
  wake?: NodeJS.Timeout
  /** What each worker's connection was last told: the pace's concurrency and hold. */
  told: Map<(line: string) => void, string>
}

/** A slot one worker asked for, under the id it gave it on its connection. */
interface ServedSlot {
  id: number
  /** Sends a line to the slot's worker. */
  send: (line: string) => void
  pool: Pool
  /** The pace's count of starts when the slot's current task started. */
  startNumber: number
}

const paces = processWide('run-paces', () => new Map<string, EndpointPace>())

/** The paces the run's slot server keeps, by key (`endpoint:<url>`…): for the progress line and the end of the run. */
export function runWidePaces(): ReadonlyMap<string, EndpointPace> {
  return paces
}

export async function startSlotServer(): Promise<SlotServer> {
  const pools = new Map<string, Pool>()
  const sockets = new Set<Socket>()
  const { address, remove } = runSocket('slots')
  let closed = false

  const grant = (pool: Pool): void => {
    if (closed) return
    for (let next = pool.waiting[0]; next !== undefined && pool.pace.mayStart(pool.active); next = pool.waiting[0]) {
      pool.waiting.shift()
      pool.active++
      pool.granted.add(next)
      pool.pace.started()
      next.startNumber = pool.pace.starts
      next.send(`{"go":${next.id}}\n`)
    }
    tell(pool)
    const held = pool.pace.waitForMs()
    if (pool.waiting.length > 0 && held > 0 && pool.wake === undefined)
      pool.wake = setTimeout(() => {
        pool.wake = undefined
        grant(pool)
      }, held)
  }
  /**
   * Every worker holding a slot hears the pace's concurrency and hold, so that none starts a request while it holds,
   * and whether it may pass a slot to its next task before the server hears of it: only while the provider's window
   * has room for a start on every slot in flight.
   */
  const tell = (pool: Pool): void => {
    const { current, holdUntil } = pool.pace
    // Starts spaced apart (a provider that says nothing of its limit) all go through the server, which spaces them.
    const passOn = pool.pace.windowRoom() >= pool.active && pool.pace.spacingMs === 0
    const state = `${JSON.stringify({ key: pool.key, current, holdUntil, passOn } satisfies PaceState)}\n`
    // A worker granted its first slot since the state last changed has not heard it yet.
    for (const { send } of pool.granted)
      if (pool.told.get(send) !== state) {
        pool.told.set(send, state)
        send(state)
      }
  }
  /** The slot's task ended or was aborted with no other waiting, or its worker died: the next waiting one may start. */
  const release = (slot: ServedSlot): void => {
    const { pool } = slot
    if (pool.granted.delete(slot)) {
      pool.active--
      pool.pace.ended()
    } else pool.waiting = pool.waiting.filter((waiting) => waiting !== slot)
  }
  const server = createServer((socket) => {
    sockets.add(socket)
    const send = batchedLines(socket)
    const slots = new Map<number, ServedSlot>()
    let request = ''
    let budget: ((message: BudgetMessage) => void) | undefined
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      request += chunk
      for (let line = request.indexOf('\n'); line >= 0; line = request.indexOf('\n')) {
        const message = JSON.parse(request.slice(0, line)) as SlotMessage | BudgetMessage
        request = request.slice(line + 1)
        if ('reserve' in message) budget = serveBudget(socket, message)
        else if ('cost' in message) budget?.(message)
        else if ('key' in message) {
          const { key, limit } = message
          let pool = pools.get(key)
          if (pool === undefined) {
            const pace = new EndpointPace(limit)
            pool = { key, active: 0, waiting: [], granted: new Set(), pace, told: new Map() }
            pools.set(key, pool)
            paces.set(key, pace)
          }
          const slot: ServedSlot = { id: message.slot, send, pool, startNumber: pool.pace.starts }
          slots.set(slot.id, slot)
          pool.waiting.push(slot)
          grant(pool)
        } else {
          const slot = slots.get(message.slot)
          if (slot === undefined) continue
          const { pool } = slot
          if ('started' in message) {
            // The worker passed its slot to its next task without asking: a start all the same, after an end.
            pool.pace.ended()
            pool.pace.started()
            slot.startNumber = pool.pace.starts
            tell(pool)
            // Slots asked for before any task ended waited for the quarter to end.
            if (pool.waiting.length > 0) grant(pool)
          } else if ('report' in message) {
            pool.pace.report(message.report, pool.pace.starts - slot.startNumber, message.startedAt)
            tell(pool)
            grant(pool)
          } else {
            slots.delete(slot.id)
            release(slot)
            grant(pool)
          }
        }
      }
    })
    socket.on('error', () => socket.destroy())
    socket.on('close', () => {
      sockets.delete(socket)
      const freed = new Set<Pool>()
      for (const slot of slots.values()) {
        release(slot)
        freed.add(slot.pool)
      }
      slots.clear()
      for (const pool of pools.values()) pool.told.delete(send)
      for (const pool of freed) grant(pool)
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
        closed = true
        for (const pool of pools.values()) clearTimeout(pool.wake)
        server.close(() => {
          remove()
          resolve()
        })
        // Workers keep their connection for the whole run: the run is over.
        for (const socket of sockets) socket.destroy()
      }),
  }
}

/** A worker asks for a slot under a key and an id of its own, then tells the pace what each task on it met, and gives it back. */
type SlotMessage =
  | { slot: number; key: string; limit: number }
  | { slot: number; started: true }
  | { slot: number; report: PaceSignal; startedAt: number }
  | { slot: number; free: true }

/** What the server tells a worker of a key's pace. */
interface PaceState {
  key: string
  current: number
  holdUntil: number
  passOn: boolean
}

/**
 * At most `limit` tasks under `key` run at once across every process that uses the server at `address`,
 * fewer while the key's pace says so (an endpoint the provider throttles). This process asks the server for
 * no more slots than it has tasks waiting (and never more than `limit`); a slot it holds passes straight to its
 * next waiting task without a round trip to the server, whose process is also busy with the reporters, unless
 * the pace holds every request, is below the slots held, or the provider's window has too little room left for
 * starts the server has not counted; it goes back when no task here waits.
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

/** What uses a process's connection: the slots of one key. */
interface SlotUser {
  readonly key: string
  granted(slot: number): void
  hear(state: PaceState): void
  /** The connection failed or closed: slots asked for will never come, slots held are no longer counted. */
  lost(reason: string): void
}

/** This process's connection to each slot server, by address. */
const connections = new Map<string, SlotConnection>()
let lastSlotId = 0

/**
 * This process's one connection to the slot server at an address: the slots of every key travel on it, each under
 * an id. A connection per slot cost each request a socket opened and closed at both ends.
 */
class SlotConnection {
  readonly #address: string
  readonly #socket: Socket
  readonly #users = new Set<SlotUser>()
  /** Who asked for each slot not yet granted. */
  readonly #asked = new Map<number, SlotUser>()
  /** Slots asked for or held: while there are any, the connection keeps the process alive. */
  #inUse = 0
  readonly #sendLine: (line: string) => void
  #lost = false

  static to(address: string): SlotConnection {
    let connection = connections.get(address)
    if (connection === undefined) {
      connection = new SlotConnection(address)
      connections.set(address, connection)
    }
    return connection
  }

  private constructor(address: string) {
    this.#address = address
    this.#socket = createConnection(address)
    this.#sendLine = batchedLines(this.#socket)
    this.#socket.unref()
    this.#socket.setEncoding('utf8')
    let lines = ''
    this.#socket.on('data', (chunk: string) => {
      lines += chunk
      for (let end = lines.indexOf('\n'); end >= 0; end = lines.indexOf('\n')) {
        const message = JSON.parse(lines.slice(0, end)) as { go: number } | PaceState
        lines = lines.slice(end + 1)
        if ('go' in message) {
          const user = this.#asked.get(message.go)
          this.#asked.delete(message.go)
          user?.granted(message.go)
        } else for (const user of this.#users) if (user.key === message.key) user.hear(message)
      }
    })
    this.#socket.on('error', (error) => this.#lose(`is not reachable (${error.message})`))
    this.#socket.once('close', () => this.#lose('closed'))
  }

  ask(user: SlotUser, limit: number): void {
    const slot = ++lastSlotId
    this.#users.add(user)
    this.#asked.set(slot, user)
    this.#use(1)
    this.#send({ slot, key: user.key, limit })
  }

  started(slot: number): void {
    this.#send({ slot, started: true })
  }

  report(slot: number, report: PaceSignal, startedAt: number): void {
    this.#send({ slot, report, startedAt })
  }

  free(slot: number): void {
    this.#send({ slot, free: true })
    this.#use(-1)
  }

  #use(change: number): void {
    this.#inUse += change
    if (this.#inUse === 0) this.#socket.unref()
    else if (this.#inUse === change) this.#socket.ref()
  }

  #send(message: SlotMessage): void {
    if (!this.#lost) this.#sendLine(`${JSON.stringify(message)}\n`)
  }

  #lose(reason: string): void {
    if (this.#lost) return
    this.#lost = true
    if (connections.get(this.#address) === this) connections.delete(this.#address)
    this.#socket.destroy()
    for (const user of this.#users) user.lost(reason)
  }
}

/**
 * Writes lines to a socket, those of one turn of the event loop in one write: a wave of replies landing together
 * makes one write of their reports, not one each (a write to a local socket took about 0.3 ms in a loaded worker's
 * CPU profile).
 */
function batchedLines(socket: Socket): (line: string) => void {
  let pending = ''
  return (line) => {
    if (pending === '')
      setImmediate(() => {
        if (!socket.destroyed) socket.write(pending)
        pending = ''
      })
    pending += line
  }
}

interface Waiter {
  resolve: (slot: number) => void
  reject: (error: Error) => void
}

class ProcessSlots implements SlotUser {
  readonly key: string
  readonly #address: string
  readonly #limit: number
  readonly #waiting: Waiter[] = []
  /** Slots this process holds, and those of them no task uses. */
  readonly #held = new Set<number>()
  readonly #idle: number[] = []
  /** Slots the server granted that no task has used yet: the server counted their first start. */
  readonly #fresh = new Set<number>()
  #asked = 0
  /** The connection the slots held and asked for are on; another once it is lost. */
  #connection: SlotConnection | undefined
  /** The pace as the server last told it. */
  #current: number
  #holdUntil = 0
  #passOn = true
  /**
   * Slots whose last answer said the provider's window had less room than requests may be in flight, or whose last
   * attempt was refused: their next start goes through the server, which counts and spaces it.
   */
  readonly #backToServer = new Set<number>()
  #wake: NodeJS.Timeout | undefined

  constructor(address: string, key: string, limit: number) {
    this.#address = address
    this.key = key
    this.#limit = limit
    this.#current = limit
  }

  take(signal: AbortSignal | undefined): Promise<number> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(abortReason(signal))
      let settled = false
      const settle = (): void => {
        settled = true
        signal?.removeEventListener('abort', onAbort)
      }
      const waiter: Waiter = {
        resolve: (slot) => {
          settle()
          resolve(slot)
        },
        reject: (error) => {
          settle()
          reject(error)
        },
      }
      const onAbort = () => {
        const index = this.#waiting.indexOf(waiter)
        if (index >= 0) this.#waiting.splice(index, 1)
        reject(abortReason(signal))
        this.#pump()
      }
      this.#waiting.push(waiter)
      this.#pump()
      // A task that got an idle slot at once never waited: its signal needs no listener (one on a composite signal costs).
      if (!settled) signal?.addEventListener('abort', onAbort, { once: true })
    })
  }

  give(slot: number): void {
    if (!this.#held.has(slot)) return this.#pump()
    this.#idle.push(slot)
    this.#pump()
  }

  /** Tells the server's pace what an attempt met; a wait asked for holds this process's slots at once. */
  report(slot: number, signal: PaceSignal, startedAt: number): void {
    if (signal.throttled && signal.waitMs !== undefined)
      this.#holdUntil = Math.max(this.#holdUntil, (signal.heardAt ?? Date.now()) + signal.waitMs)
    if (signal.throttled || roomSaid(signal.rateLimit) < this.#current) this.#backToServer.add(slot)
    if (this.#held.has(slot)) this.#connection?.report(slot, signal, startedAt)
  }

  granted(slot: number): void {
    this.#asked--
    this.#held.add(slot)
    this.#fresh.add(slot)
    this.#idle.push(slot)
    this.#pump()
  }

  hear(state: PaceState): void {
    this.#current = state.current
    this.#holdUntil = Math.max(this.#holdUntil, state.holdUntil)
    this.#passOn = state.passOn
    this.#pump()
  }

  lost(reason: string): void {
    this.#connection = undefined
    this.#held.clear()
    this.#fresh.clear()
    this.#backToServer.clear()
    this.#idle.length = 0
    for (; this.#asked > 0; this.#asked--)
      this.#waiting
        .shift()
        ?.reject(
          new Error(
            `The run's slot server at ${this.#address} (harness/run-wide/global-setup.ts) ${reason} while ${this.key} waited for a slot. Run the suites through Vitest's "suites" project.`,
          ),
        )
    this.#pump()
  }

  /** Hands idle slots to waiting tasks unless a hold is on, gives back what is not needed, asks for what is. */
  #pump(): void {
    while (this.#idle.length > 0 && (this.#held.size > this.#current || this.#waiting.length === 0)) {
      const surplus = this.#idle.pop()
      if (surplus === undefined) break
      this.#held.delete(surplus)
      this.#fresh.delete(surplus)
      this.#backToServer.delete(surplus)
      this.#connection?.free(surplus)
    }
    // Near the end of the provider's window, or after a refusal, a start goes through the server, which counts it first.
    const mustGoBack = (slot: number) => !this.#fresh.has(slot) && (!this.#passOn || this.#backToServer.has(slot))
    for (const used of this.#idle.filter(mustGoBack)) {
      this.#idle.splice(this.#idle.indexOf(used), 1)
      this.#held.delete(used)
      this.#backToServer.delete(used)
      this.#connection?.free(used)
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
      if (!this.#fresh.delete(slot)) this.#connection?.started(slot)
      this.#waiting.shift()?.resolve(slot)
    }
    this.#ask()
  }

  /** Asks the server for a slot per waiting task not yet asked for, within the limit. */
  #ask(): void {
    while (
      this.#asked < this.#waiting.length - this.#idle.length &&
      this.#held.size + this.#asked < Math.min(this.#limit, this.#current)
    ) {
      this.#asked++
      this.#connection ??= SlotConnection.to(this.#address)
      this.#connection.ask(this, this.#limit)
    }
  }
}
