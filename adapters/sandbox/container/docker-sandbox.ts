import type Docker from 'dockerode'
import { createRequire } from 'node:module'
import type { Duplex } from 'node:stream'
import { classify, signalFromStatus, type Ending, type Verdict } from '../classify.ts'
import { sandboxLimiter } from '../concurrency.ts'
import { sandboxEnvironment } from '../environment.ts'
import { isLanguage, languageSpec, type Language, type LanguageSpec, type Toolchain } from '../languages.ts'
import { DEFAULT_COMPILE_LIMITS, DEFAULT_RUN_LIMITS, tmpfsBytes, withDefaults, type Limits } from '../limits.ts'
import { seccompSecurityOpt } from './container-seccomp.ts'
import { newMarker } from '../marker.ts'
import { CappedOutput } from '../output.ts'
import type { RunRequest, RunResult, Sandbox } from '../sandbox.ts'
import { infraFailure, sourceFiles } from '../source-files.ts'
import { SANDBOX_BASE_IMAGE, SANDBOX_IMAGE } from '../knobs.ts'
import { ensureSandboxImage } from './sandbox-image.ts'
import { execInContainer, finishedExec, streamEnded } from './container-exec.ts'
import { copyIntoContainer, copyOutOfContainer } from './container-files.ts'
import { probeLacks, probeScript, type ProbeRequest } from './container-tier-probe.ts'
import { parseTimeReport, TIME_FORMAT } from '../time-report.ts'

/** The image built from adapters/sandbox/container/images/Dockerfile (here when missing, or by `.ci/start-podman.sh`). */
export const DEFAULT_SANDBOX_IMAGE = SANDBOX_IMAGE.defaultValue
/** In /tmp, as in the process tier: no other path a program could write (the image and /var/tmp are read-only). */
const WORK_DIR = '/tmp/work'
/**
 * Where the container's start puts its own copies of sleep (its pid 1) and GNU time (each step's parent), mode 0111:
 * a process that execs a file it cannot read is not dumpable, so the program (same uid, nobody) cannot open their
 * /proc memory, fds or environment. `ready` once they are there.
 */
const TOOLS_DIR = '/tmp/.testbench'
const READY = `${TOOLS_DIR}/ready`
const START_SCRIPT = `umask 077 && mkdir ${TOOLS_DIR} && cp /usr/bin/sleep /usr/bin/time ${TOOLS_DIR}/ && chmod 0111 ${TOOLS_DIR}/sleep ${TOOLS_DIR}/time && touch ${READY} && exec ${TOOLS_DIR}/sleep "$0"`
/** Programs run as nobody; their files are owned by it. */
const NOBODY = 65534
const MiB = 1024 * 1024
/** Tools as installed by Debian's packages in the image. */
const IMAGE_TOOLCHAIN: Toolchain = {
  python: '/usr/bin/python3',
  node: '/usr/bin/node',
  java: '/usr/bin/java',
  javac: '/usr/bin/javac',
  rustc: '/usr/bin/rustc',
  go: '/usr/bin/go',
  gcc: '/usr/bin/gcc',
  gxx: '/usr/bin/g++',
  clojureJar: '/usr/share/java/clojure.jar',
}

/** Seconds a container outlives the wall limits of its steps: then it ends and the engine removes it, even when we died (Ctrl-C). */
const LIFETIME_MARGIN_SECONDS = 30

/**
 * The container tier: one container per run (no network, nobody, all capabilities dropped, a read-only
 * image with size-capped tmpfs for what is written, our seccomp profile, memory/CPU/pids limits from the
 * engine), files unpacked by the image's tar before the program starts, each step an exec under prlimit,
 * and the container removed afterwards whatever happened: by us, or by the engine when its bounded
 * lifetime ends (AutoRemove). Talks to DOCKER_HOST (or `host`): the Docker Engine and podman both work.
 */
export class DockerSandbox implements Sandbox {
  readonly tier = 'docker'
  #docker: Promise<Docker> | undefined
  readonly #host: string
  readonly #image: string
  /** The image's id once inspected, for the reports. */
  #imageId: string | undefined
  #engineInfo: Promise<EngineInfo> | undefined
  /** `podman 4.3.1` or `Docker Engine 20.10.24`, once asked. */
  #engineName: string | undefined
  readonly #tmpfsBytes = tmpfsBytes()
  #languages: Promise<Set<Language> | { unreachable: string }> | undefined
  #probe: Promise<string | undefined> | undefined

  /** `host`: the engine's address as DOCKER_HOST takes it (`unix:///path`, `tcp://host:port`); DOCKER_HOST by default. */
  constructor(options: { image?: string; docker?: Docker; host?: string } = {}) {
    this.#docker = options.docker === undefined ? undefined : Promise.resolve(options.docker)
    this.#host =
      options.host ||
      process.env['DOCKER_HOST'] ||
      (process.platform === 'win32' ? 'npipe:////./pipe/docker_engine' : 'unix:///var/run/docker.sock')
    this.#image = options.image ?? SANDBOX_IMAGE.read()
  }

  /**
   * Why this tier cannot run anything here (no engine, no image, or an engine that does not apply the
   * tier's protections: see container-tier-probe.ts), or undefined when it can.
   */
  async unreachable(): Promise<string | undefined> {
    const languages = await this.#imageLanguages()
    if ('unreachable' in languages) return languages.unreachable
    this.#probe ??= this.#probeEngine()
    return this.#probe
  }

  /** The engine's address, as DOCKER_HOST gives it. */
  get host(): string {
    return this.#host
  }

  /** The engine and its version (`podman 4.3.1`, `Docker Engine 20.10.24`), or why it could not be asked. */
  async engine(): Promise<string> {
    const info = await this.#engineDetails()
    return 'problem' in info ? `no engine (${info.problem})` : `${info.name} ${info.version}`
  }

  async unavailable(language: Language): Promise<string | undefined> {
    const languages = await this.#imageLanguages()
    if ('unreachable' in languages) return languages.unreachable
    return languages.has(language)
      ? undefined
      : `${language} cannot run: image ${this.#image} does not list it in its testbench.languages label.`
  }

  /** `docker (podman 4.3.1, image <name> <id>)`; engine and id once asked (after `unreachable()` or a first run). */
  description(): string {
    const engine = this.#engineName === undefined ? '' : `${this.#engineName}, `
    const id = this.#imageId === undefined ? '' : ` ${this.#imageId}`
    return `docker (${engine}image ${this.#image}${id})`
  }

  run(request: RunRequest): Promise<RunResult> {
    return sandboxLimiter.run(() => this.#run(request))
  }

  async close(): Promise<void> {}

  /** Podman takes a seccomp profile as a path, Docker as JSON. */
  async #isPodman(): Promise<boolean> {
    const info = await this.#engineDetails()
    return 'name' in info && info.name === 'podman'
  }

  /** Asked once; a failure is not kept, so that a busy engine is asked again by the next run. */
  #engineDetails(): Promise<EngineInfo> {
    this.#engineInfo ??= this.#engine()
      .then((docker) => withTimeout(docker.version(), 30_000, 'asking the engine its version'))
      .then(
        (version): EngineInfo => {
          const podman = (version.Components ?? []).find((component) => /podman/i.test(component.Name))
          const info: EngineInfo =
            podman === undefined
              ? { name: 'Docker Engine', version: version.Version }
              : { name: 'podman', version: podman.Version }
          this.#engineName = `${info.name} ${info.version}`
          return info
        },
        (error: unknown): EngineInfo => {
          this.#engineInfo = undefined
          return { problem: error instanceof Error ? error.message : String(error) }
        },
      )
    return this.#engineInfo
  }

  /**
   * dockerode (with ssh2, gRPC and protobufjs) costs about 0.3 s of CPU to import: loaded by the first run in this tier, not by
   * every process that imports the sandbox. Node's own require, not a dynamic import: the check before a run executes in the
   * config's reporters, whose module runner (`--configLoader runner`) is closed by then.
   */
  #engine(): Promise<Docker> {
    this.#docker ??= Promise.resolve().then(() => {
      const Dockerode = createRequire(import.meta.url)('dockerode') as typeof Docker
      return new Dockerode(connectionOptions(this.#host))
    })
    return this.#docker
  }

  #imageLanguages(): Promise<Set<Language> | { unreachable: string }> {
    this.#languages ??= this.#inspectImage()
    return this.#languages
  }

  async #inspectImage(): Promise<Set<Language> | { unreachable: string }> {
    const engine = this.#host
    try {
      await withTimeout((await this.#engine()).ping(), 5_000, 'ping')
    } catch (error) {
      return {
        unreachable: `no container engine answers at ${engine} (${(error as Error).message}); start Docker Desktop, Docker or podman (.ci/start-podman.sh, .ci/start-docker.sh) and set DOCKER_HOST to its socket`,
      }
    }
    if (this.#image === DEFAULT_SANDBOX_IMAGE) {
      const base = SANDBOX_BASE_IMAGE.read()
      try {
        await ensureSandboxImage({
          docker: await this.#engine(),
          image: this.#image,
          base,
          log: (line) => process.stderr.write(`${line}\n`),
        })
      } catch (error) {
        return { unreachable: (error as Error).message }
      }
    }
    try {
      const image = await (await this.#engine()).getImage(this.#image).inspect()
      this.#imageId = image.Id
      const label = image.Config?.Labels?.['testbench.languages'] ?? ''
      return new Set(
        label
          .split(',')
          .map((name) => name.trim())
          .filter(isLanguage),
      )
    } catch (error) {
      return {
        unreachable: `image ${this.#image} is missing at ${engine} (${(error as Error).message}); pull or build it, or unset TESTBENCH_SANDBOX_IMAGE to have the default one built`,
      }
    }
  }

  async #run(request: RunRequest): Promise<RunResult> {
    const spec = languageSpec(request.language)
    const runLimits = withDefaults(DEFAULT_RUN_LIMITS, request.limits)
    const compileLimits = withDefaults(DEFAULT_COMPILE_LIMITS, request.compileLimits)
    const missing = await this.unavailable(request.language)
    if (missing !== undefined) return infraFailure(missing)
    const marker = typeof request.files === 'function' ? newMarker() : undefined
    const sources = sourceFiles(request, marker)
    if ('invalid' in sources) return infraFailure(sources.invalid)
    const files = { ...sources.files, ...sources.moduleFiles }
    const main = request.main ?? spec.main
    const tools = IMAGE_TOOLCHAIN
    const env = sandboxEnvironment(WORK_DIR, spec.env?.(WORK_DIR))
    const steps = spec.compile === undefined ? [runLimits] : [runLimits, compileLimits]
    const most = (limit: keyof Limits): number => Math.max(...steps.map((limits) => limits[limit]))
    // prlimit's RLIMIT_DATA normally stops a program first (and its runtime says so); this is the backstop.
    const memory = most('memoryBytes') + (spec.memoryHeadroomBytes ?? 0) + 256 * MiB

    const lifetimeSeconds =
      Math.ceil(steps.reduce((total, limits) => total + limits.wallMs, 0) / 1000) + LIFETIME_MARGIN_SECONDS
    let container: Docker.Container | undefined
    try {
      container = await this.#createContainer({
        env,
        memory,
        processes: most('processes'),
        lifetimeSeconds,
        label: request.language,
      })
      const created = container
      // The work dir is a tmpfs, there once the container runs; the program has not run yet, so a failure here is ours.
      await created.start()
      await copyIntoContainer(created, WORK_DIR, files, NOBODY, READY)
      const step = (argv: string[], limits: Limits, phase: 'compile' | 'run', stepMarker?: string) =>
        this.#step(created, spec, argv, limits, phase, env, phase === 'run' ? request.stdin : undefined, stepMarker)

      let compileOutput: string | undefined
      if (spec.compile !== undefined) {
        const compiled = await step(
          spec.compile(tools, main, Object.keys(files), compileLimits),
          compileLimits,
          'compile',
        )
        compileOutput = [compiled.stdout.capture().text, compiled.stderr.capture().text]
          .filter((text) => text !== '')
          .join('\n')
        if (compiled.verdict.outcome !== 'passed')
          return {
            ...stepResult(compiled, marker),
            compileOutput,
            markerSeen: marker === undefined ? undefined : false,
          }
      }
      const ran = await step(spec.run(tools, main, runLimits), runLimits, 'run', marker)
      const collected =
        request.collect === undefined
          ? undefined
          : await copyOutOfContainer(
              created,
              WORK_DIR,
              request.collect,
              NOBODY,
              runLimits.outputBytes,
              most('fileBytes') + MiB,
            )
      return { ...stepResult(ran, marker), compileOutput, ...(collected === undefined ? {} : { files: collected }) }
    } catch (error) {
      return infraFailure(
        `The container sandbox failed around a ${request.language} program (image ${this.#image}): ${(error as Error).message}`,
      )
    } finally {
      await container?.remove({ force: true }).catch(() => {})
    }
  }

  /**
   * A stopped container as every run gets it. Its command sleeps for its lifetime only: when we cannot remove
   * it (Ctrl-C, a crash), it ends by itself and the engine removes it (AutoRemove), with its tmpfs mounts.
   */
  async #createContainer(shape: {
    env: Record<string, string>
    memory: number
    processes: number
    lifetimeSeconds: number
    label: string
  }): Promise<Docker.Container> {
    return (await this.#engine()).createContainer({
      Image: this.#image,
      Cmd: ['sh', '-c', START_SCRIPT, String(shape.lifetimeSeconds)],
      User: `${NOBODY}:${NOBODY}`,
      WorkingDir: '/',
      Env: Object.entries(shape.env).map(([name, value]) => `${name}=${value}`),
      NetworkDisabled: true,
      Labels: { 'testbench.sandbox': shape.label, 'testbench.sandbox.pid': String(process.pid) },
      HostConfig: {
        AutoRemove: true,
        NetworkMode: 'none',
        Memory: shape.memory,
        MemorySwap: shape.memory,
        PidsLimit: shape.processes,
        NanoCpus: 1e9,
        CapDrop: ['ALL'],
        SecurityOpt: ['no-new-privileges', seccompSecurityOpt(await this.#isPodman())],
        // Nothing of the image is writable: a program writes only to these, which count in the container's memory.
        // `exec` where programs are compiled and run: Docker mounts a tmpfs noexec unless told otherwise.
        ReadonlyRootfs: true,
        Tmpfs: {
          // As the process tier's /tmp (TESTBENCH_SANDBOX_TMPFS_MB): a file-size limit above it (a compile's) cannot make it bigger.
          '/tmp': `rw,exec,nosuid,size=${this.#tmpfsBytes},mode=1777`,
          '/dev/shm': `rw,nosuid,nodev,size=${this.#tmpfsBytes},mode=1777`,
          // podman mounts these as tmpfs of no set size on a read-only root: /var/tmp read-only (as the image would be), /run small.
          '/var/tmp': `ro,nosuid,nodev,size=1m,mode=755`,
          '/run': `rw,nosuid,nodev,size=16m,mode=755`,
        },
      },
    })
  }

  /** One container made as a run's, a file copied in as a program's, and a script that says what it sees. */
  async #probeEngine(): Promise<string | undefined> {
    const request: ProbeRequest = {
      uid: NOBODY,
      processes: DEFAULT_RUN_LIMITS.processes,
      memoryBytes: DEFAULT_RUN_LIMITS.memoryBytes + 256 * MiB,
      fileName: 'testbench-probe.txt',
      fileText: `probe-${process.pid}`,
      workDir: WORK_DIR,
    }
    const details = await this.#engineDetails()
    const engine =
      'problem' in details
        ? `the container engine at ${this.#host}`
        : `the container engine at ${this.#host} (${details.name} ${details.version})`
    let container: Docker.Container | undefined
    try {
      container = await this.#createContainer({
        env: sandboxEnvironment(WORK_DIR),
        memory: request.memoryBytes,
        processes: request.processes,
        lifetimeSeconds: LIFETIME_MARGIN_SECONDS * 2,
        label: 'probe',
      })
      await container.start()
      await copyIntoContainer(container, WORK_DIR, { [request.fileName]: request.fileText }, NOBODY, READY)
      const seen = await execInContainer(container, ['sh', '-c', probeScript(request)], {
        user: `${NOBODY}:${NOBODY}`,
        workingDir: WORK_DIR,
        capBytes: 64 * 1024,
        timeoutMs: 30_000,
      })
      const lacks = probeLacks(seen.stdout.toString('utf8'), request)
      return lacks.length === 0
        ? undefined
        : `${engine} answers but cannot run the container tier with image ${this.#image}: ${lacks.join('; ')}`
    } catch (error) {
      return `${engine} answers but cannot run the container tier with image ${this.#image}: a container made as the tier makes them failed (${(error as Error).message})`
    } finally {
      await container?.remove({ force: true }).catch(() => {})
    }
  }

  async #step(
    container: Docker.Container,
    spec: LanguageSpec,
    argv: string[],
    limits: Limits,
    phase: 'compile' | 'run',
    env: Record<string, string>,
    stdin: string | undefined,
    marker: string | undefined,
  ): Promise<StepOutcome> {
    const statsFile = `/tmp/.testbench-${phase}.time`
    const memory = limits.memoryBytes + (spec.memoryHeadroomBytes ?? 0)
    const cmd = [
      'prlimit',
      `--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + 1}`,
      `--data=${memory}`,
      `--fsize=${limits.fileBytes}`,
      // Here, not as the engine's Ulimits: podman 4.3 then also sets nproc, which runc may not raise.
      '--nofile=1024',
      '--core=0',
      '--',
      `${TOOLS_DIR}/time`,
      '-o',
      statsFile,
      '-f',
      TIME_FORMAT,
      '--',
      // GNU time's statistics file is its fd 3, which it leaves open to the program: closed, then the program exec'd.
      '/bin/sh',
      '-c',
      'exec "$@" 3>&-',
      'sh',
      ...argv,
    ]
    const stdout = new CappedOutput(limits.outputBytes, marker)
    const stderr = new CappedOutput(limits.outputBytes)
    const started = performance.now()
    const exec = await container.exec({
      Cmd: cmd,
      AttachStdin: stdin !== undefined,
      AttachStdout: true,
      AttachStderr: true,
      Env: Object.entries(env).map(([name, value]) => `${name}=${value}`),
      WorkingDir: WORK_DIR,
      User: `${NOBODY}:${NOBODY}`,
    })
    const stream = (await exec.start({ hijack: true, stdin: stdin !== undefined })) as Duplex
    if (stdin !== undefined) stream.end(stdin)
    let wallLimitHit = false
    const ended = streamEnded(stream, stdout, stderr)
    const timer = setTimeout(() => {
      wallLimitHit = true
      container.kill().catch(() => {})
      stream.destroy()
    }, limits.wallMs)
    await ended
    clearTimeout(timer)
    const wallMs = Math.round(performance.now() - started)
    const info = wallLimitHit ? undefined : await finishedExec(exec)
    const status = info?.ExitCode ?? null
    const signal = wallLimitHit ? 'SIGKILL' : status === null ? undefined : signalFromStatus(status)
    // What the program may have broken (its container stopped, the stats file gone) only costs us these facts:
    // never an infra_error, which a program must not be able to bring about.
    const oomKilled = wallLimitHit
      ? false
      : await container.inspect().then(
          (state) => state.State.OOMKilled,
          () => false,
        )
    const measures = wallLimitHit ? undefined : await this.#readStats(container, statsFile).catch(() => undefined)
    const ending: Ending = {
      step: phase,
      exitCode: signal === undefined ? status : null,
      signal,
      wallLimitHit,
      oomKilled,
      stderr: stderr.capture().text,
      cpuMs: measures?.cpuMs,
      peakMemoryBytes: measures?.peakMemoryBytes,
      markerRequired: marker !== undefined,
      markerSeen: stdout.markerSeen,
    }
    return { stdout, stderr, ending, wallMs, verdict: classify(ending, spec, limits) }
  }

  async #readStats(
    container: Docker.Container,
    file: string,
  ): Promise<{ cpuMs: number; peakMemoryBytes: number } | undefined> {
    const exec = await container.exec({
      Cmd: ['cat', file],
      AttachStdout: true,
      AttachStderr: true,
      User: `${NOBODY}:${NOBODY}`,
    })
    const stream = (await exec.start({ hijack: true, stdin: false })) as Duplex
    const out = new CappedOutput(4096)
    await streamEnded(stream, out, new CappedOutput(4096))
    return parseTimeReport(out.capture().text)
  }
}

interface StepOutcome {
  stdout: CappedOutput
  stderr: CappedOutput
  ending: Ending
  wallMs: number
  verdict: Verdict
}

function stepResult(step: StepOutcome, marker: string | undefined): RunResult {
  return {
    outcome: step.verdict.outcome,
    reason: step.verdict.reason,
    stdout: step.stdout.capture(),
    stderr: step.stderr.capture(),
    exitCode: step.ending.exitCode,
    signal: step.ending.signal,
    wallMs: step.wallMs,
    cpuMs: step.ending.cpuMs,
    peakMemoryBytes: step.ending.peakMemoryBytes,
    compileOutput: undefined,
    markerSeen: marker === undefined ? undefined : step.stdout.markerSeen,
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} took more than ${ms} ms`)), ms)
    promise.then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(error instanceof Error ? error : new Error(String(error)))
      },
    )
  })
}

type EngineInfo = { name: 'podman' | 'Docker Engine'; version: string } | { problem: string }

/** dockerode's connection to an engine at a DOCKER_HOST-style address. */
function connectionOptions(host: string): Docker.DockerOptions {
  if (host.startsWith('unix://')) return { socketPath: host.slice('unix://'.length) }
  if (host.startsWith('npipe://')) return { socketPath: host.slice('npipe://'.length) }
  const url = new URL(host.replace(/^tcp:/, process.env['DOCKER_TLS_VERIFY'] === '1' ? 'https:' : 'http:'))
  return { host: url.hostname, port: url.port, protocol: url.protocol === 'https:' ? 'https' : 'http' }
}
