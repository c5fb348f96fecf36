import { createHash, randomInt } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { bwrapArgs } from '../process/bwrap-args.ts'
import { PYTHON_PRELOAD } from '../knobs.ts'
import { hiddenHostPaths } from '../process/sandbox-root.ts'
import { sandboxEnvironment } from '../environment.ts'
import { LANGUAGE_SPECS } from '../languages.ts'
import { tmpfsBytes, type Limits } from '../limits.ts'
import { seccompFilter } from '../process/seccomp-filter.ts'
import { CappedOutput } from '../output.ts'
import { warnOnce } from '../warn-once.ts'
import { WarmServerPool } from './warm-server-pool.ts'
import { FramedServer } from './framed-server.ts'
import type { MeasuredStep } from './measured-step.ts'

/** What the fork server says about one run. */
export interface WarmRun extends MeasuredStep {
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
  /** The harness's modules the run takes ready (RunRequest.pythonModules), by name, in import order. */
  modules: Readonly<Record<string, string>>
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

/** One program: the isolation pieces, then the server. */
const SERVER_SOURCE = ['./python-fork-isolation.py', './python-fork-server.py']
  .map((file) => readFileSync(new URL(file, import.meta.url), 'utf8'))
  .join('\n\n')
const RUNS_DIR = '/tmp/runs'
/** How long a server may take to start, without and with modules to preload for a request. */
const READY_MS = 10_000
const PRELOADED_READY_MS = 180_000
/** How long past a run's wall limit we wait for the server before giving up on it. */
const GRACE_MS = 5_000
/** As root, `userns` servers run as a throwaway uid from this range (below the process tier's per-run uids). */
const SERVER_UID_BASE = 1_400_000_000
const SERVER_UID_RANGE = 100_000_000
/** A server's memory cgroup until its first run sets the limit: room for the interpreter and preloaded modules. */
const SERVER_MEMORY_BYTES = 1024 ** 3
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
  /** Modules each server imports before its first child, beyond TESTBENCH_PYTHON_PRELOAD's. */
  readonly #preload: readonly string[]
  /** RunRequest.writableRoot: the servers' root is a size-capped tmpfs that takes writes. */
  readonly #writableRoot: boolean
  /** The isolations to try, best first; the first whose server starts is kept. */
  readonly #isolations: Isolation[]
  readonly #servers = new WarmServerPool(() => this.#start())
  #nextId = 0

  /**
   * `userns` isolation: the servers run in bwrap's user namespace (which may create no others), the
   * children in a pid namespace of their own, without capabilities. Ordinary users get it; root gets
   * it too, the servers running as a throwaway uid (`user`, else a random one), and falls back to
   * `uid` isolation (root's servers keep a few capabilities, each child switches to a throwaway uid)
   * where that cannot start (e.g. a Python that only root can read). `isolation` forces one.
   */
  constructor(
    python: string,
    bwrap: string,
    options: {
      root: boolean
      isolation?: 'userns' | 'uid'
      user?: User
      preload?: readonly string[]
      writableRoot?: boolean
    },
  ) {
    this.#python = python
    this.#bwrap = bwrap
    this.#root = options.root
    this.#preload = options.preload ?? []
    this.#writableRoot = options.writableRoot ?? false
    const uid = SERVER_UID_BASE + randomInt(SERVER_UID_RANGE)
    const user = options.user ?? (options.root ? { uid, gid: uid } : undefined)
    const userns: Isolation = { kind: 'userns', user }
    const byUid: Isolation = { kind: 'uid', user: undefined }
    if (options.isolation !== undefined) this.#isolations = [options.isolation === 'userns' ? userns : byUid]
    else this.#isolations = options.root ? [userns, byUid] : [userns]
  }

  /** The isolation the servers run with, once one has started. */
  get isolation(): 'userns' | 'uid' | undefined {
    return this.#servers.size > 0 ? this.#isolations[0]?.kind : undefined
  }

  run(request: WarmRequest): Promise<WarmRun | undefined> {
    return this.#servers.use(
      (server) => server.run(request, this.#nextId++),
      // A server that could not prepare a child: the next one would not either, so the warm path stops.
      (server) => {
        if (server.setupFailed) this.#isolations.length = 0
      },
    )
  }

  /** Starts `count` servers now, ahead of the first runs. */
  warmUp(count: number): void {
    this.#servers.warmUp(count)
  }

  close(): void {
    this.#servers.close()
  }

  async #start(): Promise<ForkServer | undefined> {
    while (this.#isolations.length > 0) {
      const isolation = this.#isolations[0] as Isolation
      const server = this.#spawn(isolation)
      if (await server.ready) return server
      server.kill()
      // A server that cannot start will not start next time either: the next isolation, or none
      // (unless a server started at the same time has moved on already).
      if (this.#isolations[0] !== isolation) continue
      if (this.#isolations.length === 1) {
        warnOnce(
          'fork-server',
          `the warm Python server did not start (${server.diagnostics()}); Python programs start a fresh interpreter each.`,
        )
      }
      this.#isolations.shift()
    }
    return undefined
  }

  #spawn(isolation: Isolation): ForkServer {
    const userns = isolation.kind === 'userns'
    // /tmp holds the one run's work dir, cleared after each run: a program gets what a cold run gets.
    const sandbox = bwrapArgs(this.#bwrap, {
      root: !userns,
      tmpfsBytes: tmpfsBytes(),
      writableRoot: this.#writableRoot,
      tools: [this.#python],
      hidden: hiddenHostPaths(),
      capabilities: userns ? USERNS_CAPABILITIES : ROOT_CAPABILITIES,
    })
    // Sharing the children's uid, bwrap's init would be theirs to reach through /proc (its fds include our
    // control pipe): the server takes its place, and is not dumpable.
    if (userns) sandbox.push(...['--disable-userns', '--as-pid-1'].filter((flag) => !sandbox.includes(flag)))
    const argv = [
      ...sandbox,
      // Mounted so that the server can see, and remove, the message queues a run leaves.
      '--mqueue',
      '/dev/mqueue',
      '--chdir',
      '/tmp',
      '--',
      this.#python,
      '-c',
      SERVER_SOURCE,
    ]
    // Importing heavy libraries (pandas, matplotlib, sklearn…) takes many seconds on a busy machine.
    const readyMs = this.#preload.length > 0 ? PRELOADED_READY_MS : READY_MS
    return new ForkServer(argv, isolation.user, this.#root, this.#writableRoot, readyMs, {
      ...sandboxEnvironment('/tmp'),
      TESTBENCH_PYTHON_PRELOAD: [...PYTHON_PRELOAD.read(), ...this.#preload].join(','),
      TESTBENCH_FORK_ISOLATION: isolation.kind,
      TESTBENCH_SECCOMP: seccompFilter()?.toString('base64') ?? '',
    })
  }
}

interface User {
  uid: number
  gid: number
}

interface Isolation {
  kind: 'userns' | 'uid'
  /** Whom the server runs as; undefined: as us. */
  user: User | undefined
}

class ForkServer {
  readonly ready: Promise<boolean>
  /** It could not prepare a child: the next server would not either. */
  setupFailed = false
  readonly #server: FramedServer
  readonly #writableRoot: boolean
  /** The digests of the modules this server has run (RunRequest.pythonModules). */
  readonly #modules = new Set<string>()

  /** As root, the server and its children sit in a memory cgroup whose limit each run sets. */
  constructor(
    argv: string[],
    user: User | undefined,
    root: boolean,
    writableRoot: boolean,
    readyMs: number,
    env: Record<string, string>,
  ) {
    this.#writableRoot = writableRoot
    this.#server = new FramedServer(argv, {
      user,
      cgroupBytes: root ? SERVER_MEMORY_BYTES : undefined,
      readyMs,
      env,
      name: 'warm Python server',
    })
    this.ready = this.#server.ready
  }

  diagnostics(): string {
    return this.#server.diagnostics()
  }

  run(request: WarmRequest, id: number): Promise<WarmRun | undefined> {
    const stdout = new CappedOutput(request.limits.outputBytes, request.marker)
    const stderr = new CappedOutput(request.limits.outputBytes)
    const home = `${RUNS_DIR}/${id}`
    const { modules, moduleSources } = this.#modulesByDigest(request.modules)
    const message = {
      id,
      uid: request.uid,
      main: request.main,
      files: request.files,
      modules,
      module_sources: moduleSources,
      stdin: request.stdin ?? '',
      env: sandboxEnvironment(home),
      collect: request.collect,
      collect_bytes: request.limits.outputBytes,
      wall_ms: request.limits.wallMs,
      cpu_seconds: request.limits.cpuSeconds,
      rlimits: {
        RLIMIT_DATA: request.limits.memoryBytes,
        RLIMIT_AS: request.limits.memoryBytes + LANGUAGE_SPECS.python.addressSpaceHeadroomBytes,
        RLIMIT_FSIZE: request.limits.fileBytes,
        RLIMIT_NPROC: request.limits.processes,
        RLIMIT_NOFILE: 1024,
        RLIMIT_CORE: 0,
      },
    }
    // The cgroup holds the server and the run: what the server holds now, plus the run's memory and its tmpfs (/tmp, /dev/shm, and a writable root).
    const cgroup = this.#server.cgroup
    const oomKillsBefore =
      cgroup === undefined
        ? Promise.resolve(0)
        : cgroup.usage().then(async (usage) => {
            cgroup.setLimit(usage + request.limits.memoryBytes + (this.#writableRoot ? 3 : 2) * tmpfsBytes())
            return cgroup.oomKills()
          })
    return this.#server.exchange<WarmRun>(
      () => JSON.stringify(message) + '\n',
      oomKillsBefore,
      request.limits.wallMs + GRACE_MS,
      (kind, payload, settle) => {
        if (kind === 'o') stdout.push(payload)
        else if (kind === 'e') stderr.push(payload)
        else {
          const end = JSON.parse(payload.toString('utf8')) as ServerEnd
          if (end.setup_error !== null) {
            warnOnce(
              'fork-server-setup',
              `the warm Python server could not prepare a run (${end.setup_error}); that run, and those after it, start a fresh interpreter.`,
            )
            this.setupFailed = true
            settle(undefined)
            return
          }
          void Promise.all([oomKillsBefore, cgroup?.oomKills() ?? 0]).then(([before, after]) =>
            settle({
              stdout,
              stderr,
              exitCode: end.exit_code,
              signal: end.signal ?? undefined,
              wallLimitHit: end.timed_out,
              oomKilled: after > before,
              wallMs: end.wall_ms,
              cpuMs: end.cpu_ms,
              peakMemoryBytes: end.peak_memory_bytes,
              files: request.collect.length === 0 ? undefined : end.files,
            }),
          )
        }
      },
    )
  }

  /** The modules by digest, with the source of each this server has not run yet (it keeps every one it runs). */
  #modulesByDigest(modules: Readonly<Record<string, string>>): {
    modules: Array<[string, string]>
    moduleSources: Record<string, string>
  } {
    const moduleSources: Record<string, string> = {}
    const byDigest = Object.entries(modules).map(([name, source]): [string, string] => {
      const digest = digestOf(source)
      if (!this.#modules.has(digest)) {
        this.#modules.add(digest)
        moduleSources[digest] = source
      }
      return [name, digest]
    })
    return { modules: byDigest, moduleSources }
  }

  kill(): void {
    this.#server.kill()
  }
}

const digests = new Map<string, string>()

/** A module's digest, computed once per source in this process. */
function digestOf(content: string): string {
  let digest = digests.get(content)
  if (digest === undefined) {
    digest = createHash('sha256').update(content).digest('hex')
    if (digests.size < 256) digests.set(content, digest)
  }
  return digest
}
