import { booleanKnob, choiceKnob, listKnob, numberKnob, textKnob, type KnobGroup } from '../../adapters/knob.ts'
import { numberRangesKnob } from '../../harness/number-ranges.ts'
import { suitePromptModeKnob } from '../../harness/python-tasks/knobs.ts'

export const SPLITS = ['complete', 'instruct'] as const
export type Split = (typeof SPLITS)[number]
export const SUBSETS = ['full', 'hard'] as const
export type Subset = (typeof SUBSETS)[number]

export const SPLIT = listKnob({
  name: 'TESTBENCH_BIGCODEBENCH_SPLIT',
  choices: SPLITS,
  default: ['complete'],
  readme: 'which splits run, each with its own score',
})
export const SUBSET = choiceKnob({
  name: 'TESTBENCH_BIGCODEBENCH_SUBSET',
  choices: SUBSETS,
  default: 'full',
  accepted: 'full (1140 tasks) or hard (148)',
  readme: 'which tasks',
})
export const VERSION = textKnob({
  name: 'TESTBENCH_BIGCODEBENCH_VERSION',
  default: 'v0.1.0',
  pattern: /^v\d+\.\d+\.\d+$/,
  accepted: "a release as vX.Y.Z: v0.1.0 (pinned JSON files), v0.1.4 (the leaderboard's) or another release on the hub",
  readme: 'the dataset release, named in the score',
})
export const SHA256 = textKnob({
  name: 'TESTBENCH_BIGCODEBENCH_SHA256',
  defaultText: 'the pinned file',
  accepted: 'a sha256 in hex',
  readme: 'pins a hub release the project has not pinned (only v0.1.4 is)',
})
export const PROMPT_MODE = suitePromptModeKnob('BIGCODEBENCH')
export const TASKS = numberRangesKnob({
  name: 'TESTBENCH_BIGCODEBENCH_TASKS',
  defaultText: 'all',
  readme: 'which tasks run',
})
export const MEMORY_MB = numberKnob({
  name: 'TESTBENCH_BIGCODEBENCH_MEMORY_MB',
  default: 4096,
  above: true,
  unit: 'megabytes',
  readme: 'memory per task',
})
export const TIME_LIMIT = numberKnob({
  name: 'TESTBENCH_BIGCODEBENCH_TIME_LIMIT',
  default: 240,
  above: true,
  unit: 'seconds',
  readme:
    "CPU time per task, as the official TIMEOUT_LIMIT: max(this, the canonical solution's time) + 1 s; wall clock stops at twice that + 30 s",
})
export const CALIBRATED = booleanKnob({
  name: 'TESTBENCH_BIGCODEBENCH_CALIBRATED',
  default: true,
  readme: "bigcodebench.evaluate's `--calibrated`: the code prompt and `pass` go before each solution",
})
export const TEMPERATURE = numberKnob({
  name: 'TESTBENCH_BIGCODEBENCH_TEMPERATURE',
  defaultText: '0 (0.8 with SAMPLES>1)',
  readme: 'sampling temperature',
})

export const bigCodeBenchKnobs: KnobGroup = {
  title: 'bigcodebench',
  knobs: [SPLIT, SUBSET, VERSION, SHA256, PROMPT_MODE, TASKS, MEMORY_MB, TIME_LIMIT, CALIBRATED, TEMPERATURE],
}
