/**
 * Long-lived servers of one kind, one per concurrent use: an idle one is reused, else a new one is
 * started. A use that returns undefined (the server could not serve it) drops that server, and the
 * caller falls back to a cold run.
 */
export class WarmServerPool<Server extends { kill(): void }> {
  readonly #start: () => Promise<Server | undefined>
  readonly #idle: Server[] = []
  readonly #all = new Set<Server>()

  /** `start` resolves to a server that is ready, or undefined when none can start. */
  constructor(start: () => Promise<Server | undefined>) {
    this.#start = start
  }

  /** How many servers are running. */
  get size(): number {
    return this.#all.size
  }

  async use<Result>(work: (server: Server) => Promise<Result | undefined>, onDropped?: (server: Server) => void): Promise<Result | undefined> {
    const server = this.#idle.pop() ?? (await this.#started())
    if (server === undefined) return undefined
    const result = await work(server)
    if (result === undefined) {
      server.kill()
      this.#all.delete(server)
      onDropped?.(server)
    } else {
      this.#idle.push(server)
    }
    return result
  }

  close(): void {
    for (const server of this.#all) server.kill()
    this.#all.clear()
    this.#idle.length = 0
  }

  async #started(): Promise<Server | undefined> {
    const server = await this.#start()
    if (server !== undefined) this.#all.add(server)
    return server
  }
}
