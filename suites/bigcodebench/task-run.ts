/** What the unittest runner reports for one program, and the outcome that follows from it. */
import type { Verdict } from '../../adapters/outcome.ts'

export type MethodStatus = 'passed' | 'failed' | 'error' | 'skipped'

export interface MethodResult {
  name: string
  status: MethodStatus
  ms: number
  /** The traceback (its end) of a failed or erroring method, or why it was skipped. */
  detail?: string
}

/** One `BCB-RESULT` line of the runner. */
export interface RunnerResult {
  id: string
  wallMs: number
  methods: MethodResult[]
  /** The program printed this (its end). */
  output: string
  /** The program did not compile (`compile`) or raised while its module ran (`run`), before any test. */
  load?: { stage: 'compile' | 'run'; error: string }
  /** The method that was running when the program stopped. */
  running?: string
  /** The test run reached its end. */
  finished: boolean
  timedOut: boolean
  signal?: string
}

export interface TaskRun extends RunnerResult, Verdict {
  /** The time limit the task had. */
  limitMs: number
}

/** A failed check is a wrong answer; an exception, a crash or an early exit is a runtime error. */
export function judgeRunnerResult(result: RunnerResult, limitMs: number): TaskRun {
  return { ...result, limitMs, ...verdict(result, limitMs) }
}

function verdict(result: RunnerResult, limitMs: number): Verdict {
  const failing = result.methods.filter((method) => method.status === 'failed' || method.status === 'error')
  if (result.timedOut) {
    const where = result.running === undefined ? '' : ` in ${result.running}`
    return { outcome: 'timeout', reason: `Timed out after ${limitMs} ms${where}.` }
  }
  if (result.load?.stage === 'compile') return { outcome: 'compile_error', reason: `Does not compile: ${lastLine(result.load.error)}` }
  if (result.load !== undefined) {
    const outcome = isMemoryError(result.load.error) ? 'memory' : 'runtime_error'
    return { outcome, reason: `Raised before any test ran: ${lastLine(result.load.error)}` }
  }
  if (result.signal !== undefined) {
    const outcome = result.signal === 'SIGKILL' ? 'memory' : 'runtime_error'
    return { outcome, reason: `Killed by ${result.signal}${result.running === undefined ? '' : ` in ${result.running}`}.` }
  }
  if (!result.finished) {
    return { outcome: 'runtime_error', reason: `The program ended before its tests finished${result.running === undefined ? '' : ` (in ${result.running})`}: exit() or a crash.` }
  }
  if (result.methods.length === 0) return { outcome: 'runtime_error', reason: 'TestCases has no test methods that ran.' }
  if (failing.length === 0) return { outcome: 'passed', reason: `All ${result.methods.length} test methods passed.` }
  const names = failing.map((method) => method.name).join(', ')
  const summary = `${failing.length} of ${result.methods.length} test methods failed: ${names}.`
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

/** Per-method lines for the record's output: `✓ test_case_1 (12 ms)`, then each failure's traceback. */
export function describeTaskRun(run: TaskRun): string {
  const lines = [run.reason]
  for (const method of run.methods) lines.push(`${STATUS_MARK[method.status]} ${method.name} ${method.status} (${method.ms} ms)`)
  if (run.running !== undefined && !run.methods.some((method) => method.name === run.running)) lines.push(`… ${run.running} did not finish`)
  if (run.load !== undefined) lines.push('', run.load.error.trimEnd())
  for (const method of run.methods) {
    if (method.detail !== undefined && method.status !== 'passed' && method.status !== 'skipped') lines.push('', `${method.name}:`, method.detail.trimEnd())
  }
  if (run.output.trim() !== '') lines.push('', 'program output:', run.output.trimEnd())
  return lines.join('\n')
}
