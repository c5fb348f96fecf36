/** The knobs of the BigCodeBench suite, all `TESTBENCH_BIGCODEBENCH_*`, read in one place. */
import { positiveNumber, nonNegativeNumber, readBoolean } from '../../adapters/knob.ts'
import { parseNumberRanges } from '../../harness/number-ranges.ts'
import { parseVariants, type PromptMode } from '../../harness/python-tasks/options.ts'
import { bigCodeBenchVersion, SUBSETS, type Subset } from './dataset.ts'

export const SPLITS = ['complete', 'instruct'] as const
export type Split = (typeof SPLITS)[number]

const MiB = 1024 * 1024

export interface BigCodeBenchOptions {
  /** TESTBENCH_BIGCODEBENCH_SPLIT: comma list of complete, instruct; default complete. */
  splits: Split[]
  /** TESTBENCH_BIGCODEBENCH_SUBSET: full (1140 tasks, default) or hard (148). */
  subset: Subset
  /** TESTBENCH_BIGCODEBENCH_VERSION: v0.1.0 (default, pinned JSON files) or a later release from the hub's parquet (v0.1.4). */
  version: string
  /** TESTBENCH_BIGCODEBENCH_PROMPT_MODE: chat (default) or completion (base models continue the Complete prompt). */
  mode: PromptMode
  /** TESTBENCH_BIGCODEBENCH_MEMORY_MB, default 4096: the memory one task may use. */
  memoryBytes: number
  /**
   * TESTBENCH_BIGCODEBENCH_TIME_LIMIT seconds, default 240 (the official TIMEOUT_LIMIT, which
   * BIGCODEBENCH_TIMEOUT_PER_TASK was meant to set): a task gets max(this, its canonical solution's
   * time) + 1 seconds of CPU time, and so does a canonical solution in calibration.
   */
  timeLimitSeconds: number
  /** TESTBENCH_BIGCODEBENCH_CALIBRATED, default on (bigcodebench.evaluate's `--calibrated`): the code prompt goes before each solution. */
  calibrated: boolean
  /** TESTBENCH_BIGCODEBENCH_TASKS: comma list of task numbers or ranges (`0-49,148`), default all: runs only those. */
  tasks: ReadonlySet<number> | undefined
  /** TESTBENCH_BIGCODEBENCH_TEMPERATURE, default 0, or 0.8 when SAMPLES > 1. */
  temperature: number
}

export function bigCodeBenchOptions(samples: number, env: NodeJS.ProcessEnv = process.env): BigCodeBenchOptions {
  return {
    splits: parseVariants('TESTBENCH_BIGCODEBENCH_SPLIT', env.TESTBENCH_BIGCODEBENCH_SPLIT, SPLITS, ['complete']),
    subset: parseSubset(env.TESTBENCH_BIGCODEBENCH_SUBSET),
    version: bigCodeBenchVersion(env),
    mode: parseMode(...promptModeSetting(env)),
    memoryBytes: positiveNumber(env, 'TESTBENCH_BIGCODEBENCH_MEMORY_MB', 4096) * MiB,
    timeLimitSeconds: positiveNumber(env, 'TESTBENCH_BIGCODEBENCH_TIME_LIMIT', 240),
    calibrated: readBoolean(env, 'TESTBENCH_BIGCODEBENCH_CALIBRATED', true),
    tasks: parseTaskNumbers(env.TESTBENCH_BIGCODEBENCH_TASKS),
    temperature: nonNegativeNumber(env, 'TESTBENCH_BIGCODEBENCH_TEMPERATURE', samples > 1 ? 0.8 : 0),
  }
}

function parseSubset(value: string | undefined): Subset {
  if (value === undefined || value.trim() === '') return 'full'
  const subset = SUBSETS.find((known) => known === value.trim().toLowerCase())
  if (subset === undefined) throw new Error(`TESTBENCH_BIGCODEBENCH_SUBSET=${value} is not understood: use full (1140 tasks) or hard (148).`)
  return subset
}

/** TESTBENCH_BIGCODEBENCH_PROMPT_MODE, else the shared TESTBENCH_PROMPT_MODE, as the other Python suites read it. */
function promptModeSetting(env: NodeJS.ProcessEnv): [string, string | undefined] {
  const own = env.TESTBENCH_BIGCODEBENCH_PROMPT_MODE
  if (own !== undefined && own.trim() !== '') return ['TESTBENCH_BIGCODEBENCH_PROMPT_MODE', own]
  return ['TESTBENCH_PROMPT_MODE', env.TESTBENCH_PROMPT_MODE]
}

function parseMode(name: string, value: string | undefined): PromptMode {
  if (value === undefined || value.trim() === '') return 'chat'
  const mode = value.trim().toLowerCase()
  if (mode === 'chat' || mode === 'completion') return mode
  throw new Error(`${name}=${value} is not understood: use chat (instruction models, the default) or completion (base models).`)
}

/** `0-9,148` → {0…9, 148}; undefined when unset. */
export function parseTaskNumbers(value: string | undefined): ReadonlySet<number> | undefined {
  if (value === undefined || value.trim() === '') return undefined
  return new Set(parseNumberRanges('TESTBENCH_BIGCODEBENCH_TASKS', value))
}
