import { runWidePaces } from '../harness/run-wide/run-slots.ts'
import { runWideBatches } from '../harness/batches/batch-server.ts'
import { paceText } from '../adapters/models/requests/endpoint-pace.ts'
import { dirname } from 'node:path'
import type { Reporter, TestCase, TestModule, TestRunEndReason, TestSpecification } from 'vitest/node'
import type { ItemRecord } from '../harness/records/item-record.ts'
import type { Score } from '../harness/scoring/score.ts'
import { recordOf } from './collect-records.ts'
import { scorerFor } from './scorers.ts'

export interface ProgressReporterOptions {
  /** Print progress lines. Default: when stdout is not a terminal (on a terminal Vitest's own reporter shows progress). */
  enabled?: boolean
  /** Longest silence, in ms, while a suite has items left. Default: 10 000. */
  intervalMs?: number
  /** A line each time this fraction of a suite's items has finished. Default: 0.05. */
  step?: number
  /** Where lines go. Default: stdout. */
  write?: (line: string) => void
  /** The clock, in ms. Default: performance.now. */
  now?: () => number
}

/** One suite folder's progress: its part files run in one or several workers. */
interface SuiteProgress {
  suite: string
  /** Part files of the folder in this run, and the runnable items of those collected so far. */
  files: number
  collected: Map<string, number>
  records: ItemRecord[]
  startedAt: number
  printedAt: number
  printedDone: number
}

/**
 * Without a terminal, Vitest prints nothing until a test file ends: a 328-item file is minutes of
 * silence in CI. This reporter prints, for every benchmark suite, a line with items done of total,
 * the score so far and an estimate of the time left, each time another 5 % of its items has
 * finished and at least every 10 s while items are left.
 */
export class ProgressReporter implements Reporter {
  private readonly enabled: boolean
  private readonly intervalMs: number
  private readonly step: number
  private readonly write: (line: string) => void
  private readonly now: () => number
  private readonly suites = new Map<string, SuiteProgress>()
  private filesByFolder = new Map<string, number>()
  private timer: NodeJS.Timeout | undefined

  constructor(options: ProgressReporterOptions = {}) {
    this.enabled = options.enabled ?? process.stdout.isTTY !== true
    this.intervalMs = options.intervalMs ?? 10_000
    this.step = options.step ?? 0.05
    this.write = options.write ?? ((line) => process.stdout.write(`${line}\n`))
    this.now = options.now ?? (() => performance.now())
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.suites.clear()
    this.filesByFolder = new Map()
    for (const { moduleId } of specifications)
      this.filesByFolder.set(dirname(moduleId), (this.filesByFolder.get(dirname(moduleId)) ?? 0) + 1)
    if (!this.enabled) return
    clearInterval(this.timer)
    this.timer = setInterval(() => this.tick(), Math.min(1000, this.intervalMs))
    this.timer.unref()
  }

  onTestModuleCollected(testModule: TestModule): void {
    let runnable = 0
    let suite: string | undefined
    for (const testCase of testModule.children.allTests()) {
      const declared = testCase.meta().declared
      if (!declared || testCase.options.mode !== 'run') continue
      suite ??= declared.suite
      runnable++
    }
    if (suite === undefined) return
    const folder = dirname(testModule.moduleId)
    const now = this.now()
    const progress = this.suites.get(folder) ?? {
      suite,
      files: this.filesByFolder.get(folder) ?? 1,
      collected: new Map<string, number>(),
      records: [],
      startedAt: now,
      printedAt: now,
      printedDone: 0,
    }
    progress.collected.set(testModule.moduleId, runnable)
    this.suites.set(folder, progress)
  }

  onTestCaseResult(testCase: TestCase): void {
    const progress = this.suites.get(dirname(testCase.module.moduleId))
    const record = recordOf(testCase)
    if (!progress || !record || testCase.result().state === 'skipped') return
    progress.records.push(record)
    const { total } = totalOf(progress)
    const due =
      progress.records.length - progress.printedDone >= Math.max(1, Math.ceil(total * this.step)) ||
      progress.records.length >= total
    if (due) this.print(progress)
  }

  onTestRunEnd(_modules: ReadonlyArray<TestModule>, _errors: unknown, _reason: TestRunEndReason): void {
    clearInterval(this.timer)
    this.timer = undefined
  }

  private tick(): void {
    const now = this.now()
    for (const progress of this.suites.values()) {
      if (progress.records.length < totalOf(progress).total && now - progress.printedAt >= this.intervalMs)
        this.print(progress)
    }
  }

  private print(progress: SuiteProgress): void {
    if (!this.enabled) return
    const now = this.now()
    progress.printedAt = now
    progress.printedDone = progress.records.length
    const line = progressLine(
      progress.suite,
      progress.records.length,
      totalOf(progress),
      scoresSoFar(progress),
      now - progress.startedAt,
    )
    this.write([line, ...paceNotes(), ...runWideBatches()].join(' · '))
  }
}

/** The suite's items in this run: exact once every part file is collected, else estimated from those that are. */
function totalOf(progress: SuiteProgress): { total: number; estimated: boolean } {
  const counts = [...progress.collected.values()]
  const known = counts.reduce((sum, count) => sum + count, 0)
  const missing = progress.files - counts.length
  if (missing <= 0) return { total: known, estimated: false }
  return { total: known + Math.round((known / counts.length) * missing), estimated: true }
}

function scoresSoFar(progress: SuiteProgress): Score[] {
  try {
    return scorerFor(progress.suite)(progress.records)
  } catch {
    // A scorer may need items that have not finished yet; the counts still say how far the run is.
    return []
  }
}

export function progressLine(
  suite: string,
  done: number,
  total: { total: number; estimated: boolean },
  scores: readonly Score[],
  elapsedMs: number,
): string {
  const count = `${suite}: ${done}/${total.estimated ? '~' : ''}${total.total} items`
  const scored = scores
    .map((score) => `${score.name} ${score.display}${score.model ? ` (${score.model})` : ''}`)
    .join(', ')
  const left = total.total - done
  const time =
    left <= 0
      ? `done in ${duration(elapsedMs)}`
      : done === 0
        ? `${duration(elapsedMs)} so far`
        : `${duration(elapsedMs)} so far, about ${duration((elapsedMs / done) * left)} left`
  return [count, ...(scored === '' ? [] : [scored]), time].join(' · ')
}

export function duration(ms: number): string {
  const seconds = Math.round(ms / 1000)
  if (seconds < 60) return `${seconds} s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`
}

/** The endpoints whose requests in flight are below TESTBENCH_CONCURRENCY now, or held: `127.0.0.1:8080 concurrency 3 of 8`. */
function paceNotes(): string[] {
  return [...runWidePaces()].flatMap(([key, pace]) => {
    const text = paceText(pace)
    return text === undefined ? [] : [`${key.replace(/^endpoint:(https?:\/\/)?/, '')} ${text}`]
  })
}
