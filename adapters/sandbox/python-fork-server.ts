import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import type { Socket } from 'node:net'
import { bwrapArgs } from './bwrap-args.ts'
import { sandboxEnvironment } from './environment.ts'
import type { Limits } from './limits.ts'
import { CappedOutput } from './output.ts'
import { warnOnce } from './warn-once.ts'

/** What the fork server says about one run. */
export interface WarmRun {
  stdout: CappedOutput
  stderr: CappedOutput
  exitCode: number | null
  signal: string | undefined
  wallLimitHit: boolean
  wallMs: number
  cpuMs: number
  peakMemoryBytes: number
  files: Record<string, string> | undefined
}

export interface WarmRequest {
  files: Record<string, string>
  main: string
  stdin: string | undefined
  limits: Limits
  uid: number
  marker: string | undefined
  collect: readonly string[]
}

interface ServerEnd {
  exit_code: number | null
  signal: string | null
  timed_out: boolean
  wall_ms: number
  cpu_ms: number
  peak_memory_bytes: number
  files: Record<string, string>
  /** Set when preparing the child failed: the server's fault, never the program's. */
  setup_error: string | null
}

const SERVER_SOURCE = readFileSync(new URL('./python-fork-server.py', import.meta.url), 'utf8')
const RUNS_DIR = '/tmp/runs'
/** How long past a run's wall limit we wait for the server before giving up on it. */
const GRACE_MS = 5_000
/** The server's /tmp holds each run's work dir; tmpfs takes memory only for what is written. */
const TMPFS_BYTES = 1024 ** 3
/** As root: capabilities the server needs to set up each child (which drops them all with its uid). */
const ROOT_CAPABILITIES = ['CAP_SETUID', 'CAP_SETGID', 'CAP_CHOWN', 'CAP_KILL', 'CAP_DAC_OVERRIDE', 'CAP_FOWNER']
/**
 * As an ordinary user, inside bwrap's user namespace only: a pid namespace for the children
 * (CAP_SYS_ADMIN), and dropping the bounding set in each child (CAP_SETPCAP).
 */
const USERNS_CAPABILITIES = ['CAP_SYS_ADMIN', 'CAP_SETPCAP']

/**
 * Warm Python servers, one per concurrent run, each inside its own bwrap. A run that a server
 * cannot serve returns undefined, and the server is dropped; the caller then runs it cold.
 */
export class PythonForkServers {
  readonly #python: string
  readonly #bwrap: string
  readonly #root: boolean
  /** Whom the servers run as, when not as us: root can give them an ordinary user's isolation. */
  readonly #user: { uid: number; gid: number } | undefined
  readonly #idle: ForkServer[] = []
  readonly #all = new Set<ForkServer>()
  #nextId = 0
  /** A server that cannot start will not start next time either: stop trying. */
  #cannotStart = false

  /**
   * `root`: we are root, and each child switches to a throwaway uid; otherwise the servers run in
   * bwrap's user namespace (which may create no others) and the children in a pid namespace of their own.
   * `user`: the uid and gid the servers run as (root only), e.g. to test an ordinary user's isolation.
   */
  constructor(python: string, bwrap: string, options: { root: boolean; user?: { uid: number; gid: number } }) {
    this.#python = python
    this.#bwrap = bwrap
    this.#root = options.root
    this.#user = options.user
  }

  async run(request: WarmRequest): Promise<WarmRun | undefined> {
    const server = this.#idle.pop() ?? (await this.#start())
    if (server === undefined) return undefined
    const result = await server.run(request, this.#nextId++)
    if (result === undefined) {
      server.kill()
      this.#all.delete(server)
      if (server.setupFailed) this.#cannotStart = true
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

  async #start(): Promise<ForkServer | undefined> {
    if (this.#cannotStart) return undefined
    const root = this.#root
    const sandbox = bwrapArgs(this.#bwrap, { root, tmpfsBytes: TMPFS_BYTES, tools: [this.#python], capabilities: root ? ROOT_CAPABILITIES : USERNS_CAPABILITIES })
    // Sharing the children's uid, bwrap's init would be theirs to reach through /proc (its fds include our
    // control pipe): the server takes its place, and is not dumpable.
    if (!root) sandbox.push(...['--disable-userns', '--as-pid-1'].filter((flag) => !sandbox.includes(flag)))
    const argv = [
      ...sandbox,
      // Mounted so that the server can see, and remove, the message queues a run leaves.
      '--mqueue', '/dev/mqueue',
      '--chdir', '/tmp',
      '--',
      this.#python, '-c', SERVER_SOURCE,
    ]
    const server = new ForkServer(argv, this.#user, {
      ...sandboxEnvironment('/tmp'),
      TESTBENCH_PYTHON_PRELOAD: process.env['TESTBENCH_PYTHON_PRELOAD'] ?? '',
      TESTBENCH_FORK_ISOLATION: root ? 'uid' : 'userns',
    })
    if (!(await server.ready)) {
      warnOnce('fork-server', `the warm Python server did not start (${server.diagnostics()}); Python programs start a fresh interpreter each.`)
      server.kill()
      this.#cannotStart = true
      return undefined
    }
    this.#all.add(server)
    return server
  }
}

class ForkServer {
  readonly ready: Promise<boolean>
  /** It could not prepare a child: the next server would not either. */
  setupFailed = false
  readonly #process: ChildProcess
  #buffer: Buffer = Buffer.alloc(0)
  #stderr = ''
  #onFrame: ((kind: string, payload: Buffer) => void) | undefined
  #onExit: (() => void) | undefined

  constructor(argv: string[], user: { uid: number; gid: number } | undefined, env: Record<string, string>) {
    const [file, ...args] = argv
    this.#process = spawn(file ?? 'bwrap', args, { env, stdio: ['pipe', 'pipe', 'pipe'], detached: true, cwd: '/', ...user })
    this.#process.stdout?.on('data', (chunk: Buffer) => this.#receive(chunk))
    this.#process.stderr?.on('data', (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString('utf8')).slice(-2000)
    })
    this.#process.stdin?.on('error', () => {})
    this.#process.on('exit', () => this.#onExit?.())
    this.ready = new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), 10_000)
      this.#onExit = () => resolve(false)
      this.#onFrame = (kind) => {
        clearTimeout(timer)
        resolve(kind === 'x')
      }
    })
    this.#idle()
  }

  diagnostics(): string {
    return this.#stderr.trim().split('\n').slice(-2).join(' | ') || 'no message'
  }

  run(request: WarmRequest, id: number): Promise<WarmRun | undefined> {
    const stdout = new CappedOutput(request.limits.outputBytes, request.marker)
    const stderr = new CappedOutput(request.limits.outputBytes)
    const home = `${RUNS_DIR}/${id}`
    const message = {
      id,
      uid: request.uid,
      main: request.main,
      files: request.files,
      stdin: request.stdin ?? '',
      env: sandboxEnvironment(home),
      collect: request.collect,
      collect_bytes: request.limits.outputBytes,
      wall_ms: request.limits.wallMs,
      cpu_seconds: request.limits.cpuSeconds,
      rlimits: {
        RLIMIT_DATA: request.limits.memoryBytes,
        RLIMIT_FSIZE: request.limits.fileBytes,
        RLIMIT_NPROC: request.limits.processes,
        RLIMIT_NOFILE: 1024,
        RLIMIT_CORE: 0,
      },
    }
    this.#busy()
    return new Promise<WarmRun | undefined>((resolve) => {
      const settle = (run: WarmRun | undefined): void => {
        clearTimeout(timer)
        this.#onFrame = undefined
        this.#onExit = undefined
        this.#idle()
        resolve(run)
      }
      const timer = setTimeout(() => settle(undefined), request.limits.wallMs + GRACE_MS)
      this.#onExit = () => settle(undefined)
      this.#onFrame = (kind, payload) => {
        if (kind === 'o') stdout.push(payload)
        else if (kind === 'e') stderr.push(payload)
        else {
          const end = JSON.parse(payload.toString('utf8')) as ServerEnd
          if (end.setup_error !== null) {
            warnOnce('fork-server-setup', `the warm Python server could not prepare a run (${end.setup_error}); that run, and those after it, start a fresh interpreter.`)
            this.setupFailed = true
            settle(undefined)
            return
          }
          settle({
            stdout,
            stderr,
            exitCode: end.exit_code,
            signal: end.signal ?? undefined,
            wallLimitHit: end.timed_out,
            wallMs: end.wall_ms,
            cpuMs: end.cpu_ms,
            peakMemoryBytes: end.peak_memory_bytes,
            files: request.collect.length === 0 ? undefined : end.files,
          })
        }
      }
      this.#process.stdin?.write(JSON.stringify(message) + '\n')
    })
  }

  kill(): void {
    if (this.#process.pid === undefined || this.#process.exitCode !== null) return
    try {
      process.kill(-this.#process.pid, 'SIGKILL')
    } catch {
      // already gone
    }
  }

  /** Frames: one byte of kind, a 4-byte big-endian length, the payload. */
  #receive(chunk: Buffer): void {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk])
    while (this.#buffer.length >= 5) {
      const length = this.#buffer.readUInt32BE(1)
      if (this.#buffer.length < 5 + length) return
      const kind = String.fromCharCode(this.#buffer[0] ?? 0)
      const payload = this.#buffer.subarray(5, 5 + length)
      this.#buffer = this.#buffer.subarray(5 + length)
      this.#onFrame?.(kind, payload)
    }
  }

  /** An idle server must not keep Node alive; a busy one must. */
  #idle(): void {
    this.#process.unref()
    for (const stream of [this.#process.stdout, this.#process.stderr]) (stream as Socket | null)?.unref()
  }

  #busy(): void {
    this.#process.ref()
    for (const stream of [this.#process.stdout, this.#process.stderr]) (stream as Socket | null)?.ref()
  }
}
