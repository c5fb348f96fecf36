/** Runs a solution against its task's tests in the sandbox and names the outcome. */
import { join } from 'node:path'
import type { Outcome, Verdict } from '../../adapters/outcome.ts'
import { cacheDir } from '../knobs.ts'
import { printMarker, runProgram, type RunResult } from '../../adapters/sandbox/index.ts'
import { extractSolution, withImports } from './extract-solution.ts'
import { testProgram, type PythonTask } from './python-task.ts'
import { CALIBRATION_LIMIT_MS, calibratedLimitMs, calibrationKey, knownLimitMs, type TimeLimitPolicy } from './time-limit.ts'

export interface TestRun extends Verdict {
  /** What the program printed and why it ended, for the record. */
  output: string
  /** The limit the last run had. */
  limitMs: number
  wallMs: number
  cpuMs: number | undefined
}

export function timeLimitPolicy(
  options: { timeFloorMs: number; inputTimeFloorMs: number; timeFactor: number; memoryBytes: number },
  env: NodeJS.ProcessEnv = process.env,
): TimeLimitPolicy {
  return { floorMs: options.timeFloorMs, inputFloorMs: options.inputTimeFloorMs, factor: options.timeFactor, memoryBytes: options.memoryBytes, cacheDir: join(cacheDir(env), 'canonical-times') }
}

/**
 * Runs `solution` + the tests + the success marker, with the task's calibrated
 * limit when its canonical time is known, else the floor; a run that outlasts
 * the floor is run again with the calibrated limit when that is longer.
 */
export async function runTests(task: PythonTask, solution: string, policy: TimeLimitPolicy): Promise<TestRun> {
  const program = withImports(solution, task.preamble)
  const key = calibrationKey(task.reference, task.preamble, task.tests)
  let limitMs = (await knownLimitMs(policy, key)) ?? policy.floorMs
  let result = await runPython(task, program, limitMs, policy.memoryBytes)
  if (result.outcome === 'timeout') {
    const calibrated = await calibratedLimitMs(policy, key, () => timeCanonical(task, policy.memoryBytes))
    if (calibrated > limitMs) {
      limitMs = calibrated
      result = await runPython(task, program, limitMs, policy.memoryBytes)
    }
  }
  const outcome = outcomeOf(result)
  const reason = outcome === 'wrong_answer' ? `A check failed: ${lastLine(result.stderr.text)}` : result.reason
  return { outcome, reason, output: describeRun(result, limitMs), limitMs, wallMs: result.wallMs, cpuMs: result.cpuMs }
}

/** The canonical solution's wall time on this machine, undefined when it does not pass. */
async function timeCanonical(task: PythonTask, memoryBytes: number): Promise<number | undefined> {
  const canonical = extractSolution(task.reference, task.entryPoint)
  if (canonical === undefined) return undefined
  const result = await runPython(task, withImports(canonical.code, task.preamble), CALIBRATION_LIMIT_MS, memoryBytes)
  return result.outcome === 'passed' ? result.wallMs : undefined
}

function runPython(task: PythonTask, program: string, wallMs: number, memoryBytes: number): Promise<RunResult> {
  return runProgram({
    language: 'python',
    files: (marker) => ({ 'main.py': testProgram(task, program, printMarker('python', marker)) }),
    limits: { wallMs, cpuSeconds: Math.ceil(wallMs / 1000) + 1, memoryBytes },
  })
}

/** The sandbox's outcome, except that a failed check is a wrong answer, not a crash. */
export function outcomeOf(result: Pick<RunResult, 'outcome' | 'stderr'>): Outcome {
  if (result.outcome === 'runtime_error' && lastException(result.stderr.text) === 'AssertionError') return 'wrong_answer'
  return result.outcome
}

/** The exception named on a Python traceback's last line (`AssertionError`, `ValueError`…). */
export function lastException(stderr: string): string | undefined {
  const lines = stderr.trimEnd().split('\n')
  if (!lines.some((line) => line.startsWith('Traceback (most recent call last)'))) return undefined
  return /^(?:[\w.]+\.)?(\w+)(?::|$)/.exec(lastLine(stderr))?.[1]
}

function lastLine(text: string): string {
  return text.trimEnd().split('\n').at(-1) ?? ''
}

const SHOWN_OUTPUT = 2000

function describeRun(result: RunResult, limitMs: number): string {
  const parts = [`${result.reason} (${result.wallMs} ms wall, ${result.cpuMs ?? '?'} ms CPU, limit ${limitMs} ms)`]
  const stderr = result.stderr.text.trim()
  const stdout = result.stdout.text.trim()
  if (stderr !== '') parts.push(`stderr:\n${tail(stderr)}`)
  if (stdout !== '') parts.push(`stdout:\n${tail(stdout)}`)
  return parts.join('\n')
}

function tail(text: string): string {
  return text.length <= SHOWN_OUTPUT ? text : `…${text.slice(-SHOWN_OUTPUT)}`
}
