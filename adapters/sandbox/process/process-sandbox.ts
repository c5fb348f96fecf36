import { spawnSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { randomInt } from 'node:crypto'
import { chmod, chown, mkdir, mkdtemp, open, readFile, rm, writeFile, type FileHandle } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { classify, signalFromStatus, type Ending } from '../classify.ts'
import { ExecServers } from '../warm-servers/exec-server.ts'
import { runOnExecServers, stepResult, tooBigResult } from './exec-run.ts'
import { collectFiles } from './collect-files.ts'
import { sandboxLimiter } from '../concurrency.ts'
import { sandboxEnvironment } from '../environment.ts'
import { EXEC_SERVER, JAVA_WARM, PYTHON_WARM } from '../knobs.ts'
import { bwrapArgs } from './bwrap-args.ts'
import { hiddenHostPaths } from './sandbox-root.ts'
import { seccompFilter } from './seccomp-filter.ts'
import { HostToolchain } from './host-toolchain.ts'
import { hostProtections, processTierProblem, unsandboxedProblem, type HostProtections } from './host-protections.ts'
import { processTierDescription, UNSANDBOXED } from '../sandbox-tier.ts'
import { languageSpec, type Language, type LanguageSpec, type Toolchain } from '../languages.ts'
import { DEFAULT_COMPILE_LIMITS, DEFAULT_RUN_LIMITS, tmpfsBytes, withDefaults, type Limits } from '../limits.ts'
import { openWorkFiles, type OpenWorkFiles } from './work-files.ts'
import { memoryCgroups, type RunCgroup } from './memory-cgroup.ts'
import { warnOnce } from '../warn-once.ts'
import { newMarker } from '../marker.ts'
import { compileJavaWarm } from '../warm-servers/jvm-warm-compile.ts'
import { WarmJavac } from '../warm-servers/jvm-warm-javac.ts'
import { PythonForkServers } from '../warm-servers/python-fork-server.ts'
import { runCommand, type CommandResult } from './run-command.ts'
import type { RunRequest, RunResult, Sandbox } from '../sandbox.ts'
import { infraFailure, sourceFiles } from '../source-files.ts'
import { parseTimeReport, TIME_FORMAT } from '../time-report.ts'

/** Where the work dir appears inside bwrap; programs see only this and a private /tmp as writable. */
const SANDBOX_WORK_DIR = '/tmp/work'
/** fds 3, 4 and 5 are bwrap's status, GNU time's report and the seccomp filter; the work dir's files follow. */
const FIRST_FILE_FD = 6
/** Throwaway uids: each run gets its own, so the process limit counts only that run's processes. */
const UID_BASE = 1_500_000_000
const UID_RANGE = 100_000_000

/**
 * The process tier: every step runs under bwrap (no network, read-only root, private /tmp and
 * pid namespace) as a throwaway uid, with prlimit limits, in a fresh temp dir removed afterwards.
 */
export class ProcessSandbox implements Sandbox {
  readonly tier: 'process' | 'none'
  readonly #toolchain: HostToolchain
  readonly #protections: () => HostProtections
  readonly #warmPython: boolean
  /** Warm Python servers by the modules they preload (RunRequest.preload). */
  readonly #forkServers = new Map<string, PythonForkServers>()
  readonly #warmJava: boolean
  #javacServers: WarmJavac | undefined
  readonly #warmExec: boolean
  #execServers: ExecServers | undefined
  readonly #tmpfsBytes: number

  /**
   * `warmPython` (default: unless TESTBENCH_PYTHON_WARM is 0, off or false) serves Python from warm fork servers
   * wherever bwrap works (as root, or in a user namespace), so that no run pays interpreter start-up.
   * `warmJava` (default: unless TESTBENCH_JAVA_WARM is 0, off or false) compiles Java on warm javac servers.
   * `warmExec` (default: unless TESTBENCH_EXEC_SERVER is 0, off or false) runs every other compile step and program
   * on warm exec servers (one bwrap for many steps, each step in namespaces and a tmpfs of its own), a bwrap per step otherwise.
   * Where bwrap cannot isolate programs every run is an infra_error naming what is missing, unless
   * `unsandboxed` (SANDBOX=none) asks for programs to run without it: limits and a throwaway uid only.
   */
  constructor(
    options: {
      env?: NodeJS.ProcessEnv
      protections?: () => HostProtections
      warmPython?: boolean
      warmJava?: boolean
      warmExec?: boolean
      unsandboxed?: boolean
    } = {},
  ) {
    const env = options.env ?? process.env
    this.#toolchain = new HostToolchain(env)
    const protections = options.protections ?? hostProtections
    this.tier = options.unsandboxed === true ? 'none' : 'process'
    this.#tmpfsBytes = tmpfsBytes(env)
    this.#protections = options.unsandboxed === true ? () => ({ ...protections(), bwrap: undefined }) : protections
    this.#warmPython = options.warmPython ?? PYTHON_WARM.read(env)
    this.#warmJava = options.warmJava ?? JAVA_WARM.read(env)
    this.#warmExec = options.warmExec ?? EXEC_SERVER.read(env)
  }

  async unavailable(language: Language): Promise<string | undefined> {
    const found = this.#toolchain.toolchain(languageSpec(language).tools)
    return 'missing' in found ? `${language} cannot run: ${found.missing}.` : undefined
  }

  description(): string {
    return this.tier === 'none' ? UNSANDBOXED : processTierDescription(this.#protections())
  }

  run(request: RunRequest): Promise<RunResult> {
    return sandboxLimiter.run(() => this.#run(request))
  }

  /** Python: as many warm servers as runs may go at once (without preloads, on a read-only root: what most Python runs use). */
  warmUp(language: Language): void {
    if (language !== 'python' || this.tier === 'none') return
    const protections = this.#protections()
    if (processTierProblem(protections) !== undefined) return
    const found = this.#toolchain.toolchain(languageSpec(language).tools)
    if ('missing' in found) return
    this.#warmServers(protections, found.tools, [], false)?.warmUp(sandboxLimiter.limit)
  }

  async close(): Promise<void> {
    for (const servers of this.#forkServers.values()) servers.close()
    this.#forkServers.clear()
    this.#javacServers?.close()
    this.#javacServers = undefined
    this.#execServers?.close()
    this.#execServers = undefined
  }

  #warmExecServers(protections: HostProtections): ExecServers | undefined {
    if (!this.#warmExec || protections.bwrap === undefined) return undefined
    const python = this.#toolchain.resolve('python')
    if ('missing' in python) return undefined
    this.#execServers ??= new ExecServers(python.path, protections.bwrap, { root: protections.root })
    return this.#execServers.available ? this.#execServers : undefined
  }

  #warmJavac(protections: HostProtections, tools: Toolchain): WarmJavac | undefined {
    if (!this.#warmJava || protections.bwrap === undefined) return undefined
    this.#javacServers ??= new WarmJavac(tools.java, protections.bwrap, { root: protections.root })
    return this.#javacServers
  }

  #warmServers(
    protections: HostProtections,
    tools: Toolchain,
    preload: readonly string[],
    writableRoot: boolean,
  ): PythonForkServers | undefined {
    if (!this.#warmPython || protections.bwrap === undefined) return undefined
    const key = `${writableRoot ? 'writable root' : 'read-only root'}:${preload.join(',')}`
    let servers = this.#forkServers.get(key)
    if (servers === undefined) {
      servers = new PythonForkServers(tools.python, protections.bwrap, {
        root: protections.root,
        preload,
        writableRoot,
      })
      this.#forkServers.set(key, servers)
    }
    return servers
  }

  async #run(request: RunRequest): Promise<RunResult> {
    const spec = languageSpec(request.language)
    const runLimits = withDefaults(DEFAULT_RUN_LIMITS, request.limits)
    const compileLimits = withDefaults(DEFAULT_COMPILE_LIMITS, request.compileLimits)
    const found = this.#toolchain.toolchain(spec.tools)
    if ('missing' in found) return infraFailure(`${request.language} cannot run here: ${found.missing}.`)
    const marker = typeof request.files === 'function' ? newMarker() : undefined
    const sources = sourceFiles(request, marker)
    if ('invalid' in sources) return infraFailure(sources.invalid)
    // Where no warm server takes the Python modules ready, they are files beside the program.
    const files = { ...sources.files, ...sources.moduleFiles }
    const main = request.main ?? spec.main

    const protections = this.#protections()
    if (this.tier === 'none') {
      const missing = unsandboxedProblem(protections)
      if (missing !== undefined) return infraFailure(`No program runs: ${missing}.`)
    } else {
      const missing = processTierProblem(protections)
      if (missing !== undefined)
        return infraFailure(`No program runs without a sandbox: ${missing}, or SANDBOX=none to run them unsandboxed.`)
    }
    const uid = UID_BASE + randomInt(UID_RANGE)
    const writableRoot = request.writableRoot ?? false
    const warm =
      request.language === 'python'
        ? this.#warmServers(protections, found.tools, request.preload ?? [], writableRoot)
        : undefined
    if (warm !== undefined) {
      const ran = await warm.run({
        files: sources.files,
        modules: request.pythonModules ?? {},
        main,
        stdin: request.stdin,
        limits: runLimits,
        uid,
        marker,
        collect: request.collect ?? [],
      })
      if (ran !== undefined)
        return {
          ...stepResult(ran, spec, runLimits, marker, 'run'),
          ...(ran.files === undefined ? {} : { files: ran.files }),
        }
      // The server broke (and is gone): this run starts a fresh interpreter instead.
    }
    // The exec servers' steps have a read-only root: a run that writes to its root starts a bwrap of its own.
    const exec = writableRoot ? undefined : this.#warmExecServers(protections)
    if (exec !== undefined) {
      const javac = request.language === 'java' ? this.#warmJavac(protections, found.tools) : undefined
      const env = sandboxEnvironment(SANDBOX_WORK_DIR, spec.env?.(SANDBOX_WORK_DIR))
      const common = {
        servers: exec,
        spec,
        tools: found.tools,
        files,
        main,
        stdin: request.stdin,
        runLimits,
        compileLimits,
        uid,
        marker,
      }
      const ran = await runOnExecServers({
        ...common,
        collect: request.collect,
        env,
        tmpfsBytes: this.#tmpfsBytes,
        javac,
      }).catch((error: unknown) => {
        warnOnce(
          'exec-run',
          `a run on the warm exec server failed (${(error as Error).message}); it starts a bwrap of its own.`,
        )
        return undefined
      })
      if (ran !== undefined) return ran
      // A server broke (and is gone): this run starts from the beginning, in a bwrap per step.
    }
    const root = await mkdtemp(join(tmpdir(), 'testbench-sandbox-'))
    try {
      // The program may pass through the run's dir to its work dir, nothing more.
      await chmod(root, 0o711)
      const work = join(root, 'work')
      await mkdir(work)
      for (const [name, content] of Object.entries(files)) {
        await mkdir(dirname(join(work, name)), { recursive: true })
        await writeFile(join(work, name), content)
      }
      if (protections.root && protections.setpriv !== undefined) await chownTree(work, Object.keys(files), uid)
      const home = protections.bwrap === undefined ? work : SANDBOX_WORK_DIR
      const env = sandboxEnvironment(home, spec.env?.(home))
      const context: StepContext = { protections, uid, root, work, env, tools: found.tools, writableRoot }
      const step = (
        argv: string[],
        limits: Limits,
        phase: 'compile' | 'run',
        stepMarker?: string,
        copies?: OpenWorkFiles,
      ) =>
        this.#step(context, spec, argv, limits, phase, phase === 'run' ? request.stdin : undefined, stepMarker, copies)

      let compileOutput: string | undefined
      const javac = request.language === 'java' ? this.#warmJavac(protections, found.tools) : undefined
      const warmCompile =
        javac === undefined ? undefined : await compileJavaWarm(javac, files, main, spec, compileLimits, marker)
      if (warmCompile !== undefined) {
        compileOutput = warmCompile.compileOutput
        if (warmCompile.failed !== undefined) return warmCompile.failed
        for (const [path, bytes] of warmCompile.classes) {
          await mkdir(dirname(join(work, path)), { recursive: true })
          await writeFile(join(work, path), bytes)
        }
      } else if (spec.compile !== undefined) {
        const argv = spec.compile(found.tools, main, Object.keys(files), compileLimits)
        const compiled = await step(argv, compileLimits, 'compile')
        const { stdout, stderr } = compiled.result
        compileOutput = [stdout.capture().text, stderr.capture().text].filter((text) => text !== '').join('\n')
        if (compiled.infra !== undefined) return infraFailure(compiled.infra, compileOutput)
        if (compiled.verdict.outcome !== 'passed') {
          return { ...toResult(compiled, marker), compileOutput, markerSeen: marker === undefined ? undefined : false }
        }
      }
      // The run gets copies of the work dir's files in its own size-capped /tmp, so that nothing it writes reaches the
      // host's disk; a request that collects files back gets the host dir (bound, as the compile step has it).
      const copies =
        request.collect === undefined && protections.bwrap !== undefined
          ? await openWorkFiles(work, this.#tmpfsBytes, FIRST_FILE_FD)
          : undefined
      if (copies !== undefined && 'tooBig' in copies) return tooBigResult(copies.tooBig, compileOutput, marker)
      const ran = await step(spec.run(found.tools, main, runLimits), runLimits, 'run', marker, copies).finally(() =>
        copies?.handles.forEach((handle) => void handle.close()),
      )
      if (ran.infra !== undefined) return infraFailure(ran.infra, compileOutput)
      const collected =
        request.collect === undefined ? undefined : await collectFiles(work, request.collect, runLimits.outputBytes)
      return { ...toResult(ran, marker), compileOutput, ...(collected === undefined ? {} : { files: collected }) }
    } catch (error) {
      return infraFailure(
        `The process sandbox failed around a ${request.language} program: ${(error as Error).message}`,
      )
    } finally {
      await rm(root, { recursive: true, force: true }).catch(() => {})
    }
  }

  async #step(
    context: StepContext,
    spec: LanguageSpec,
    argv: string[],
    limits: Limits,
    phase: 'compile' | 'run',
    stdin: string | undefined,
    marker: string | undefined,
    copies: OpenWorkFiles | undefined,
  ): Promise<StepOutcome> {
    const { protections } = context
    const memoryLimit = limits.memoryBytes + (spec.memoryHeadroomBytes ?? 0)
    // Compilers are left RLIMIT_DATA alone; a program's shared mappings count too.
    const addressSpace = phase === 'run' ? memoryLimit + spec.addressSpaceHeadroomBytes : undefined
    // GNU time runs innermost (outside, it would see only bwrap, which does not wait for the sandbox's init)
    // and reopens fd 4, a file of ours; the program could write there too, which only blurs its own stats.
    const measured =
      protections.time === undefined ? argv : [protections.time, '-o', '/dev/fd/4', '-f', TIME_FORMAT, '--', ...argv]
    const limited =
      protections.prlimit === undefined
        ? measured
        : [...prlimitArgs(protections, limits, memoryLimit, addressSpace), '--', ...measured]
    const asUser =
      protections.root && protections.setpriv !== undefined
        ? [
            protections.setpriv,
            `--reuid=${context.uid}`,
            `--regid=${context.uid}`,
            '--clear-groups',
            '--inh-caps=-all',
            '--bounding-set=-all',
            '--no-new-privs',
            '--',
            ...limited,
          ]
        : limited
    const tmpfs = phase === 'compile' ? Math.max(limits.fileBytes, this.#tmpfsBytes) : this.#tmpfsBytes
    const seccomp = protections.bwrap === undefined ? undefined : await openSeccompFilter()
    const sandboxed =
      protections.bwrap === undefined
        ? asUser
        : [
            ...bwrapArgs(protections.bwrap, {
              root: protections.root,
              // A compiler's temporary files may be as large as what it writes; a program gets the small tmpfs.
              tmpfsBytes: tmpfs,
              tools: Object.values(context.tools).filter((tool) => tool !== ''),
              hidden: hiddenHostPaths(),
              writableRoot: context.writableRoot,
              work:
                copies === undefined
                  ? { host: context.work, inside: SANDBOX_WORK_DIR }
                  : { inside: SANDBOX_WORK_DIR, files: copies.files },
              capabilities: protections.root && protections.setpriv !== undefined ? ['CAP_SETUID', 'CAP_SETGID'] : [],
              ...(seccomp === undefined ? {} : { seccompFd: 5 }),
            }),
            ...(protections.root ? [] : ['--disable-userns']),
            '--json-status-fd',
            '3',
            '--',
            ...asUser,
          ]

    // As root, a memory cgroup holds the whole run (all its processes, shared memory and tmpfs files) to one limit.
    const cgroup =
      protections.root && protections.bwrap !== undefined
        ? runCgroup(memoryLimit + (context.writableRoot ? 3 : 2) * tmpfs)
        : undefined
    const statsFile = join(context.root, `${phase}.time`)
    const stats = protections.time === undefined ? undefined : await open(statsFile, 'w')
    await stats?.chmod(0o666)
    const result = await runCommand({
      argv: cgroup === undefined ? sandboxed : cgroup.enter(sandboxed),
      env: context.env,
      cwd: context.work,
      stdin,
      wallMs: limits.wallMs,
      outputBytes: limits.outputBytes,
      marker,
      fd4: stats?.fd,
      fd5: seccomp?.fd,
      files: copies?.handles.map((handle) => handle.fd) ?? [],
    }).finally(() => Promise.all([stats?.close(), seccomp?.close()]))
    if (protections.bwrap === undefined && protections.root && protections.setpriv !== undefined) {
      // No pid namespace to take the leftovers with it; the run's own uid finds them all (#run checked for kill).
      spawnSync(
        protections.setpriv,
        [
          `--reuid=${context.uid}`,
          `--regid=${context.uid}`,
          '--clear-groups',
          '--',
          protections.kill ?? 'kill',
          '-KILL',
          '-1',
        ],
        { stdio: 'ignore' },
      )
    }
    const oomKilled = (await cgroup?.oomKilled()) ?? false
    await cgroup?.remove()
    const measures = parseTimeReport(await readFile(statsFile, 'utf8').catch(() => ''))
    const stderr = result.stderr.capture().text
    // The cgroup's OOM killer may pick bwrap itself, which then reports nothing: the run's memory, not our failure.
    const infra = oomKilled ? undefined : infraProblem(result, protections, stderr)
    const signal = result.signal ?? (result.exitCode === null ? undefined : signalFromStatus(result.exitCode))
    const ending: Ending = {
      step: phase,
      exitCode: signal === undefined ? result.exitCode : null,
      signal,
      wallLimitHit: result.wallLimitHit,
      oomKilled,
      stderr,
      cpuMs: measures?.cpuMs,
      peakMemoryBytes: measures?.peakMemoryBytes,
      markerRequired: marker !== undefined,
      markerSeen: result.stdout.markerSeen,
    }
    return { result, ending, infra, verdict: classify(ending, spec, limits) }
  }
}

/** A memory cgroup for one step, where one can be made; a step runs without when making it fails. */
function runCgroup(limitBytes: number): RunCgroup | undefined {
  try {
    return memoryCgroups()?.create(limitBytes)
  } catch (error) {
    warnOnce(
      'cgroup',
      `no memory cgroup for a run (${(error as Error).message}): its processes are held to the memory limit each, not together.`,
    )
    return undefined
  }
}

let seccompFile: Promise<string | undefined> | undefined

/** The seccomp filter, written once per process to a private file; each step reads it from an fd of its own. */
async function openSeccompFilter(): Promise<FileHandle | undefined> {
  seccompFile ??= (async () => {
    const filter = seccompFilter()
    if (filter === undefined) return undefined
    const dir = await mkdtemp(join(tmpdir(), 'testbench-seccomp-'))
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
    await writeFile(join(dir, 'filter'), filter, { mode: 0o400 })
    return join(dir, 'filter')
  })()
  const path = await seccompFile
  return path === undefined ? undefined : open(path, 'r')
}

interface StepContext {
  protections: HostProtections
  uid: number
  /** Host dir of the run: holds `work` and GNU time's reports. */
  root: string
  /** Host path of the work dir. */
  work: string
  env: Record<string, string>
  tools: Toolchain
  /** RunRequest.writableRoot. */
  writableRoot: boolean
}

interface StepOutcome {
  result: CommandResult
  ending: Ending
  verdict: ReturnType<typeof classify>
  infra: string | undefined
}

function toResult(step: StepOutcome, marker: string | undefined): RunResult {
  return {
    outcome: step.verdict.outcome,
    reason: step.verdict.reason,
    stdout: step.result.stdout.capture(),
    stderr: step.result.stderr.capture(),
    exitCode: step.ending.exitCode,
    signal: step.ending.signal,
    wallMs: step.result.wallMs,
    cpuMs: step.ending.cpuMs,
    peakMemoryBytes: step.ending.peakMemoryBytes,
    compileOutput: undefined,
    markerSeen: marker === undefined ? undefined : step.result.stdout.markerSeen,
  }
}

function prlimitArgs(
  protections: HostProtections,
  limits: Limits,
  memoryBytes: number,
  addressSpaceBytes: number | undefined,
): string[] {
  // RLIMIT_DATA holds the memory limit; RLIMIT_AS, with room for what runtimes reserve, also counts shared mappings.
  const args = [
    protections.prlimit ?? 'prlimit',
    `--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + 1}`,
    `--data=${memoryBytes}`,
    ...(addressSpaceBytes === undefined ? [] : [`--as=${addressSpaceBytes}`]),
    `--fsize=${limits.fileBytes}`,
    '--nofile=1024',
    '--core=0',
  ]
  // Without a uid of its own (and outside a user namespace), the count would include every process of ours.
  const ownCount = protections.bwrap !== undefined || (protections.root && protections.setpriv !== undefined)
  if (ownCount) args.push(`--nproc=${limits.processes}`)
  return args
}

async function chownTree(work: string, names: readonly string[], uid: number): Promise<void> {
  const paths = new Set<string>([work])
  for (const name of names) {
    let path = join(work, name)
    while (path !== work && !paths.has(path)) {
      paths.add(path)
      path = dirname(path)
    }
  }
  for (const path of paths) await chown(path, uid, uid)
}

/** bwrap reports the child's exit on fd 3; no report (and no kill of ours) means the sandbox itself failed. */
function infraProblem(result: CommandResult, protections: HostProtections, stderr: string): string | undefined {
  if (result.spawnError !== undefined)
    return `The sandbox could not start (${result.spawnError.message}): ${SANDBOX_TOOLS_HINT}`
  if (protections.bwrap === undefined || result.wallLimitHit) return undefined
  if (result.status.includes('"exit-code"')) return undefined
  const said = stderr.trim().split('\n').slice(-3).join(' | ')
  return `bwrap failed to set up the sandbox (exit status ${result.exitCode}): ${said || 'no message'}. ${SANDBOX_TOOLS_HINT}`
}

const SANDBOX_TOOLS_HINT =
  'check that bwrap is installed and works here (apt-get install bubblewrap util-linux; bwrap --ro-bind / / true), or run with SANDBOX=docker.'
