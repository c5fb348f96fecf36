import {
  booleanKnob,
  choiceKnob,
  listKnob,
  numberKnob,
  textKnob,
  wholeNumberKnob,
  type KnobGroup,
} from '../../adapters/knob.ts'
import { numberRangesKnob } from '../../harness/number-ranges.ts'
import { LANGUAGE_IDS } from './languages.ts'

export const ERAS = ['current', 'pe100'] as const
/** `current`: today's detailed prompt; `pe100`: the shorter prompt of the PE-Bench-100 era. */
export type Era = (typeof ERAS)[number]

export const MODES = ['oneshot', 'tool'] as const
/** `oneshot`: one request, the program taken from the reply; `tool`: upstream's tool agent (inference-with-tools.py) in a virtual workspace. */
export type Mode = (typeof MODES)[number]

/** Upstream's default batches: problems 1–100 in one-shot mode, its tool batch 101–200 in tool mode. */
export const DEFAULT_PROBLEMS: Record<Mode, string> = { oneshot: '1-100', tool: '101-200' }

export const MODE = choiceKnob({
  name: 'TESTBENCH_EULER_MODE',
  choices: MODES,
  default: 'oneshot',
  readme:
    "`tool` runs upstream's tool agent (`inference-with-tools.py`): the model works in a virtual workspace through tools and delivers a file",
})
export const LANGUAGES = listKnob({
  name: 'TESTBENCH_EULER_LANGUAGES',
  choices: LANGUAGE_IDS,
  default: ['python', 'java', 'rust', 'clojure'],
  readme: 'one variant per language',
})
export const PROBLEMS = numberRangesKnob({
  name: 'TESTBENCH_EULER_PROBLEMS',
  defaultText: '1-100 (tool mode: 101-200)',
  smallest: 1,
  readme: 'which problems run',
})
export const ERA = choiceKnob({
  name: 'TESTBENCH_EULER_ERA',
  choices: ERAS,
  default: 'current',
  readme: "the prompt and the combined score's estimate of the PE-100 era (see Upstream and deviations)",
})
export const OVERWRITE = booleanKnob({
  name: 'TESTBENCH_EULER_OVERWRITE',
  default: false,
  readme: 'run stored model × language results again instead of reusing them',
})
/**
 * The original's rule that counts a problem solved when its answer appears anywhere in the code, without
 * running it: a known false positive (problem 35's answer is 55).
 */
export const ANSWER_IN_CODE = booleanKnob({
  name: 'TESTBENCH_EULER_ANSWER_IN_CODE',
  default: false,
  readme: "the original's answer-in-code rule, a known false positive",
})
export const RUN_TIMEOUT_MS = wholeNumberKnob({
  name: 'TESTBENCH_EULER_RUN_TIMEOUT_MS',
  default: 10_000,
  min: 1,
  unit: 'milliseconds',
  readme: 'wall time of one program run, compilation not counted',
})
export const SCRAPE_DELAY_MS = wholeNumberKnob({
  name: 'TESTBENCH_EULER_SCRAPE_DELAY_MS',
  default: 1000,
  unit: 'milliseconds',
  readme: 'pause between two requests to projecteuler.net',
})
export const PARAMETERS = numberKnob({
  name: 'TESTBENCH_EULER_PARAMETERS',
  above: true,
  unit: 'billions of parameters',
  defaultText: "Ollama's details, else the name",
  readme: "the model's size for Mem-Score and Best Model for Size",
})
export const BITS = wholeNumberKnob({
  name: 'TESTBENCH_EULER_BITS',
  min: 1,
  unit: 'bits per weight',
  defaultText: "Ollama's details, else the name",
  readme: "the model's quantization for Mem-Score",
})
export const SHA256 = textKnob({
  name: 'TESTBENCH_EULER_SHA256',
  defaultText: 'the pinned snapshot',
  accepted: 'a sha256 in hex',
  readme: "pins another `euler/solutions.json` in `TESTBENCH_DATA_DIR` (a made-up fixture's)",
})

export const eulerKnobs: KnobGroup = {
  title: 'euler',
  knobs: [
    LANGUAGES,
    MODE,
    PROBLEMS,
    ERA,
    OVERWRITE,
    ANSWER_IN_CODE,
    RUN_TIMEOUT_MS,
    SCRAPE_DELAY_MS,
    PARAMETERS,
    BITS,
    SHA256,
  ],
}
