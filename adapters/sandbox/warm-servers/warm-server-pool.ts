/**
 * Long-lived servers of one kind, one per concurrent use: an idle one is reused, else a new one is
 * started. A use that returns undefined (the server could not serve it) drops that server, and the
 * caller falls back to a cold run.
 */
export class WarmServerPool<Server extends { kill(): void }> {
  readonly #start: () => Promise<Server | undefined>
  readonly #idle: Server[] = []
  readonly #all = new Set<Server>()
  /** Servers started ahead of their first use (warmUp), which a use takes before it starts one. */
  readonly #starting: Array<Promise<Server | undefined>> = []

  /** `start` resolves to a server that is ready, or undefined when none can start. */
  constructor(start: () => Promise<Server | undefined>) {
    this.#start = start
  }

  /** How many servers are running. */
  get size(): number {
    return this.#all.size
  }

  async use<Result>(
    work: (server: Server) => Promise<Result | undefined>,
    onDropped?: (server: Server) => void,
  ): Promise<Result | undefined> {
    const server = this.#idle.pop() ?? (await (this.#starting.shift() ?? this.#started()))
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

  /**
   * Starts servers ahead of their first use, up to `count` running or starting, so that the first runs do
   * not wait for a start (a worker calls this while Vitest collects its items). A server that cannot start
   * is the first use's to find out, as without a warm-up.
   */
  warmUp(count: number): void {
    while (this.#all.size + this.#starting.length < count) {
      const starting = this.#started()
      starting.catch(() => undefined)
      this.#starting.push(starting)
    }
  }

  close(): void {
    // Servers still starting are killed as they come up.
    for (const starting of this.#starting.splice(0)) {
      void starting.then(
        (server) => {
          server?.kill()
          if (server !== undefined) this.#all.delete(server)
        },
        () => undefined,
      )
    }
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
