import type Docker from 'dockerode'
import type { Duplex } from 'node:stream'
import { classify, signalFromStatus, type Ending, type Verdict } from './classify.ts'
import { sandboxLimiter } from './concurrency.ts'
import { sandboxEnvironment } from './environment.ts'
import { isLanguage, languageSpec, type Language, type LanguageSpec, type Toolchain } from './languages.ts'
import { DEFAULT_COMPILE_LIMITS, DEFAULT_RUN_LIMITS, tmpfsBytes, withDefaults, type Limits } from './limits.ts'
import { seccompSecurityOpt } from './container-seccomp.ts'
import { newMarker } from './marker.ts'
import { CappedOutput } from './output.ts'
import type { RunRequest, RunResult, Sandbox } from './sandbox.ts'
import { infraFailure, sourceFiles } from './source-files.ts'
import { SANDBOX_BASE_IMAGE, SANDBOX_IMAGE } from './knobs.ts'
import { ensureSandboxImage } from './sandbox-image.ts'
import { packTar, unpackTar } from './tar.ts'
import { parseTimeReport, TIME_FORMAT } from './time-report.ts'

/** The image built from adapters/sandbox/images/Dockerfile (here when missing, or by `.ci/start-podman.sh`). */
export const DEFAULT_SANDBOX_IMAGE = SANDBOX_IMAGE.defaultValue
const WORK_DIR = '/work'
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

/**
 * The container tier: one container per run (no network, nobody, all capabilities dropped, a read-only
 * image with size-capped tmpfs for what is written, our seccomp profile, memory/CPU/pids limits from the
 * engine), files copied in, each step an exec under prlimit,
 * and the container removed afterwards whatever happened. Talks to DOCKER_HOST (podman works).
 */
export class DockerSandbox implements Sandbox {
  readonly tier = 'docker'
  #docker: Promise<Docker> | undefined
  readonly #image: string
  /** The image's id once inspected, for the reports. */
  #imageId: string | undefined
  #podman: Promise<boolean> | undefined
  readonly #tmpfsBytes = tmpfsBytes()
  #languages: Promise<Set<Language> | { unreachable: string }> | undefined

  constructor(options: { image?: string; docker?: Docker } = {}) {
    this.#docker = options.docker === undefined ? undefined : Promise.resolve(options.docker)
    this.#image = options.image ?? SANDBOX_IMAGE.read()
  }

  /** Why this tier cannot run anything here (no engine, or no image), or undefined when it can. */
  async unreachable(): Promise<string | undefined> {
    const languages = await this.#imageLanguages()
    return 'unreachable' in languages ? languages.unreachable : undefined
  }

  async unavailable(language: Language): Promise<string | undefined> {
    const languages = await this.#imageLanguages()
    if ('unreachable' in languages) return languages.unreachable
    return languages.has(language) ? undefined : `${language} cannot run: image ${this.#image} does not list it in its testbench.languages label.`
  }

  /** `docker (image <name> <id>)`; the id once the image was inspected (after `unreachable()` or a first run). */
  description(): string {
    return `docker (image ${this.#image}${this.#imageId === undefined ? '' : ` ${this.#imageId}`})`
  }

  run(request: RunRequest): Promise<RunResult> {
    return sandboxLimiter.run(() => this.#run(request))
  }

  async close(): Promise<void> {}

  /** Podman takes a seccomp profile as a path, Docker as JSON. */
  #isPodman(): Promise<boolean> {
    this.#podman ??= this.#engine()
      .then((docker) => docker.version())
      .then(
        (version) => (version.Components ?? []).some((component) => /podman/i.test(component.Name)),
        () => false,
      )
    return this.#podman
  }

  /** dockerode (with ssh2, gRPC and protobufjs) costs about 0.3 s of CPU to import: loaded by the first run in this tier, not by every process that imports the sandbox. */
  #engine(): Promise<Docker> {
    this.#docker ??= import('dockerode').then(({ default: Docker }) => new Docker())
    return this.#docker
  }

  #imageLanguages(): Promise<Set<Language> | { unreachable: string }> {
    this.#languages ??= this.#inspectImage()
    return this.#languages
  }

  async #inspectImage(): Promise<Set<Language> | { unreachable: string }> {
    const engine = process.env['DOCKER_HOST'] ?? 'unix:///var/run/docker.sock'
    try {
      await withTimeout((await this.#engine()).ping(), 5_000, 'ping')
    } catch (error) {
      return { unreachable: `no container engine answers at ${engine} (${(error as Error).message}); start one (.ci/start-podman.sh) and set DOCKER_HOST` }
    }
    if (this.#image === DEFAULT_SANDBOX_IMAGE) {
      const base = SANDBOX_BASE_IMAGE.read()
      try {
        await ensureSandboxImage({ docker: await this.#engine(), image: this.#image, base, log: (line) => process.stderr.write(`${line}\n`) })
      } catch (error) {
        return { unreachable: (error as Error).message }
      }
    }
    try {
      const image = await (await this.#engine()).getImage(this.#image).inspect()
      this.#imageId = image.Id
      const label = image.Config?.Labels?.['testbench.languages'] ?? ''
      return new Set(label.split(',').map((name) => name.trim()).filter(isLanguage))
    } catch (error) {
      return { unreachable: `image ${this.#image} is missing at ${engine} (${(error as Error).message}); pull or build it, or unset TESTBENCH_SANDBOX_IMAGE to have the default one built` }
    }
  }

  async #run(request: RunRequest): Promise<RunResult> {
    const spec = languageSpec(request.language)
    const runLimits = withDefaults(DEFAULT_RUN_LIMITS, request.limits)
    const compileLimits = withDefaults(DEFAULT_COMPILE_LIMITS, request.compileLimits)
    const missing = await this.unavailable(request.language)
    if (missing !== undefined) return infraFailure(missing)
    const marker = typeof request.files === 'function' ? newMarker() : undefined
    const files = sourceFiles(request.files, marker, request.collect)
    if ('invalid' in files) return infraFailure(files.invalid)
    const main = request.main ?? spec.main
    const tools = IMAGE_TOOLCHAIN
    const env = sandboxEnvironment(WORK_DIR, spec.env?.(WORK_DIR))
    const steps = spec.compile === undefined ? [runLimits] : [runLimits, compileLimits]
    const most = (limit: keyof Limits): number => Math.max(...steps.map((limits) => limits[limit]))
    // prlimit's RLIMIT_DATA normally stops a program first (and its runtime says so); this is the backstop.
    const memory = most('memoryBytes') + (spec.memoryHeadroomBytes ?? 0) + 256 * MiB

    let container: Docker.Container | undefined
    try {
      container = await (await this.#engine()).createContainer({
        Image: this.#image,
        Cmd: ['sleep', 'infinity'],
        User: `${NOBODY}:${NOBODY}`,
        WorkingDir: WORK_DIR,
        Env: Object.entries(env).map(([name, value]) => `${name}=${value}`),
        NetworkDisabled: true,
        Labels: { 'testbench.sandbox': request.language, 'testbench.sandbox.pid': String(process.pid) },
        HostConfig: {
          NetworkMode: 'none',
          Memory: memory,
          MemorySwap: memory,
          PidsLimit: most('processes'),
          NanoCpus: 1e9,
          CapDrop: ['ALL'],
          SecurityOpt: ['no-new-privileges', seccompSecurityOpt(await this.#isPodman())],
          // Nothing of the image is writable: a program writes only to these, which count in the container's memory.
          ReadonlyRootfs: true,
          Tmpfs: {
            '/tmp': `rw,nosuid,size=${Math.max(most('fileBytes'), this.#tmpfsBytes)},mode=1777`,
            [WORK_DIR]: `rw,nosuid,size=${Math.max(most('fileBytes'), this.#tmpfsBytes)},mode=1777`,
            '/dev/shm': `rw,nosuid,nodev,size=${this.#tmpfsBytes},mode=1777`,
            // podman mounts these as tmpfs of no set size on a read-only root; small ones instead.
            '/var/tmp': `rw,nosuid,nodev,size=${this.#tmpfsBytes},mode=1777`,
            '/run': `rw,nosuid,nodev,size=16m,mode=755`,
          },
        },
      })
      const created = container
      // The work dir is a tmpfs, there once the container runs.
      await created.start()
      await created.putArchive(packTar(files.files, NOBODY), { path: WORK_DIR })
      const step = (argv: string[], limits: Limits, phase: 'compile' | 'run', stepMarker?: string) =>
        this.#step(created, spec, argv, limits, phase, env, phase === 'run' ? request.stdin : undefined, stepMarker)

      let compileOutput: string | undefined
      if (spec.compile !== undefined) {
        const compiled = await step(spec.compile(tools, main, Object.keys(files.files), compileLimits), compileLimits, 'compile')
        compileOutput = [compiled.stdout.capture().text, compiled.stderr.capture().text].filter((text) => text !== '').join('\n')
        if (compiled.verdict.outcome !== 'passed') return { ...stepResult(compiled, marker), compileOutput, markerSeen: marker === undefined ? undefined : false }
      }
      const ran = await step(spec.run(tools, main, runLimits), runLimits, 'run', marker)
      const collected = request.collect === undefined ? undefined : await collectFromContainer(created, request.collect, runLimits.outputBytes)
      return { ...stepResult(ran, marker), compileOutput, ...(collected === undefined ? {} : { files: collected }) }
    } catch (error) {
      return infraFailure(`The container sandbox failed around a ${request.language} program (image ${this.#image}): ${(error as Error).message}`)
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
      '/usr/bin/time', '-o', statsFile, '-f', TIME_FORMAT, '--',
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
    const ended = new Promise<void>((resolve) => {
      demultiplex(stream, stdout, stderr)
      stream.on('end', resolve)
      stream.on('close', resolve)
      stream.on('error', () => resolve())
    })
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
    const oomKilled = wallLimitHit ? false : await container.inspect().then((state) => state.State.OOMKilled, () => false)
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

  async #readStats(container: Docker.Container, file: string): Promise<{ cpuMs: number; peakMemoryBytes: number } | undefined> {
    const exec = await container.exec({ Cmd: ['cat', file], AttachStdout: true, AttachStderr: true, User: `${NOBODY}:${NOBODY}` })
    const stream = (await exec.start({ hijack: true, stdin: false })) as Duplex
    const out = new CappedOutput(4096)
    await new Promise<void>((resolve) => {
      demultiplex(stream, out, new CappedOutput(4096))
      stream.on('end', resolve)
      stream.on('close', resolve)
      stream.on('error', () => resolve())
    })
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

/** Copies files out of the container; the engine resolves symlinks inside the container's own filesystem. */
async function collectFromContainer(container: Docker.Container, names: readonly string[], capBytes: number): Promise<Record<string, string>> {
  const files: Record<string, string> = {}
  for (const name of names) {
    try {
      const archive = await container.getArchive({ path: `${WORK_DIR}/${name}` })
      const chunks: Buffer[] = []
      for await (const chunk of archive) chunks.push(chunk as Buffer)
      const [entry] = unpackTar(Buffer.concat(chunks))
      if (entry !== undefined) files[name] = entry.content.subarray(0, capBytes).toString('utf8')
    } catch {
      // not there: not collected
    }
  }
  return files
}

/** Docker's attach stream: frames of [kind (1 stdout, 2 stderr), 0, 0, 0, length (u32 BE)] then the bytes. */
function demultiplex(stream: Duplex, stdout: CappedOutput, stderr: CappedOutput): void {
  let pending: Buffer = Buffer.alloc(0)
  stream.on('data', (chunk: Buffer) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk])
    while (pending.length >= 8) {
      const length = pending.readUInt32BE(4)
      if (pending.length < 8 + length) break
      const payload = pending.subarray(8, 8 + length)
      if (pending[0] === 2) stderr.push(payload)
      else stdout.push(payload)
      pending = pending.subarray(8 + length)
    }
  })
}

/** The stream can end a moment before the engine records the exit code. */
async function finishedExec(exec: Docker.Exec): Promise<Docker.ExecInspectInfo> {
  let info = await exec.inspect()
  for (let attempt = 0; info.Running && attempt < 40; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 25))
    info = await exec.inspect()
  }
  return info
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
