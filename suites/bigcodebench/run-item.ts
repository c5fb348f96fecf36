/** One BigCodeBench item: ask, take the program from the reply, run its unittest methods, record, assert. */
import type { ItemContext } from '../../harness/benchmark.ts'
import { optional, scoringFacts, type FactsOf } from '../../harness/scoring-facts.ts'
import type { BatchingRunner } from './batching-runner.ts'
import { SUBSETS, type BigCodeBenchTask } from './dataset.ts'
import { solutionFrom } from './extract.ts'
import { SPLITS, type BigCodeBenchOptions, type Split } from './options.ts'
import { chatPrompt } from './prompt.ts'
import { testProgram } from './run-batch.ts'
import { describeTaskRun } from './task-run.ts'

/**
 * What each BigCodeBench item records: its split, subset, release and prompt mode; calibration's
 * fingerprint and exclusions (formatExclusions), which the scorer lists; and, once it ran, how the
 * program was found, its limit and time, and how many test methods passed.
 */
export const bigCodeBenchFacts = scoringFacts('bigcodebench', {
  split: SPLITS,
  subset: SUBSETS,
  version: 'string',
  mode: ['chat', 'completion'],
  calibration: 'string',
  excluded: 'string',
  solutionFrom: optional('string'),
  limitMs: optional('number'),
  wallMs: optional('number'),
  methodsPassed: optional('number'),
  methodsTotal: optional('number'),
})
export type BigCodeBenchFacts = FactsOf<typeof bigCodeBenchFacts>

/** Where a base model's continuation of the complete prompt ends (the official extra stops, and a closing fence). */
export const COMPLETION_STOP = ['\nif __name__', '\ndef main(', '\nprint(', '\n```']

export interface ItemSetting {
  split: Split
  options: BigCodeBenchOptions
  runner: BatchingRunner
  /** The canonical solution's time here, from calibration. */
  canonicalMs: number
  /** Calibration's fingerprint and its exclusions (formatExclusions), recorded for the scorer. */
  calibration: string
  excluded: string
}

/** max(floor, factor × the canonical solution's time). */
export function timeLimitMs(canonicalMs: number, options: Pick<BigCodeBenchOptions, 'timeFloorMs' | 'timeFactor'>): number {
  return Math.max(options.timeFloorMs, Math.ceil(options.timeFactor * canonicalMs))
}

export async function runItem(task: BigCodeBenchTask, bench: ItemContext<BigCodeBenchFacts>, setting: ItemSetting): Promise<void> {
  const { options, split } = setting
  const reply =
    options.mode === 'chat'
      ? await bench.ask(chatPrompt(task, split), { temperature: options.temperature })
      : await bench.ask(task.completePrompt, { temperature: options.temperature, stop: COMPLETION_STOP }, { mode: 'completion' })
  const scoring: BigCodeBenchFacts = {
    split,
    subset: options.subset,
    version: options.version,
    mode: options.mode,
    calibration: setting.calibration,
    excluded: setting.excluded,
  }
  const solution = solutionFrom(task, reply, options.mode)
  if (solution === undefined) {
    bench.record({ outcome: 'no_answer', reason: 'The reply holds no code.', scoring })
    bench.expect.fail(`${task.id}: the reply holds no code to run.`)
    return
  }
  const limitMs = timeLimitMs(setting.canonicalMs, options)
  const run = await setting.runner.run(bench.model.label, { id: task.id, program: testProgram(solution.code, task.test), limitMs }, task.libs)
  const output = describeTaskRun(run)
  bench.record({
    outcome: run.outcome,
    reason: run.reason,
    extracted: solution.code,
    output,
    scoring: {
      ...scoring,
      solutionFrom: solution.from,
      limitMs,
      wallMs: run.wallMs,
      methodsPassed: run.methods.filter((method) => method.status === 'passed' || method.status === 'skipped').length,
      methodsTotal: run.methods.length,
    },
  })
  bench.expect(run.outcome, `${task.id}: ${output}`).toBe('passed')
}
