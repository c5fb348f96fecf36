import { choiceKnob, pathKnob, textKnob, wholeNumberKnob, type KnobGroup } from '../adapters/knob.ts'

/** The run-wide knobs, declared once; harness/knobs.ts and the reporters read them through these declarations. */

export const MODEL = textKnob({
  name: 'MODEL',
  accepted: 'provider:model, comma-separated for several',
  readme: 'the models to benchmark (see Models)',
})
export const SAMPLES = wholeNumberKnob({
  name: 'SAMPLES',
  default: 1,
  min: 1,
  readme:
    'samples per item, each its own test (`… > HumanEval/0 has_close_elements sample 3`; samples count from 0, as in the records and replay files)',
})
export const DATA_DIR = pathKnob({
  name: 'TESTBENCH_DATA_DIR',
  accepted: 'a directory laid out as `<dir>/<dataset>/<file>`',
  readme: 'read datasets from this directory instead of downloading them',
})
export const REPORT_DIR = pathKnob({
  name: 'TESTBENCH_REPORT_DIR',
  default: '.testbench/reports',
  accepted: 'a writable directory',
  readme: 'reports, results files, screenshots',
})
export const HTML_DIR = pathKnob({
  name: 'TESTBENCH_HTML_DIR',
  accepted: 'a writable directory',
  readme: "also write Vitest's single-file html report to `<dir>/index.html`",
})
export const PROMPT_MODES = ['chat', 'completion'] as const
export type PromptMode = (typeof PROMPT_MODES)[number]
export const PROMPT_MODE = choiceKnob({
  name: 'TESTBENCH_PROMPT_MODE',
  choices: PROMPT_MODES,
  default: 'chat',
  accepted: 'chat or completion (base models)',
  readme: 'prompt form of the Python code suites',
})
const GATE_FILE = 'testbench.gate.json'
export const GATE_CONFIG = pathKnob({
  name: 'TESTBENCH_GATE_CONFIG',
  default: GATE_FILE,
  defaultText: `${GATE_FILE} if present`,
  accepted: 'a gate config file, or off',
  readme: "the model gate's config",
})

export const harnessKnobs: KnobGroup = {
  title: 'run',
  knobs: [MODEL, SAMPLES, DATA_DIR, REPORT_DIR, HTML_DIR, PROMPT_MODE, GATE_CONFIG],
}
