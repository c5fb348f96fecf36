/**
 * The run's slot server bounds tasks across workers: several limiters (as in several workers, each
 * with its own) never run more than the limit at once together, and use it fully while tasks wait.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net'
import { afterEach, describe, expect, test } from 'vitest'
import type { PaceReport } from '../../../adapters/models/requests/endpoint-pace.ts'
import { runWideLimiter, startSlotServer, type SlotServer } from '../../../harness/run-wide/run-slots.ts'
import { runSocket } from '../../../harness/run-wide/run-socket.ts'

let server: SlotServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A worker's way to the slot server at `address` that counts its connections and can cut them, as a worker's death does. */
async function countingRelay(address: string): Promise<{ address: string; opened: () => number; cut: () => void }> {
  const { address: relayAddress, remove } = runSocket('relay')
  const sockets = new Set<Socket>()
  let opened = 0
  const relay: Server = createServer((worker) => {
    opened++
    const server = createConnection(address)
    for (const socket of [worker, server]) {
      sockets.add(socket)
      socket.on('error', () => undefined)
      socket.on('close', () => {
        worker.destroy()
        server.destroy()
      })
    }
    worker.pipe(server)
    server.pipe(worker)
  })
  await new Promise<void>((resolve) => relay.listen(relayAddress, resolve))
  relays.push(async () => {
    for (const socket of sockets) socket.destroy()
    await new Promise((resolve) => relay.close(resolve))
    remove()
  })
  return {
    address: relayAddress,
    opened: () => opened,
    cut: () => {
      for (const socket of sockets) socket.destroy()
    },
  }
}
const relays: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of relays.splice(0)) await close()
})

/** A task that runs until told to end. */
function heldTask(): { task: () => Promise<void>; started: Promise<void>; end: () => void } {
  let started!: () => void
  let end!: () => void
  const ended = new Promise<void>((resolve) => (end = resolve))
  return {
    task: () => {
      started()
      return ended
    },
    started: new Promise<void>((resolve) => (started = resolve)),
    end: () => end(),
  }
}

describe('run-wide slots', () => {
  test('three workers with 40 tasks each at limit 5: never more than 5 at once, 5 most of the time, every task done', async () => {
    server = await startSlotServer()
    const address = server.address
    let running = 0
    let most = 0
    const counts: number[] = []
    const workers = [1, 2, 3].map(() => runWideLimiter(address, 'provider:openai', 5))
    const task = async (): Promise<number> => {
      running++
      most = Math.max(most, running)
      counts.push(running)
      await pause(5)
      running--
      return 1
    }
    const done = await Promise.all(workers.flatMap((limited) => Array.from({ length: 40 }, () => limited(task))))
    expect(done).toHaveLength(120)
    expect(most).toBe(5)
    // Slots pass from task to task without waiting for the server: nearly every task starts with the others running.
    expect(counts.filter((count) => count >= 4).length).toBeGreaterThan(100)
  })

  test('keys are counted apart; a task that fails gives its slot back', async () => {
    server = await startSlotServer()
    const a = runWideLimiter(server.address, 'provider:openai', 1)
    const b = runWideLimiter(server.address, 'provider:anthropic', 1)
    let both = false
    let inA = false
    await Promise.all([
      a(async () => {
        inA = true
        await pause(30)
        inA = false
      }),
      b(async () => {
        await pause(10)
        both = inA
      }),
    ])
    expect(both).toBe(true)
    await expect(a(() => Promise.reject(new Error('the model broke')))).rejects.toThrow('the model broke')
    await expect(a(() => Promise.resolve('next'))).resolves.toBe('next')
  })

  test('a task aborted while it waits leaves the queue, and the others still run', async () => {
    server = await startSlotServer()
    const limited = runWideLimiter(server.address, 'provider:openai', 1)
    const controller = new AbortController()
    const first = limited(() => pause(30).then(() => 'first'))
    const aborted = limited(() => Promise.resolve('never'), controller.signal)
    const third = limited(() => Promise.resolve('third'))
    controller.abort(new Error('item cancelled'))
    await expect(aborted).rejects.toThrow('item cancelled')
    await expect(Promise.all([first, third])).resolves.toEqual(['first', 'third'])
  })

  test('with no server, the task fails with an error that names the slot server, and never runs', async () => {
    const closed = await startSlotServer()
    await closed.close()
    let ran = false
    const limited = runWideLimiter(closed.address, 'provider:openai', 2)
    await expect(limited(async () => (ran = true))).rejects.toThrow(/slot server at .* is not reachable/)
    expect(ran).toBe(false)
  })

  test('a worker asks for all its slots, of every key, on one connection, and its death frees all it held', async () => {
    server = await startSlotServer()
    const relay = await countingRelay(server.address)
    const openai = runWideLimiter(relay.address, 'provider:openai', 4)
    const anthropic = runWideLimiter(relay.address, 'provider:anthropic', 2)
    const quick = () => pause(1)
    await Promise.all([
      ...Array.from({ length: 40 }, () => openai(quick)),
      ...Array.from({ length: 10 }, () => anthropic(quick)),
    ])
    const dying = Array.from({ length: 6 }, heldTask)
    const running = dying.map((held, index) => (index < 4 ? openai(held.task) : anthropic(held.task)))
    await Promise.all(dying.map((held) => held.started))
    expect(relay.opened()).toBe(1)

    // Another worker waits for the slots the first one holds, until that worker dies.
    let othersRunning = 0
    let othersMost = 0
    const other = runWideLimiter(server.address, 'provider:openai', 4)
    const others = Array.from({ length: 8 }, () =>
      other(async () => {
        othersRunning++
        othersMost = Math.max(othersMost, othersRunning)
        await pause(5)
        othersRunning--
      }),
    )
    await pause(50)
    expect(othersMost).toBe(0)
    relay.cut()
    await Promise.all(others)
    expect(othersMost).toBe(4)
    for (const held of dying) held.end()
    await Promise.all(running)
  })
  test("a window's last requests start through the server: never more than the provider allows, from any worker", async () => {
    server = await startSlotServer()
    const address = server.address
    // The provider lets 10 requests in per window, counting each when it comes; tasks end at once.
    let arrived = 0
    const workers = [1, 2].map(() => runWideLimiter(address, 'endpoint:window', 8))
    const stop = new AbortController()
    const task = async (report: PaceReport): Promise<void> => {
      arrived++
      const remaining = Math.max(0, 10 - arrived)
      await pause(5)
      report({
        throttled: false,
        heardAt: Date.now(),
        rateLimit: { requests: { remaining, limit: 10, resetMs: 60_000 } },
      })
    }
    const runs = Array.from({ length: 40 }, (_, index) => workers[index % 2]!(task, stop.signal).catch(() => undefined))
    // However slow the machine, the window's ten come; anything past them would follow within moments.
    for (const deadline = Date.now() + 10_000; arrived < 10 && Date.now() < deadline;) await pause(10)
    await pause(300)
    stop.abort()
    await Promise.all(runs)
    expect(arrived).toBe(10)
  })

  test('starts spaced after a refusal go through the server, from a worker that joined after it too', async () => {
    server = await startSlotServer()
    // Two workers: each its own connection to the server (the later one through a relay).
    const first = runWideLimiter(server.address, 'endpoint:spaced', 8)
    const later = runWideLimiter((await countingRelay(server.address)).address, 'endpoint:spaced', 8)
    // A provider that says nothing of its limit refuses once: the pace spaces every start after.
    await first(async (report) => report({ throttled: true, heardAt: Date.now() }))
    const arrivals: number[] = []
    const answered = async (report: PaceReport): Promise<void> => {
      arrivals.push(Date.now())
      await pause(1)
      report({ throttled: false, heardAt: Date.now() })
    }
    await Promise.all(Array.from({ length: 10 }, () => later(answered)))
    // Starts 25 ms apart, each probe of the answers a little sooner; passed on in the worker, six came 1 ms apart.
    const gaps = arrivals.slice(1).map((at, index) => at - arrivals[index]!)
    expect(Math.min(...gaps)).toBeGreaterThan(10)
  })
})
