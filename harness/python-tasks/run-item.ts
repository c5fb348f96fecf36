/** One HumanEval- or MBPP-style item: ask, take the solution from the reply, run the tests, record, assert. */
import type { ItemContext } from '../benchmark.ts'
import { optional, scoringFacts, type FactsOf } from '../scoring-facts.ts'
import { solutionFrom } from './extract-solution.ts'
import type { CodeSuiteOptions } from './options.ts'
import type { PythonTask } from './python-task.ts'
import { runTests } from './run-tests.ts'
import type { TimeLimitPolicy } from './time-limit.ts'

/** What a Python-task item records; pass@k needs none of it, people reading a record do. */
export const pythonTaskFacts = scoringFacts('python-task', {
  mode: ['chat', 'completion'],
  solutionFrom: optional('string'),
  limitMs: optional('number'),
  wallMs: optional('number'),
})
export type PythonTaskFacts = FactsOf<typeof pythonTaskFacts>

export async function runItem(task: PythonTask, bench: ItemContext<PythonTaskFacts>, options: CodeSuiteOptions<string>, policy: TimeLimitPolicy): Promise<void> {
  const reply =
    options.mode === 'chat'
      ? await bench.ask(task.chatPrompt, { temperature: options.temperature })
      : await bench.ask(task.completionPrompt, { temperature: options.temperature, stop: task.stop }, { mode: 'completion' })
  const solution = solutionFrom(task, reply, options.mode)
  if (solution === undefined) {
    bench.record({ outcome: 'no_answer', reason: 'The reply holds no code.', scoring: { mode: options.mode } })
    bench.expect.fail(`${task.id}: the reply holds no code to run.`)
    return
  }
  const run = await runTests(task, solution.code, policy)
  bench.record({
    outcome: run.outcome,
    reason: run.reason,
    extracted: solution.code,
    output: run.output,
    scoring: { mode: options.mode, solutionFrom: solution.from, limitMs: run.limitMs, wallMs: run.wallMs },
  })
  bench.expect(run.outcome, `${task.id}: ${run.output}`).toBe('passed')
}
