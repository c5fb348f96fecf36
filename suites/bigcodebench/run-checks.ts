/**
 * Runs one BigCodeBench program's checks in the sandbox: a sandbox run of its own (so that no
 * program shares a process, a user or a run with another's), on a warm interpreter that has the
 * heavy libraries imported, through `runner/checks_parent.py`, which forks the child that runs the
 * program and its tests and prints the verdict on a line that starts with the run's marker.
 */
import { readFileSync } from 'node:fs'
import { runProgram, type RunResult } from '../../adapters/sandbox/index.ts'
import { isRecord } from '../../harness/datasets/dataset-file.ts'
import { judgeVerdict, type MethodResult, type RunnerVerdict, type TaskRun } from './task-run.ts'

/**
 * Part of calibration's key: bump it when a change to the runner can change a verdict (what
 * passes, the time measured), so that no calibration made before is reused.
 */
export const RUNNER_VERSION = 5

const RUNNER_FILES = [
  'checks_child.py',
  'memory_access.py',
  'memory_digest.py',
  'report_judge.py',
  'tamper_guard.py',
  'test_plan.py',
  'upstream_environment.py',
]
const RUNNER_SOURCES: Readonly<Record<string, string>> = Object.fromEntries([
  ['main.py', readFileSync(new URL('./runner/checks_parent.py', import.meta.url), 'utf8')],
  ...RUNNER_FILES.map((file) => [file, readFileSync(new URL(`./runner/${file}`, import.meta.url), 'utf8')]),
])
const MiB = 1024 * 1024
/** What the program printed that the record keeps (its beginning and its end). */
const OUTPUT_BYTES = 8192
/** Time for the parent to start and judge, beyond the child's own limits. */
const PARENT_ALLOWANCE_S = 30

export interface ChecksRequest {
  id: string
  /** The program as it is evaluated (program.ts). */
  program: string
  /** The task's unittest module. */
  test: string
  entryPoint: string
  /** Seconds the program and its tests may run, on an idle machine's clock (runner/checks_parent.py). */
  timeLimitSeconds: number
  memoryBytes: number
  /** Modules the warm interpreter has imported before it forks (environment.ts's preload). */
  preload: readonly string[]
  /** Whether the program keeps ctypes, numpy's raw views and real addresses (runner/memory_access.py): calibration decides per task. */
  rawMemory: RawMemoryAccess
}

/** `blocked` unless the task's canonical solution or tests need raw memory (calibration.ts). */
export type RawMemoryAccess = 'blocked' | 'allowed'

/** The wall clock's backstop, past the time limit on an idle machine's clock (as checks_parent.py has it). */
export function wallBackstopSeconds(timeLimitSeconds: number): number {
  return 10 * timeLimitSeconds + 60
}

export async function runChecks(request: ChecksRequest): Promise<TaskRun> {
  let seal = ''
  const task = {
    program: request.program,
    test: request.test,
    entryPoint: request.entryPoint,
    timeLimitSeconds: request.timeLimitSeconds,
    outputBytes: OUTPUT_BYTES,
    rawMemory: request.rawMemory,
  }
  const sandboxed = await runProgram({
    language: 'python',
    files: (marker) => {
      seal = marker
      return { ...RUNNER_SOURCES, 'task.json': JSON.stringify(task), seal: marker }
    },
    preload: request.preload,
    // Upstream's container lets tasks write to absolute paths (/fake, /target…).
    writableRoot: true,
    limits: {
      wallMs: (wallBackstopSeconds(request.timeLimitSeconds) + PARENT_ALLOWANCE_S) * 1000,
      cpuSeconds: Math.ceil(4 * request.timeLimitSeconds) + PARENT_ALLOWANCE_S,
      memoryBytes: request.memoryBytes,
      outputBytes: 1 * MiB,
      fileBytes: 256 * MiB,
      processes: 256,
    },
  })
  const verdict = seal === '' ? undefined : verdictLine(sandboxed.stdout.text, seal)
  if (verdict === undefined) return withoutVerdict(request, sandboxed)
  return judgeVerdict(request.id, verdict, request.timeLimitSeconds)
}

/** The parent's verdict: the line that starts with the seal, which the program never saw. */
export function verdictLine(stdout: string, seal: string): RunnerVerdict | undefined {
  const line = stdout.split('\n').find((candidate) => candidate.startsWith(`${seal} `))
  if (line === undefined) return undefined
  try {
    return asVerdict(JSON.parse(line.slice(seal.length + 1)))
  } catch {
    return undefined
  }
}

function asVerdict(value: unknown): RunnerVerdict | undefined {
  if (!isRecord(value) || !Array.isArray(value.methods)) return undefined
  const methods: MethodResult[] = value.methods.filter(isRecord).map((method) => ({
    name: String(method.name),
    status:
      method.status === 'passed' || method.status === 'failed' || method.status === 'skipped' ? method.status : 'error',
    ms: typeof method.ms === 'number' ? method.ms : 0,
    ...(typeof method.detail === 'string' ? { detail: method.detail } : {}),
  }))
  const strings = (field: unknown): string[] => (Array.isArray(field) ? field.map(String) : [])
  const load =
    isRecord(value.load) && typeof value.load.error === 'string'
      ? { stage: loadStage(value.load.stage), error: value.load.error }
      : undefined
  return {
    methods,
    expected: strings(value.expected),
    tamper: strings(value.tamper),
    fixtureErrors: Array.isArray(value.fixtureErrors)
      ? value.fixtureErrors
          .filter(isRecord)
          .map((entry) => ({ name: String(entry.name), detail: String(entry.detail) }))
      : [],
    ...(load === undefined ? {} : { load }),
    ...(typeof value.running === 'string' ? { running: value.running } : {}),
    finished: value.finished === true,
    timedOut: value.timedOut === true,
    ...(value.stoppedBy === 'time' || value.stoppedBy === 'cpu' || value.stoppedBy === 'wall'
      ? { stoppedBy: value.stoppedBy }
      : {}),
    ...(typeof value.idleWallMs === 'number' ? { idleWallMs: value.idleWallMs } : {}),
    childFailed: value.childFailed === true,
    ...(typeof value.signal === 'string' ? { signal: value.signal } : {}),
    cpuMs: typeof value.cpuMs === 'number' ? value.cpuMs : 0,
    wallMs: typeof value.wallMs === 'number' ? value.wallMs : 0,
    output: typeof value.output === 'string' ? value.output : '',
  }
}

function loadStage(stage: unknown): 'compile' | 'run' | 'tests' {
  return stage === 'compile' || stage === 'tests' ? stage : 'run'
}

/**
 * No verdict line: the sandbox broke (its own infra_error, which it decides from facts the
 * program cannot produce), the run passed its wall limit, or the program ended the parent.
 */
function withoutVerdict(request: ChecksRequest, sandboxed: RunResult): TaskRun {
  const base = {
    id: request.id,
    methods: [],
    expected: [],
    tamper: [],
    fixtureErrors: [],
    finished: false,
    timedOut: false,
    childFailed: false,
    cpuMs: sandboxed.cpuMs ?? 0,
    wallMs: sandboxed.wallMs,
    output: sandboxed.stderr.text.trim().split('\n').slice(-5).join('\n'),
    timeLimitMs: request.timeLimitSeconds * 1000,
  }
  if (sandboxed.outcome === 'infra_error')
    return { ...base, outcome: 'infra_error', reason: `The sandbox failed: ${sandboxed.reason}` }
  if (sandboxed.outcome === 'timeout')
    return { ...base, timedOut: true, stoppedBy: 'wall', outcome: 'timeout', reason: sandboxed.reason }
  return {
    ...base,
    outcome: 'runtime_error',
    reason: `The checks ended without a verdict: the program stopped the process that judges it (${sandboxed.reason})`,
  }
}
