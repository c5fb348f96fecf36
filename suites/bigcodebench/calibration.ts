/**
 * Calibration, as the official harness's ground-truth step: every canonical solution runs once in
 * this environment. A task whose canonical solution fails is excluded, with the reason; the others
 * keep their canonical CPU time (their limit is at least that). Each task's result is a file of
 * its own in the cache, named by what the result depends on (the environment's interpreter and the
 * versions of what that task imports, the runner, the limits, the task itself), so the part files
 * and shards of a run each calibrate their own tasks, workers never write the same file, and a
 * task runs again only when something it imports changed.
 */
import { createHash } from 'node:crypto'
import { mkdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomically } from '../../harness/atomic-file.ts'
import { sandboxConcurrency } from '../../adapters/sandbox/concurrency.ts'
import { isRecord } from '../../harness/datasets/dataset-file.ts'
import { cacheDir } from '../../harness/knobs.ts'
import { canonicalProgram, taskNumber, type BigCodeBenchTask } from './dataset.ts'
import { pythonEnvironment, type PythonEnvironment } from './environment.ts'
import { EXCLUSION_CATEGORIES, exclusionOf, type Exclusion, type ExclusionCategory } from './exclusion.ts'
import { claim } from './calibration-claim.ts'
import { RUNNER_VERSION, runChecks, wallBackstopSeconds, type RawMemoryAccess } from './run-checks.ts'
import type { TaskRun } from './task-run.ts'

export type CalibrationEntry =
  | { status: 'scored'; canonicalMs: number; canonicalCpuMs: number; rawMemory: RawMemoryAccess }
  | ({ status: 'excluded' } & Exclusion)

export interface CalibrationOptions {
  /** The dataset release: its tests differ between versions, so each has its own files. */
  version: string
  memoryBytes: number
  /** Seconds a canonical solution may run, on an idle machine's clock (the official TIMEOUT_LIMIT, 240). */
  timeLimitSeconds: number
  /** Run every task again even when the cache has it (the cache is rewritten). */
  fresh?: boolean
  env?: NodeJS.ProcessEnv
  progress?: (line: string) => void
}

export interface Calibration {
  entries: Map<string, CalibrationEntry>
  /** What the warm interpreter preloads for these tasks. */
  preload: readonly string[]
  /** Where the entries are kept. */
  dir: string
}

/**
 * The calibration of `tasks`, once per process for the same tasks and options: cached entries, and
 * runs of the canonical solutions that have none, `startAt` first (a part file's own slice). The
 * workers of a run share the work through claims (calibration-claim.ts): each runs what no other
 * has claimed, then waits for the rest.
 */
export function calibrate(
  tasks: readonly BigCodeBenchTask[],
  options: CalibrationOptions,
  startAt = 0,
): Promise<Calibration> {
  const key = JSON.stringify([
    tasks.map((task) => task.id),
    options.version,
    options.memoryBytes,
    options.timeLimitSeconds,
    cacheDir(options.env),
    options.fresh,
  ])
  let calibration = calibrations.get(key)
  if (calibration === undefined) {
    calibration = calibrateAll(tasks, options, startAt)
    calibrations.set(key, calibration)
    calibration.catch(() => calibrations.delete(key))
  }
  return calibration
}
const calibrations = new Map<string, Promise<Calibration>>()

async function calibrateAll(
  tasks: readonly BigCodeBenchTask[],
  options: CalibrationOptions,
  startAt: number,
): Promise<Calibration> {
  const progress = options.progress ?? ((line: string) => process.stderr.write(`${line}\n`))
  const environment = await pythonEnvironment(tasks.flatMap((task) => task.libs))
  const dir = join(cacheDir(options.env), 'bigcodebench', `calibration-${options.version}`)
  const files = new Map(
    tasks.map((task) => [task.id, join(dir, `${taskNumber(task.id)}-${taskKey(task, environment, options)}.json`)]),
  )
  const file = (task: BigCodeBenchTask): string => files.get(task.id) ?? ''
  const entries = new Map<string, CalibrationEntry>()
  const cached = async (task: BigCodeBenchTask): Promise<CalibrationEntry | undefined> =>
    options.fresh ? undefined : readEntry(file(task))
  for (const task of tasks) {
    const entry = await cached(task)
    if (entry !== undefined) entries.set(task.id, entry)
  }
  const ordered = [...tasks.slice(startAt), ...tasks.slice(0, startAt)].filter((task) => !entries.has(task.id))
  if (ordered.length === 0) return { entries, preload: environment.preload, dir }
  progress(
    `BigCodeBench calibration: ${ordered.length} canonical solutions to run (${tasks.length - ordered.length} cached in ${dir})…`,
  )
  await mkdir(dir, { recursive: true })
  const staleMs = 2 * (wallBackstopSeconds(options.timeLimitSeconds + 1) + 60) * 1000
  const tried = new Set<string>()
  let done = 0
  let reported = Date.now()
  /** Runs what this process can claim; returns the tasks another process holds. */
  const runClaimable = async (queue: BigCodeBenchTask[]): Promise<BigCodeBenchTask[]> => {
    const held: BigCodeBenchTask[] = []
    const worker = async (): Promise<void> => {
      for (let task = queue.shift(); task !== undefined; task = queue.shift()) {
        const found = tried.has(task.id) ? undefined : await cached(task)
        if (found !== undefined) {
          entries.set(task.id, found)
          continue
        }
        const claimed = tried.has(task.id) ? undefined : await claim(`${file(task)}.lock`, staleMs)
        if (claimed === undefined) {
          if (!tried.has(task.id)) held.push(task)
          continue
        }
        tried.add(task.id)
        try {
          const entry = await calibrateTask(task, options, environment.preload)
          if (entry !== undefined) {
            entries.set(task.id, entry)
            await writeFileAtomically(file(task), JSON.stringify(entry))
          }
        } finally {
          await claimed.release()
        }
        done += 1
        if (Date.now() - reported > 10_000) {
          reported = Date.now()
          progress(`  calibrated ${done} here; ${tasks.length - entries.size} to go`)
        }
      }
    }
    await Promise.all(Array.from({ length: sandboxConcurrency() }, worker))
    return held
  }
  let held = await runClaimable([...ordered])
  // What others hold: wait for their results, or take over what they left without one.
  while (held.length > 0) {
    await new Promise((resolve) => setTimeout(resolve, 1000))
    held = await runClaimable(held)
  }
  progress(`BigCodeBench calibration: done (${entries.size} of ${tasks.length} tasks calibrated).`)
  return { entries, preload: environment.preload, dir }
}

/**
 * Runs a canonical solution without raw memory, and if it fails, with it: a task keeps raw memory
 * only when its canonical solution needs it. A failure both ways is told apart from flaky tests by
 * the two runs (or a third, when the first failed for what it was refused). An infra failure is not kept.
 */
async function calibrateTask(
  task: BigCodeBenchTask,
  options: CalibrationOptions,
  preload: readonly string[],
): Promise<CalibrationEntry | undefined> {
  const run = (rawMemory: RawMemoryAccess) =>
    runChecks({
      id: task.id,
      program: canonicalProgram(task),
      test: task.test,
      entryPoint: task.entryPoint,
      timeLimitSeconds: options.timeLimitSeconds + 1,
      memoryBytes: options.memoryBytes,
      preload,
      rawMemory,
    })
  const scored = (passed: TaskRun, rawMemory: RawMemoryAccess): CalibrationEntry => ({
    status: 'scored',
    canonicalMs: passed.idleWallMs ?? passed.wallMs,
    canonicalCpuMs: passed.cpuMs,
    rawMemory,
  })
  const blocked: TaskRun = await run('blocked')
  if (blocked.outcome === 'passed') return scored(blocked, 'blocked')
  const allowed: TaskRun = await run('allowed')
  if (allowed.outcome === 'passed') return scored(allowed, 'allowed')
  const first = blocked.tamper.length > 0 ? allowed : blocked
  const exclusion = exclusionOf(first, blocked.tamper.length > 0 ? await run('allowed') : allowed)
  return exclusion.category === 'infra' ? undefined : { status: 'excluded', ...exclusion }
}

/** What a task's canonical result depends on, hashed. */
export function taskKey(
  task: BigCodeBenchTask,
  environment: PythonEnvironment,
  options: Pick<CalibrationOptions, 'memoryBytes' | 'timeLimitSeconds'>,
): string {
  const libraries = [...new Set(task.libs)]
    .sort()
    .map((library) => `${library}: ${environment.libraries.get(library) ?? 'unknown'}`)
  return createHash('sha256')
    .update(
      [
        environment.interpreter,
        `runner ${RUNNER_VERSION}`,
        String(options.memoryBytes),
        String(options.timeLimitSeconds),
        ...libraries,
      ].join('\0'),
    )
    .update('\0')
    .update([task.completePrompt, task.canonicalSolution, task.test, task.entryPoint].join('\0'))
    .digest('hex')
    .slice(0, 16)
}

async function readEntry(file: string): Promise<CalibrationEntry | undefined> {
  let value: unknown
  try {
    value = JSON.parse(await readFile(file, 'utf8'))
  } catch {
    return undefined
  }
  if (!isRecord(value)) return undefined
  if (
    value.status === 'scored' &&
    typeof value.canonicalMs === 'number' &&
    typeof value.canonicalCpuMs === 'number' &&
    (value.rawMemory === 'blocked' || value.rawMemory === 'allowed')
  ) {
    return {
      status: 'scored',
      canonicalMs: value.canonicalMs,
      canonicalCpuMs: value.canonicalCpuMs,
      rawMemory: value.rawMemory,
    }
  }
  const category = EXCLUSION_CATEGORIES.find((known) => known === value.category)
  if (value.status === 'excluded' && category !== undefined && typeof value.reason === 'string')
    return { status: 'excluded', category, reason: value.reason }
  return undefined
}

/** Excluded task ids by category, in a stable order; a task calibration could not run (the sandbox failed) counts as `infra`. */
export function exclusionsByCategory(
  entries: ReadonlyMap<string, CalibrationEntry>,
  ids?: readonly string[],
): Map<ExclusionCategory, string[]> {
  const groups = new Map<ExclusionCategory, string[]>(EXCLUSION_CATEGORIES.map((category) => [category, []]))
  for (const id of ids ?? [...entries.keys()]) {
    const entry = entries.get(id)
    if (entry === undefined) groups.get('infra')?.push(id)
    else if (entry.status === 'excluded') groups.get(entry.category)?.push(id)
  }
  for (const [category, list] of groups) if (list.length === 0) groups.delete(category)
  return groups
}
