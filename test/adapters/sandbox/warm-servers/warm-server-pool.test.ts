import { describe, expect, test } from 'vitest'
import { WarmServerPool } from '../../../../adapters/sandbox/warm-servers/warm-server-pool.ts'

/** A server that counts what it served; `ready` decides when its start finishes. */
class CountingServer {
  served = 0
  killed = false
  kill(): void {
    this.killed = true
  }
}

function pool(options: { fail?: boolean } = {}) {
  const started: CountingServer[] = []
  const finishers: Array<() => void> = []
  const servers = new WarmServerPool<CountingServer>(
    () =>
      new Promise((resolve) => {
        finishers.push(() => {
          if (options.fail) return resolve(undefined)
          const server = new CountingServer()
          started.push(server)
          resolve(server)
        })
      }),
  )
  const finishAll = () => {
    for (const finish of finishers.splice(0)) finish()
  }
  return { servers, started, finishers, finishAll }
}

describe('WarmServerPool.warmUp', () => {
  test('starts servers up to the count before any use, and not again when called again', () => {
    const { servers, finishers } = pool()
    servers.warmUp(2)
    servers.warmUp(2)
    expect(finishers).toHaveLength(2)
  })

  test('a use takes a server that is still starting instead of starting another one', async () => {
    const { servers, finishers, finishAll, started } = pool()
    servers.warmUp(1)
    const use = servers.use(async (server) => ++server.served)
    expect(finishers).toHaveLength(1)
    finishAll()
    expect(await use).toBe(1)
    expect(started).toHaveLength(1)
    expect(servers.size).toBe(1)
  })

  test('once the warmed-up servers are busy, a further use starts one of its own', async () => {
    const { servers, finishers, finishAll, started } = pool()
    servers.warmUp(1)
    const first = servers.use(async (server) => ++server.served)
    const second = servers.use(async (server) => ++server.served)
    expect(finishers).toHaveLength(2)
    finishAll()
    expect(await Promise.all([first, second])).toEqual([1, 1])
    expect(started).toHaveLength(2)
  })

  test('a warmed-up server that could not start leaves the use to fall back, as without a warm-up', async () => {
    const { servers, finishAll } = pool({ fail: true })
    servers.warmUp(1)
    const use = servers.use(async () => 'served')
    finishAll()
    expect(await use).toBeUndefined()
    expect(servers.size).toBe(0)
  })

  test('close kills the servers that were still starting, as they come up', async () => {
    const { servers, finishAll, started } = pool()
    servers.warmUp(2)
    servers.close()
    finishAll()
    await new Promise((resolve) => setImmediate(resolve))
    expect(started).toHaveLength(2)
    expect(started.every((server) => server.killed)).toBe(true)
    expect(servers.size).toBe(0)
  })
})
