/**
 * Judges a solution by inputs and outputs, as EvalPlus does, with the judge outside
 * the program: the candidate's function runs on the task's inputs in the sandbox,
 * its return values come back as plain data, and the judge compares them with the
 * canonical outputs. Each input has its own CPU-time limit, max(floor, factor ×
 * the canonical solution's CPU time on it), so a loaded machine changes no verdict.
 */
import type { Outcome, Verdict } from '../../../adapters/outcome.ts'
import type { RunResult } from '../../../adapters/sandbox/index.ts'
import { runDriver } from './driver-run.ts'
import { NOT_NONE_ENTRY_POINTS, oracleEntry, type OracleSource, type OracleTask } from './evalplus-oracle.ts'
import { judgeOutputs, type JudgeVerdict } from './judge-process.ts'

export interface IoPolicy {
  /** The smallest CPU-time limit an input gets (EvalPlus: 1 s in its 2024 releases). */
  inputFloorMs: number
  /** An input's limit is this many times the canonical solution's CPU time on it, when that is above the floor. */
  factor: number
  memoryBytes: number
}

export interface IoRun extends Verdict {
  /** Every base input (the original benchmark's tests) passed: the EvalPlus "base" column. */
  basePassed: boolean
  output: string
  /** The largest per-input CPU limit of the task. */
  limitMs: number
  wallMs: number
  cpuMs: number | undefined
}

/** The CPU seconds the function may spend on each input. */
export function inputLimitsSeconds(
  task: Pick<OracleTask, 'canonicalCpuMs'>,
  policy: Pick<IoPolicy, 'inputFloorMs' | 'factor'>,
): number[] {
  return task.canonicalCpuMs.map((cpuMs) => Math.max(policy.inputFloorMs, policy.factor * cpuMs) / 1000)
}

export async function runIoCheck(
  taskId: string,
  source: OracleSource,
  program: string,
  policy: IoPolicy,
): Promise<IoRun> {
  const entry = await oracleEntry(source, taskId, policy.memoryBytes)
  if ('broken' in entry) {
    const reason = `${taskId} cannot be judged: ${entry.broken}.`
    return {
      outcome: 'infra_error',
      reason,
      basePassed: false,
      output: reason,
      limitMs: 0,
      wallMs: 0,
      cpuMs: undefined,
    }
  }
  const task = entry.task
  const cpuLimits = inputLimitsSeconds(task, policy)
  const notNone = source.kind === 'mbpp' && NOT_NONE_ENTRY_POINTS.has(task.entryPoint)
  const result = await runDriver(
    { entryPoint: task.entryPoint, inputs: task.inputs, cpuLimits, notNone },
    program,
    'candidate',
    {
      memoryBytes: policy.memoryBytes,
      setupCpuSeconds: 10,
      // EvalPlus gives its base check and its plus check min(60 s, the inputs' limits added up) each.
      totalCpuSeconds: 120,
    },
  )
  const limitMs = Math.round(Math.max(...cpuLimits, 0) * 1000)
  if (result.outcome === 'infra_error' && !driverStarted(result.stdout.text)) {
    return {
      outcome: 'infra_error',
      reason: result.reason,
      basePassed: false,
      output: describe(result.reason, result, undefined, limitMs),
      limitMs,
      wallMs: result.wallMs,
      cpuMs: result.cpuMs,
    }
  }
  const verdict = await judgeOutputs({
    oracle: entry.path,
    task: taskId,
    kind: source.kind,
    output: result.stdout.truncated ? '' : result.stdout.text,
  })
  const { outcome, reason } = outcomeOf(verdict, result)
  return {
    outcome,
    reason,
    basePassed: verdict.basePassed,
    output: describe(reason, result, verdict, limitMs),
    limitMs,
    wallMs: result.wallMs,
    cpuMs: result.cpuMs,
  }
}

/**
 * The driver writes its first line before any of the program runs: once it is there the sandbox
 * did start the program, and a claim that it broke down (the fork server's message and exit
 * status, which a program can print) comes from the program.
 */
export function driverStarted(stdout: string): boolean {
  return stdout.startsWith('{"driver":"started"}\n')
}

/** The judge's verdict, and the sandbox's where the program ended before the judge had every result. */
export function outcomeOf(verdict: JudgeVerdict, result: Pick<RunResult, 'outcome' | 'reason' | 'stdout'>): Verdict {
  const failure = verdict.failure
  if (failure === null) {
    if (result.outcome === 'passed')
      return { outcome: 'passed', reason: `Returned the expected output on all ${verdict.inputs} inputs.` }
    return { outcome: result.outcome === 'infra_error' ? 'runtime_error' : result.outcome, reason: result.reason }
  }
  const where =
    failure.index === null
      ? ''
      : ` (input ${failure.index} of ${verdict.inputs}${failure.index < verdict.base ? ', a base input' : ''})`
  if (result.stdout.truncated)
    return { outcome: 'wrong_answer', reason: 'The results were larger than the output limit.' }
  const byStatus: Record<typeof failure.status, Outcome> = {
    wrong: 'wrong_answer',
    unencodable: 'wrong_answer',
    malformed: 'wrong_answer',
    timeout: 'timeout',
    error: 'runtime_error',
    missing: result.outcome === 'passed' || result.outcome === 'infra_error' ? 'runtime_error' : result.outcome,
  }
  const outcome = byStatus[failure.status]
  const detail =
    failure.status === 'missing' && result.outcome !== 'passed' && result.outcome !== 'infra_error'
      ? `${failure.detail} ${result.reason}`
      : failure.detail
  return { outcome, reason: `${detail}${where}` }
}

const SHOWN_STDERR = 2000

function describe(reason: string, result: RunResult, verdict: JudgeVerdict | undefined, limitMs: number): string {
  const timing = `${result.wallMs} ms wall, ${result.cpuMs ?? '?'} ms CPU for the whole run; per-input CPU limit up to ${limitMs} ms`
  const checked =
    verdict === undefined
      ? ''
      : `; ${verdict.checked} of ${verdict.inputs} inputs returned (${Math.round(verdict.cpuMs)} ms CPU in the function)`
  const stderr = result.stderr.text.trim()
  const tail =
    stderr === '' ? '' : `\nstderr:\n${stderr.length <= SHOWN_STDERR ? stderr : `…${stderr.slice(-SHOWN_STDERR)}`}`
  return `${reason} (${timing}${checked})${tail}`
}
