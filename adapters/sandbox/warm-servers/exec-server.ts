import { readFileSync } from 'node:fs'
import { bwrapArgs } from '../process/bwrap-args.ts'
import { sandboxEnvironment } from '../environment.ts'
import type { Limits } from '../limits.ts'
import { FramedServer } from './framed-server.ts'
import type { MeasuredStep } from './measured-step.ts'
import { CappedOutput } from '../output.ts'
import { hiddenHostPaths } from '../process/sandbox-root.ts'
import { seccompFilter } from '../process/seccomp-filter.ts'
import { WarmServerPool } from './warm-server-pool.ts'
import { warnOnce } from '../warn-once.ts'
import { MAX_WORK_FILES } from '../process/work-files.ts'

/** A file of a step's work dir, by its path relative to the work dir. */
export interface StepFile {
  bytes: Buffer
  executable: boolean
}
export type StepFiles = ReadonlyMap<string, StepFile>

/** One compile step or program, as the exec server runs it in a fresh isolation of its own. */
export interface ExecStep {
  /** Paths of the tools the step runs: the server's sandbox binds their install dirs (one pool of servers per set). */
  tools: readonly string[]
  argv: readonly string[]
  env: Record<string, string>
  /** The work dir's files (/tmp/work, the step's own tmpfs). */
  files: StepFiles
  stdin: string | undefined
  limits: Limits
  /** RLIMIT_DATA. */
  dataBytes: number
  /** RLIMIT_AS; undefined leaves it unlimited (compilers). */
  addressSpaceBytes: number | undefined
  /** What the memory cgroup (as root) allows the step: its memory and both tmpfs. */
  cgroupBytes: number
  /** Size of the step's /tmp (with the work dir in it) and of its /dev/shm, each. */
  tmpfsBytes: number
  /** The program's throwaway uid, as root. */
  uid: number
  marker: string | undefined
  /** Files sent back after the step: the whole work dir (`all`, a compile step's output) or these names. */
  ship: 'all' | readonly string[]
  /** The most bytes sent back: in all for `all` (more is `tooBig`), per file otherwise. */
  shipBytes: number
}

/** How a step ended, as its namespace's init saw it (wait4), never as the program says. */
export interface ExecStepResult extends MeasuredStep {
  files: Map<string, StepFile>
  /** The step's files, or what its compile step made, do not fit in its /tmp: why. */
  tooBig: string | undefined
}

interface ServerEnd {
  timed_out: boolean
  wall_ms: number
  /** Preparing the step failed: the server's fault, never the program's (it reports on a pipe the program never holds). */
  setup_error: string | null
  /** No report from the step's init, which the server did not kill: a cgroup's OOM kill, or the server is broken. */
  lost: boolean
  exit_code?: number | null
  signal?: string | null
  cpu_ms?: number
  peak_memory_bytes?: number
  too_big?: string | null
}

/** One program: the isolation pieces, then the server. */
const SERVER_SOURCE = ['./python-fork-isolation.py', './exec-server.py']
  .map((file) => readFileSync(new URL(file, import.meta.url), 'utf8'))
  .join('\n\n')
/** How long past a step's wall limit we wait for the server before giving up on it. */
const GRACE_MS = 5_000
const READY_MS = 10_000
/** The server's own /tmp and /dev/shm: it writes nothing there (each step mounts its own). */
const SERVER_TMPFS_BYTES = 1024 * 1024
/** A server's memory cgroup until its first step sets the limit. */
const SERVER_MEMORY_BYTES = 1024 ** 3
/**
 * As root (no user namespace): new namespaces and mounts for each step, a throwaway uid for its program, its files
 * owned by that uid, and the step's init's kill of whatever the program left. Each program drops them all.
 */
const ROOT_CAPABILITIES = [
  'CAP_SYS_ADMIN',
  'CAP_SETUID',
  'CAP_SETGID',
  'CAP_SETPCAP',
  'CAP_CHOWN',
  'CAP_FOWNER',
  'CAP_KILL',
  'CAP_DAC_OVERRIDE',
  'CAP_DAC_READ_SEARCH',
]
/** As an ordinary user, inside bwrap's user namespace only: namespaces and mounts, dropping the bounding set, reading back what a program chmod-ed. */
const USERNS_CAPABILITIES = ['CAP_SYS_ADMIN', 'CAP_SETPCAP', 'CAP_DAC_OVERRIDE']

/**
 * Warm exec servers: one bwrap and one small Python process per concurrent step, kept for many steps, one pool per
 * set of tools. A step a server cannot serve returns undefined and the server is dropped; the caller then runs the
 * step cold (a bwrap of its own). A server that could not prepare a step stops the warm path for this process.
 */
export class ExecServers {
  readonly #python: string
  readonly #bwrap: string
  readonly #root: boolean
  readonly #user: User | undefined
  readonly #pools = new Map<string, WarmServerPool<ExecServer>>()
  #disabled = false

  /**
   * As root (`root`), the `uid` isolation: servers as root, each program as its throwaway uid. Otherwise (or as root
   * with `user`, whom the servers then run as) the `userns` isolation: servers in bwrap's user namespace.
   */
  constructor(python: string, bwrap: string, options: { root: boolean; user?: User }) {
    this.#python = python
    this.#bwrap = bwrap
    this.#root = options.root
    this.#user = options.root ? options.user : undefined
  }

  /** The isolation of this process's servers. */
  get isolation(): 'uid' | 'userns' {
    return this.#root && this.#user === undefined ? 'uid' : 'userns'
  }

  /** Whether steps still go to servers (none failed to start or to prepare a step). */
  get available(): boolean {
    return !this.#disabled
  }

  run(step: ExecStep): Promise<ExecStepResult | undefined> {
    if (this.#disabled) return Promise.resolve(undefined)
    const tools = [...new Set([this.#python, ...step.tools])].sort()
    const key = tools.join('\0')
    let pool = this.#pools.get(key)
    if (pool === undefined) {
      pool = new WarmServerPool(() => this.#start(tools))
      this.#pools.set(key, pool)
    }
    return pool.use(
      (server) => server.run(step),
      (server) => {
        if (server.setupFailed) this.#disabled = true
      },
    )
  }

  close(): void {
    for (const pool of this.#pools.values()) pool.close()
    this.#pools.clear()
  }

  async #start(tools: readonly string[]): Promise<ExecServer | undefined> {
    if (this.#disabled) return undefined
    const userns = this.isolation === 'userns'
    const sandbox = bwrapArgs(this.#bwrap, {
      root: !userns,
      tmpfsBytes: SERVER_TMPFS_BYTES,
      tools,
      hidden: hiddenHostPaths(),
      capabilities: userns ? USERNS_CAPABILITIES : ROOT_CAPABILITIES,
    })
    const argv = [
      ...sandbox,
      ...(userns ? ['--disable-userns'] : []),
      '--as-pid-1',
      '--chdir',
      '/',
      '--',
      this.#python,
      '-c',
      SERVER_SOURCE,
    ]
    const server = new ExecServer(argv, this.#root, this.#user, {
      ...sandboxEnvironment('/tmp'),
      TESTBENCH_EXEC_ISOLATION: userns ? 'userns' : 'uid',
      TESTBENCH_SECCOMP: seccompFilter()?.toString('base64') ?? '',
    })
    if (await server.ready) return server
    server.kill()
    warnOnce(
      'exec-server',
      `the warm exec server did not start (${server.diagnostics()}); every compile step and program starts a bwrap of its own.`,
    )
    this.#disabled = true
    return undefined
  }
}

interface User {
  uid: number
  gid: number
}

class ExecServer {
  readonly ready: Promise<boolean>
  /** It could not prepare a step: the next server would not either. */
  setupFailed = false
  readonly #server: FramedServer

  /** As root, the server and its steps sit in a memory cgroup whose limit each step sets. */
  constructor(argv: string[], root: boolean, user: User | undefined, env: Record<string, string>) {
    this.#server = new FramedServer(argv, {
      user,
      cgroupBytes: root ? SERVER_MEMORY_BYTES : undefined,
      readyMs: READY_MS,
      env,
      name: 'warm exec server',
    })
    this.ready = this.#server.ready
  }

  diagnostics(): string {
    return this.#server.diagnostics()
  }

  run(step: ExecStep): Promise<ExecStepResult | undefined> {
    const stdout = new CappedOutput(step.limits.outputBytes, step.marker)
    const stderr = new CappedOutput(step.limits.outputBytes)
    const files = new Map<string, StepFile>()
    const stdin = Buffer.from(step.stdin ?? '')
    const entries = [...step.files]
    const header = {
      argv: step.argv,
      env: step.env,
      uid: step.uid,
      wall_ms: step.limits.wallMs,
      tmpfs_bytes: step.tmpfsBytes,
      rlimits: {
        cpu: step.limits.cpuSeconds,
        data: step.dataBytes,
        ...(step.addressSpaceBytes === undefined ? {} : { as: step.addressSpaceBytes }),
        fsize: step.limits.fileBytes,
        nofile: 1024,
        nproc: step.limits.processes,
        core: 0,
      },
      files: entries.map(([path, file]) => ({ path, size: file.bytes.length, executable: file.executable })),
      stdin_size: stdin.length,
      ship: step.ship,
      ship_bytes: step.shipBytes,
      ship_files: MAX_WORK_FILES,
    }
    const cgroup = this.#server.cgroup
    // The cgroup holds the server and the step: what the server holds now, plus the step's memory and its tmpfs.
    const oomKillsBefore =
      cgroup === undefined
        ? Promise.resolve(0)
        : cgroup.usage().then(async (usage) => {
            cgroup.setLimit(usage + step.cgroupBytes)
            return cgroup.oomKills()
          })
    const request = () =>
      Buffer.concat([Buffer.from(JSON.stringify(header) + '\n'), ...entries.map(([, file]) => file.bytes), stdin])
    return this.#server.exchange<ExecStepResult>(
      request,
      oomKillsBefore,
      step.limits.wallMs + GRACE_MS,
      (kind, payload, settle) => {
        if (kind === 'o') stdout.push(payload)
        else if (kind === 'e') stderr.push(payload)
        else if (kind === 'f') {
          const nul = payload.indexOf(0, 1)
          files.set(payload.subarray(1, nul).toString('utf8'), {
            executable: payload[0] === 1,
            bytes: Buffer.from(payload.subarray(nul + 1)),
          })
        } else {
          const end = JSON.parse(payload.toString('utf8')) as ServerEnd
          if (end.setup_error !== null) {
            warnOnce(
              'exec-server-setup',
              `the warm exec server could not prepare a step (${end.setup_error}); that step, and those after it, start a bwrap of their own.`,
            )
            this.setupFailed = true
            settle(undefined)
            return
          }
          void Promise.all([oomKillsBefore, cgroup?.oomKills() ?? 0]).then(([before, after]) => {
            const oomKilled = after > before
            // Without a report and without an OOM kill the server cannot say how the step ended: it runs cold instead.
            if (end.lost && !oomKilled) return settle(undefined)
            settle({
              stdout,
              stderr,
              exitCode: end.lost ? null : (end.exit_code ?? null),
              signal: end.lost ? 'SIGKILL' : (end.signal ?? undefined),
              wallLimitHit: end.timed_out,
              oomKilled,
              wallMs: end.wall_ms,
              cpuMs: end.cpu_ms,
              peakMemoryBytes: end.peak_memory_bytes,
              files,
              tooBig: end.too_big ?? undefined,
            })
          })
        }
      },
    )
  }

  kill(): void {
    this.#server.kill()
  }
}
