import { memoryCgroups, type RunCgroup } from '../process/memory-cgroup.ts'
import { ServerProcess } from './server-process.ts'
import { warnOnce } from '../warn-once.ts'

/** What `exchange` hands each frame: its kind, its payload, and the call that ends the exchange. */
export type FrameHandler<Result> = (kind: string, payload: Buffer, settle: (result: Result | undefined) => void) => void

/**
 * A warm server that answers in frames (one byte of kind, a 4-byte big-endian length, the payload): the
 * Python fork server and the exec server. It is ready once its first frame is an `x`. As root it sits with
 * what it starts in a memory cgroup of its own (memory-cgroup.ts), removed when it exits.
 */
export class FramedServer {
  readonly ready: Promise<boolean>
  readonly cgroup: RunCgroup | undefined
  readonly #process: ServerProcess
  #chunks: Buffer[] = []
  #received = 0
  #onFrame: ((kind: string, payload: Buffer) => void) | undefined
  #onExit: (() => void) | undefined

  constructor(
    argv: readonly string[],
    options: {
      user: { uid: number; gid: number } | undefined
      cgroupBytes: number | undefined
      readyMs: number
      env: Record<string, string>
      name: string
    },
  ) {
    this.cgroup =
      options.cgroupBytes === undefined ? undefined : serverCgroup(options.cgroupBytes, options.user, options.name)
    this.#process = new ServerProcess(this.cgroup === undefined ? argv : this.cgroup.enter(argv), {
      env: options.env,
      user: options.user,
    })
    this.#process.onStdout((chunk) => this.#receive(chunk))
    this.#process.onExit(() => {
      this.#onExit?.()
      void this.cgroup?.remove()
    })
    this.ready = new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), options.readyMs)
      this.#onExit = () => resolve(false)
      this.#onFrame = (kind) => {
        clearTimeout(timer)
        resolve(kind === 'x')
      }
    })
  }

  diagnostics(): string {
    return this.#process.diagnostics()
  }

  kill(): void {
    this.#process.kill()
  }

  /**
   * Sends a request (once `before` resolves) and hands every frame that comes back to `onFrame` until it
   * settles; the server's exit, a failed `before` or `timeoutMs` settle it with undefined.
   */
  exchange<Result>(
    request: () => Buffer | string,
    before: Promise<unknown>,
    timeoutMs: number,
    onFrame: FrameHandler<Result>,
  ): Promise<Result | undefined> {
    this.#process.busy()
    return new Promise<Result | undefined>((resolve) => {
      const settle = (result: Result | undefined): void => {
        clearTimeout(timer)
        this.#onFrame = undefined
        this.#onExit = undefined
        this.#process.idle()
        resolve(result)
      }
      const timer = setTimeout(() => settle(undefined), timeoutMs)
      this.#onExit = () => settle(undefined)
      this.#onFrame = (kind, payload) => onFrame(kind, payload, settle)
      void before.then(
        () => this.#process.write(request()),
        () => settle(undefined),
      )
    })
  }

  /** Chunks are joined once a frame is whole. */
  #receive(chunk: Buffer): void {
    this.#chunks.push(chunk)
    this.#received += chunk.length
    while (this.#received >= 5) {
      if (this.#chunks.length > 1 && (this.#chunks[0]?.length ?? 0) < 5) this.#chunks = [Buffer.concat(this.#chunks)]
      const head = this.#chunks[0] as Buffer
      const length = head.readUInt32BE(1)
      if (this.#received < 5 + length) return
      const joined = this.#chunks.length === 1 ? head : Buffer.concat(this.#chunks)
      const kind = String.fromCharCode(joined[0] ?? 0)
      const payload = joined.subarray(5, 5 + length)
      const rest = joined.subarray(5 + length)
      this.#chunks = rest.length === 0 ? [] : [rest]
      this.#received = rest.length
      this.#onFrame?.(kind, payload)
    }
  }
}

/** A memory cgroup for a server as root, where one can be made; `user` (whom the server runs as) moves itself in. */
function serverCgroup(
  bytes: number,
  user: { uid: number; gid: number } | undefined,
  name: string,
): RunCgroup | undefined {
  try {
    return memoryCgroups()?.create(bytes, user)
  } catch (error) {
    warnOnce(
      `cgroup-${name}`,
      `no memory cgroup for a ${name} (${(error as Error).message}): its runs' processes are held to the memory limit each, not together.`,
    )
    return undefined
  }
}
