/**
 * The judge of upstream checks (check_judge.py): a trusted Python process beside the harness, outside
 * the sandbox, that records the calls a check makes on the canonical solution and replays the check on
 * a candidate's results. One per Vitest worker, started on first use.
 */
import { PythonLineServer } from '../python-line-server.ts'
import type { UpstreamCheck } from '../python-task.ts'

/** What the judge reads of a check: `functions` null when the judge works them out (MBPP). */
export interface CheckSpec {
  prelude: string
  setup: string
  test: string
  functions: string[] | null
}

export function checkSpec(check: UpstreamCheck): CheckSpec {
  return { prelude: check.prelude, setup: check.setup, test: check.test, functions: check.functions ?? null }
}

/** The calls a check makes, or why it must run in the program's process. */
export type CheckRecord =
  | {
      /** The calls, as the driver reads them (JSON text: ints JavaScript cannot hold stay intact). */
      calls: string
      /** The names the check calls the program through. */
      functions: string[]
      /** Names of objects the setup code makes that calls pass by name. */
      refs: string[]
      /** The canonical solution's CPU time over the prelude and every call, in ms, in the judge. */
      cpuMs: number
    }
  | { inProcess: string; statements: string[] }

/** The judge's verdict on a replay. */
export type ReplayVerdict =
  | { status: 'passed'; calls: number }
  | {
      status: 'failed'
      outcome: 'wrong_answer' | 'runtime_error' | 'timeout' | 'memory' | 'compile_error'
      reason: string
    }
  /** The check called the program in a way the run was not given: run these calls next. */
  | { status: 'diverged'; at: number; calls: string }
  /** The run ended before call `at` returned (null: before the program was defined). */
  | { status: 'missing'; at: number | null }
  /** The judge's child that ran the check did not answer: it ran away or crashed on what the program returned. */
  | { status: 'died'; detail: string }

const judge = new PythonLineServer({
  script: new URL('check_judge.py', import.meta.url),
  name: 'The judge of upstream checks (check_judge.py)',
  flags: ['-B', '-s'],
  // A fixed hash seed: a check that walks a set of strings makes its calls in the same order in every run.
  env: {
    PYTHONHASHSEED: '0',
    PYTHONUTF8: '1',
    PYTHONIOENCODING: 'utf-8',
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LANG: 'C.UTF-8',
  },
})

/** Starts the judge while the items are collected, so that the first item does not wait for it. */
export function startCheckJudge(): void {
  judge.start()
}

export async function recordCheck(spec: CheckSpec): Promise<CheckRecord | { died: string }> {
  const reply = await judge.ask({ type: 'record', spec })
  if (typeof reply.died === 'string') return { died: reply.died }
  if (typeof reply.inProcess === 'string' && Array.isArray(reply.statements))
    return { inProcess: reply.inProcess, statements: reply.statements.map(String) }
  const { calls, functions, refs, cpuMs } = reply
  if (typeof calls !== 'string' || !Array.isArray(functions) || !Array.isArray(refs) || typeof cpuMs !== 'number') {
    throw new Error(
      `The judge of upstream checks answered a record request with ${JSON.stringify(reply).slice(0, 300)}.`,
    )
  }
  return { calls, functions: functions.map(String), refs: refs.map(String), cpuMs }
}

/** The check replayed on a run's output; `seconds` bounds the replay (the judge's default: 60). */
export async function replayCheck(
  spec: CheckSpec,
  calls: string,
  output: string,
  truncated: boolean,
  seconds?: number,
): Promise<ReplayVerdict> {
  const reply = await judge.ask({
    type: 'replay',
    spec,
    calls,
    output,
    truncated,
    ...(seconds === undefined ? {} : { seconds }),
  })
  if (typeof reply.died === 'string') return { status: 'died', detail: reply.died }
  if (
    reply.status === 'passed' ||
    reply.status === 'failed' ||
    reply.status === 'diverged' ||
    reply.status === 'missing'
  )
    return reply as unknown as ReplayVerdict
  throw new Error(`The judge of upstream checks answered a replay request with ${JSON.stringify(reply).slice(0, 300)}.`)
}
