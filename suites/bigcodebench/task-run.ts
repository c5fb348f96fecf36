/** What the checks' parent says about one program (runner/report_judge.py), and the outcome that follows. */
import type { Verdict } from '../../adapters/outcome.ts'

export type MethodStatus = 'passed' | 'failed' | 'error' | 'skipped'

export interface MethodResult {
  name: string
  status: MethodStatus
  ms: number
  /** The traceback (its end) of a failed or erroring method, or why it was skipped. */
  detail?: string
}

/** The verdict line of runner/checks_parent.py. */
export interface RunnerVerdict {
  methods: MethodResult[]
  /** The test methods the tests' source defines, in the order unittest runs them. */
  expected: string[]
  /** What the program did to its checks; any of it fails the item. */
  tamper: string[]
  /** setUpClass / setUpModule errors. */
  fixtureErrors: Array<{ name: string; detail: string }>
  /** The program did not compile, raised while its module ran, or the tests could not be read. */
  load?: { stage: 'compile' | 'run' | 'tests'; error: string }
  /** The method that was running when the program stopped. */
  running?: string
  /** Every planned method reported, the checks ended and the child exited by itself. */
  finished: boolean
  timedOut: boolean
  /** What stopped it: the time limit on an idle machine's clock, or the CPU or wall-clock backstop. */
  stoppedBy?: 'time' | 'cpu' | 'wall'
  /** How long it ran on an idle machine's clock (the wall clock less the time it waited for a CPU), when it ended by itself. */
  idleWallMs?: number
  /** The child failed before the program existed: our side broke. */
  childFailed: boolean
  signal?: string
  cpuMs: number
  wallMs: number
  /** What the program printed (its beginning and end). */
  output: string
}

export interface TaskRun extends RunnerVerdict, Verdict {
  id: string
  /** The time limit the task had, on an idle machine's clock. */
  timeLimitMs: number
}

export function judgeVerdict(id: string, verdict: RunnerVerdict, timeLimitSeconds: number): TaskRun {
  return { id, ...verdict, timeLimitMs: timeLimitSeconds * 1000, ...outcomeOf(verdict, timeLimitSeconds) }
}

function outcomeOf(run: RunnerVerdict, timeLimitSeconds: number): Verdict {
  const where = run.running === undefined ? '' : ` in ${run.running}`
  if (run.childFailed) return { outcome: 'infra_error', reason: 'The checks could not start (before the program ran).' }
  if (run.tamper.length > 0) {
    return {
      outcome: 'wrong_answer',
      reason: `The program tampered with its checks: ${run.tamper.slice(0, 3).join('; ')}${run.tamper.length > 3 ? ` (and ${run.tamper.length - 3} more)` : ''}.`,
    }
  }
  if (run.timedOut) {
    const limit =
      run.stoppedBy === 'cpu'
        ? `the CPU-time backstop (${4 * timeLimitSeconds} s)`
        : run.stoppedBy === 'wall'
          ? `the wall-clock backstop after ${Math.round(run.wallMs / 1000)} s`
          : `its time limit of ${timeLimitSeconds} s (not counting the time it waited for a CPU)`
    return { outcome: 'timeout', reason: `Stopped by ${limit}${where}.` }
  }
  if (run.load?.stage === 'compile')
    return { outcome: 'compile_error', reason: `Does not compile: ${lastLine(run.load.error)}` }
  if (run.load?.stage === 'tests')
    return { outcome: 'runtime_error', reason: `The task's tests cannot be run: ${run.load.error}` }
  if (run.load !== undefined) {
    const outcome = isMemoryError(run.load.error) ? 'memory' : 'runtime_error'
    const when =
      run.methods.length === 0 && run.running === undefined ? 'before any test ran' : `while the tests ran${where}`
    return { outcome, reason: `Raised ${when}: ${lastLine(run.load.error)}` }
  }
  if (run.signal !== undefined) {
    const outcome = run.signal === 'SIGKILL' ? 'memory' : 'runtime_error'
    return { outcome, reason: `Killed by ${run.signal}${where}.` }
  }
  const failing = run.methods.filter((method) => method.status === 'failed' || method.status === 'error')
  if (run.fixtureErrors.length > 0)
    return {
      outcome: 'runtime_error',
      reason: `${run.fixtureErrors[0]?.name} failed: ${lastLine(run.fixtureErrors[0]?.detail ?? '')}`,
    }
  if (!run.finished) {
    const missing = run.expected.filter((name) => !run.methods.some((method) => method.name === name))
    if (failing.length === 0)
      return {
        outcome: 'runtime_error',
        reason: `The program ended before its tests finished${where}: ${missing.length} of ${run.expected.length} test methods never reported.`,
      }
  }
  if (run.expected.length === 0) return { outcome: 'runtime_error', reason: 'TestCases has no test methods.' }
  if (failing.length === 0) return { outcome: 'passed', reason: `All ${run.methods.length} test methods passed.` }
  const names = failing.map((method) => method.name).join(', ')
  const summary = `${failing.length} of ${run.expected.length} test methods failed: ${names}.`
  if (failing.some((method) => isMemoryError(method.detail ?? ''))) return { outcome: 'memory', reason: summary }
  if (failing.some((method) => method.status === 'failed')) return { outcome: 'wrong_answer', reason: summary }
  return { outcome: 'runtime_error', reason: summary }
}

function isMemoryError(traceback: string): boolean {
  return /^MemoryError\b/m.test(traceback)
}

/** The last line of a traceback: the exception and its message. */
export function lastLine(traceback: string): string {
  return traceback.trimEnd().split('\n').at(-1) ?? ''
}

const STATUS_MARK: Readonly<Record<MethodStatus, string>> = { passed: '✓', failed: '✗', error: '!', skipped: '-' }
/** The record keeps the tracebacks of this many failing methods; the rest are counted. */
const DETAILS_KEPT = 3

/** Per-method lines for the record's output: `✓ test_case_1 passed (12 ms)`, then a few failures' tracebacks. Bounded. */
export function describeTaskRun(run: TaskRun): string {
  const idle = run.idleWallMs === undefined ? '' : `, ${run.idleWallMs} ms on an idle machine's clock`
  const lines = [run.reason, `time limit ${run.timeLimitMs} ms; CPU ${run.cpuMs} ms, wall ${run.wallMs} ms${idle}`]
  for (const tampered of run.tamper.slice(0, 10)) lines.push(`tampered: ${tampered}`)
  for (const method of run.methods)
    lines.push(`${STATUS_MARK[method.status]} ${method.name} ${method.status} (${method.ms} ms)`)
  for (const name of run.expected)
    if (!run.methods.some((method) => method.name === name))
      lines.push(`… ${name} ${name === run.running ? 'did not finish' : 'did not run'}`)
  if (run.load !== undefined) lines.push('', run.load.error.trimEnd())
  for (const fixture of run.fixtureErrors.slice(0, DETAILS_KEPT))
    lines.push('', `${fixture.name}:`, fixture.detail.trimEnd())
  const failing = run.methods.filter(
    (method) => method.detail !== undefined && (method.status === 'failed' || method.status === 'error'),
  )
  for (const method of failing.slice(0, DETAILS_KEPT))
    lines.push('', `${method.name}:`, (method.detail ?? '').trimEnd())
  if (failing.length > DETAILS_KEPT)
    lines.push('', `(${failing.length - DETAILS_KEPT} more failing methods' tracebacks left out)`)
  if (run.output.trim() !== '') lines.push('', 'program output:', run.output.trimEnd())
  return lines.join('\n')
}

/** One line for an assertion message, so that a run's failure log stays short. */
export function failureLine(id: string, run: TaskRun): string {
  const first = run.methods.find((method) => method.status === 'failed' || method.status === 'error')
  const detail = first?.detail === undefined ? '' : ` ${first.name}: ${lastLine(first.detail).slice(0, 200)}`
  return `${id}: ${run.reason.slice(0, 300)}${detail}`
}
