/** One HumanEval- or MBPP-style item: ask, take the solution from the reply, run the checks, record, assert. */
import type { ItemContext } from '../benchmark.ts'
import { optional, scoringFacts, type FactsOf } from '../scoring/scoring-facts.ts'
import { solutionFrom, withImports, type ExtractedSolution } from './extract-solution.ts'
import { runUpstreamCheck } from './checks/run-upstream-check.ts'
import { runIoCheck } from './io/run-io-check.ts'
import type { CodeSuiteOptions, TimeLimitPolicy } from './options.ts'
import type { PythonTask } from './python-task.ts'

/** What a Python-task item records; pass@k needs `basePassed` for EvalPlus's base column, people reading a record the rest. */
export const pythonTaskFacts = scoringFacts('python-task', {
  mode: ['chat', 'completion'],
  solutionFrom: optional('string'),
  /** The CPU-time limit: the whole check's, or the largest per-input limit where the check is by inputs and outputs. */
  limitMs: optional('number'),
  wallMs: optional('number'),
  cpuMs: optional('number'),
  /** EvalPlus variants: every base input (the original benchmark's tests) passed. */
  basePassed: optional('boolean'),
})
export type PythonTaskFacts = FactsOf<typeof pythonTaskFacts>

/** What EvalPlus runs: a replayed whole program as it is; an extracted function with the prompt's imports it left out. */
function ioProgram(task: PythonTask, solution: ExtractedSolution): string {
  return solution.from === 'whole program' ? solution.code : withImports(solution.code, task.preamble)
}

/** What the upstream check's calls reach: the solution with the prompt's (or MBPP's test) imports it left out. */
function checkProgram(task: PythonTask, solution: ExtractedSolution): string {
  return withImports(solution.code, task.preamble)
}

export async function runItem(
  task: PythonTask,
  bench: ItemContext<PythonTaskFacts>,
  options: CodeSuiteOptions<string>,
  policy: TimeLimitPolicy,
): Promise<void> {
  const reply =
    options.mode === 'chat'
      ? await bench.ask(task.chatPrompt, { temperature: options.temperature })
      : await bench.ask(
          task.completionPrompt,
          { temperature: options.temperature, stop: task.stop },
          { mode: 'completion' },
        )
  const solution = solutionFrom(task, reply, options.mode)
  if (solution === undefined) {
    bench.record({
      outcome: 'no_answer',
      reason: 'The reply holds no code.',
      scoring: { mode: options.mode, ...('io' in task.judge ? { basePassed: false } : {}) },
    })
    bench.expect.fail(`${task.id}: the reply holds no code to run.`)
    return
  }
  const run =
    'io' in task.judge
      ? await runIoCheck(task.id, task.judge.io, ioProgram(task, solution), policy)
      : await runUpstreamCheck(task.id, task.judge.check, checkProgram(task, solution), policy)
  const basePassed = 'basePassed' in run && typeof run.basePassed === 'boolean' ? { basePassed: run.basePassed } : {}
  bench.record({
    outcome: run.outcome,
    reason: run.reason,
    extracted: solution.code,
    output: run.output,
    scoring: {
      mode: options.mode,
      solutionFrom: solution.from,
      limitMs: run.limitMs,
      wallMs: run.wallMs,
      ...(run.cpuMs === undefined ? {} : { cpuMs: run.cpuMs }),
      ...basePassed,
    },
  })
  bench.expect(run.outcome, `${task.id}: ${run.output}`).toBe('passed')
}
