/** One BigCodeBench item: ask, take the program from the reply, run its checks, record, assert. */
import type { ItemContext } from '../../harness/benchmark.ts'
import type { BigCodeBenchTask } from './dataset.ts'
import { solutionFrom } from './extract.ts'
import type { BigCodeBenchOptions, Split } from './options.ts'
import type { BigCodeBenchFacts } from './facts.ts'
import { evaluatedProgram } from './program.ts'
import { chatPrompt } from './prompt.ts'
import { runChecks, type RawMemoryAccess } from './run-checks.ts'
import { describeTaskRun, failureLine } from './task-run.ts'

/** Where a base model's continuation of the complete prompt ends (the official extra stops, and a closing fence). */
export const COMPLETION_STOP = ['\nif __name__', '\ndef main(', '\nprint(', '\n```']

export interface ItemSetting {
  split: Split
  options: BigCodeBenchOptions
  /** The canonical solution's time here (on an idle machine's clock), from calibration. */
  canonicalMs: number
  /** Whether the program keeps raw memory, from calibration (run-checks.ts). */
  rawMemory: RawMemoryAccess
  /** What the warm interpreter preloads. */
  preload: readonly string[]
  /** The exclusions of this part (formatExclusions), recorded for the scorer. */
  excluded: string
}

/** As the official harness: max(TIMEOUT_LIMIT, the canonical solution's time) + 1 seconds. */
export function timeLimitSeconds(canonicalMs: number, options: Pick<BigCodeBenchOptions, 'timeLimitSeconds'>): number {
  return Math.max(options.timeLimitSeconds, Math.ceil(canonicalMs / 1000)) + 1
}

export async function runItem(
  task: BigCodeBenchTask,
  bench: ItemContext<BigCodeBenchFacts>,
  setting: ItemSetting,
): Promise<void> {
  const { options, split } = setting
  const reply =
    options.mode === 'chat'
      ? await bench.ask(chatPrompt(task, split), { temperature: options.temperature })
      : await bench.ask(
          task.completePrompt,
          { temperature: options.temperature, stop: COMPLETION_STOP },
          { mode: 'completion' },
        )
  const scoring: BigCodeBenchFacts = {
    split,
    subset: options.subset,
    version: options.version,
    mode: options.mode,
    calibrated: options.calibrated,
    excluded: setting.excluded,
  }
  const solution = solutionFrom(task, reply, options.mode)
  if (solution === undefined) {
    bench.record({ outcome: 'no_answer', reason: 'The reply holds no code.', scoring })
    bench.expect.fail(`${task.id}: the reply holds no code to run.`)
    return
  }
  const limit = timeLimitSeconds(setting.canonicalMs, options)
  const run = await runChecks({
    id: task.id,
    program: evaluatedProgram(task, solution.code, options.calibrated),
    test: task.test,
    entryPoint: task.entryPoint,
    timeLimitSeconds: limit,
    memoryBytes: options.memoryBytes,
    preload: setting.preload,
    rawMemory: setting.rawMemory,
  })
  bench.record({
    outcome: run.outcome,
    reason: run.reason,
    extracted: solution.code,
    output: describeTaskRun(run),
    scoring: {
      ...scoring,
      solutionFrom: solution.from,
      timeLimitMs: limit * 1000,
      cpuMs: run.cpuMs,
      wallMs: run.wallMs,
      ...(run.idleWallMs === undefined ? {} : { idleWallMs: run.idleWallMs }),
      methodsPassed: run.methods.filter((method) => method.status === 'passed' || method.status === 'skipped').length,
      methodsTotal: run.expected.length,
    },
  })
  bench.expect(run.outcome, failureLine(task.id, run)).toBe('passed')
}
