import { classify, type Ending } from '../classify.ts'
import type { ExecServers, ExecStep, ExecStepResult, StepFile } from '../warm-servers/exec-server.ts'
import { compileJavaWarm } from '../warm-servers/jvm-warm-compile.ts'
import type { WarmJavac } from '../warm-servers/jvm-warm-javac.ts'
import type { LanguageSpec, Toolchain } from '../languages.ts'
import type { Limits } from '../limits.ts'
import type { RunResult } from '../sandbox.ts'
import { infraFailure } from '../source-files.ts'
import { MAX_WORK_FILES } from './work-files.ts'
import type { MeasuredStep } from '../warm-servers/measured-step.ts'

/** One run request, ready for the exec servers. */
export interface ExecRun {
  servers: ExecServers
  spec: LanguageSpec
  tools: Toolchain
  files: Record<string, string>
  main: string
  stdin: string | undefined
  runLimits: Limits
  compileLimits: Limits
  uid: number
  marker: string | undefined
  collect: readonly string[] | undefined
  /** The environment of both steps (HOME is the work dir). */
  env: Record<string, string>
  tmpfsBytes: number
  /** Java compiles here when given (undefined result: a javac of its own on the exec server). */
  javac: WarmJavac | undefined
}

/**
 * A run on the warm exec servers: the compile step (warm javac for Java) in an isolation of its own, its work dir
 * sent back, then the program in another with those files. Undefined when a server could not serve a step: the
 * caller runs the request cold, from the start.
 */
export async function runOnExecServers(run: ExecRun): Promise<RunResult | undefined> {
  const { spec, marker } = run
  const toolPaths = Object.values(run.tools).filter((tool) => tool !== '')
  const step = (
    argv: string[],
    limits: Limits,
    phase: 'compile' | 'run',
    files: ReadonlyMap<string, StepFile>,
  ): Promise<ExecStepResult | undefined> => {
    const memoryLimit = limits.memoryBytes + (spec.memoryHeadroomBytes ?? 0)
    // A compiler's temporary files may be as large as what it writes; a program gets the small tmpfs.
    const tmpfsBytes = phase === 'compile' ? Math.max(limits.fileBytes, run.tmpfsBytes) : run.tmpfsBytes
    const request: ExecStep = {
      tools: toolPaths,
      argv,
      env: run.env,
      files,
      stdin: phase === 'run' ? run.stdin : undefined,
      limits,
      dataBytes: memoryLimit,
      // Compilers are left RLIMIT_AS alone; a program's shared mappings count too.
      addressSpaceBytes: phase === 'run' ? memoryLimit + spec.addressSpaceHeadroomBytes : undefined,
      cgroupBytes: memoryLimit + 2 * tmpfsBytes,
      tmpfsBytes,
      uid: run.uid,
      marker: phase === 'run' ? marker : undefined,
      ship: phase === 'compile' ? 'all' : (run.collect ?? []),
      shipBytes: phase === 'compile' ? run.tmpfsBytes : limits.outputBytes,
    }
    return run.servers.run(request)
  }

  let files: ReadonlyMap<string, StepFile> = new Map(
    Object.entries(run.files).map(([path, text]) => [path, { bytes: Buffer.from(text), executable: false }]),
  )
  let compileOutput: string | undefined
  const warmJava =
    run.javac === undefined
      ? undefined
      : await compileJavaWarm(run.javac, run.files, run.main, spec, run.compileLimits, marker)
  if (warmJava !== undefined) {
    compileOutput = warmJava.compileOutput
    if (warmJava.failed !== undefined) return warmJava.failed
    files = new Map([
      ...files,
      ...[...warmJava.classes].map(([path, bytes]) => [path, { bytes, executable: false }] as const),
    ])
  } else if (spec.compile !== undefined) {
    const compiled = await step(
      spec.compile(run.tools, run.main, Object.keys(run.files), run.compileLimits),
      run.compileLimits,
      'compile',
      files,
    )
    if (compiled === undefined) return undefined
    compileOutput = [compiled.stdout.capture().text, compiled.stderr.capture().text]
      .filter((text) => text !== '')
      .join('\n')
    if (compiled.tooBig !== undefined)
      return tooBigResult(
        `The program's files and what its compile step made come to ${compiled.tooBig}.`,
        compileOutput,
        marker,
      )
    const result = stepResult(compiled, spec, run.compileLimits, undefined, 'compile')
    if (result.outcome !== 'passed')
      return { ...result, compileOutput, markerSeen: marker === undefined ? undefined : false }
    files = compiled.files
  }
  const tooBig = overTmpfs(files, run.tmpfsBytes)
  if (tooBig !== undefined)
    return tooBigResult(`The program's files and what its compile step made come to ${tooBig}.`, compileOutput, marker)
  const ran = await step(spec.run(run.tools, run.main, run.runLimits), run.runLimits, 'run', files)
  if (ran === undefined) return undefined
  if (ran.tooBig !== undefined) return tooBigResult(`The program's files come to ${ran.tooBig}.`, compileOutput, marker)
  const collected =
    run.collect === undefined
      ? undefined
      : Object.fromEntries([...ran.files].map(([path, file]) => [path, file.bytes.toString('utf8')]))
  return {
    ...stepResult(ran, spec, run.runLimits, marker, 'run'),
    compileOutput,
    ...(collected === undefined ? {} : { files: collected }),
  }
}

/** Why the work dir's files would not fit in a program's /tmp, as the cold path's copies would not; undefined when they fit. */
function overTmpfs(files: ReadonlyMap<string, StepFile>, tmpfsBytes: number): string | undefined {
  if (files.size > MAX_WORK_FILES) return `more than ${MAX_WORK_FILES} files`
  const bytes = [...files.values()].reduce((sum, file) => sum + file.bytes.length, 0)
  return bytes > tmpfsBytes
    ? `more than ${tmpfsBytes} bytes, the size of the sandbox's /tmp (TESTBENCH_SANDBOX_TMPFS_MB)`
    : undefined
}

/** A run's result from how a measured step ended: classified as every tier classifies. */
export function stepResult(
  ran: MeasuredStep,
  spec: LanguageSpec,
  limits: Limits,
  marker: string | undefined,
  step: 'compile' | 'run',
): RunResult {
  const stderr = ran.stderr.capture()
  const ending: Ending = {
    step,
    exitCode: ran.exitCode,
    signal: ran.signal,
    wallLimitHit: ran.wallLimitHit,
    oomKilled: ran.oomKilled,
    stderr: stderr.text,
    cpuMs: ran.cpuMs,
    peakMemoryBytes: ran.peakMemoryBytes,
    markerRequired: marker !== undefined,
    markerSeen: ran.stdout.markerSeen,
  }
  const verdict = classify(ending, spec, limits)
  return {
    outcome: verdict.outcome,
    reason: verdict.reason,
    stdout: ran.stdout.capture(),
    stderr,
    exitCode: ran.exitCode,
    signal: ran.signal,
    wallMs: ran.wallMs,
    cpuMs: ran.cpuMs,
    peakMemoryBytes: ran.peakMemoryBytes,
    compileOutput: undefined,
    markerSeen: marker === undefined ? undefined : ran.stdout.markerSeen,
  }
}

/** The program's files or its compiled output do not fit in its /tmp: its own doing, so a runtime_error. */
export function tooBigResult(reason: string, compileOutput: string | undefined, marker: string | undefined): RunResult {
  return {
    ...infraFailure(reason, compileOutput),
    outcome: 'runtime_error',
    markerSeen: marker === undefined ? undefined : false,
  }
}
