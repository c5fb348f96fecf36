/** The BigCodeBench suite's options, from its knobs (knobs.ts). */
import { readPromptMode, samplingTemperature } from '../../harness/python-tasks/knobs.ts'
import type { PromptMode } from '../../harness/python-tasks/options.ts'
import {
  CALIBRATED,
  MEMORY_MB,
  PROMPT_MODE,
  SPLIT,
  SUBSET,
  TASKS,
  TEMPERATURE,
  TIME_LIMIT,
  VERSION,
  type Split,
  type Subset,
} from './knobs.ts'

export { SPLITS, type Split } from './knobs.ts'

const MiB = 1024 * 1024

/** What the knobs give, in the units the code uses; what each knob means and its default are in knobs.ts. */
export interface BigCodeBenchOptions {
  splits: Split[]
  subset: Subset
  version: string
  mode: PromptMode
  memoryBytes: number
  /**
   * The official TIMEOUT_LIMIT (which BIGCODEBENCH_TIMEOUT_PER_TASK was meant to set): a task gets
   * max(this, its canonical solution's time) + 1 seconds of CPU time, and so does a canonical solution in calibration.
   */
  timeLimitSeconds: number
  /** bigcodebench.evaluate's `--calibrated`: the code prompt goes before each solution. */
  calibrated: boolean
  /** Only these task numbers run; undefined runs all. */
  tasks: ReadonlySet<number> | undefined
  temperature: number
}

export function bigCodeBenchOptions(samples: number, env: NodeJS.ProcessEnv = process.env): BigCodeBenchOptions {
  const tasks = TASKS.read(env)
  return {
    splits: [...SPLIT.read(env)],
    subset: SUBSET.read(env),
    version: VERSION.read(env),
    mode: readPromptMode(PROMPT_MODE, env),
    memoryBytes: MEMORY_MB.read(env) * MiB,
    timeLimitSeconds: TIME_LIMIT.read(env),
    calibrated: CALIBRATED.read(env),
    tasks: tasks === undefined ? undefined : new Set(tasks),
    temperature: samplingTemperature(TEMPERATURE, samples, env),
  }
}
