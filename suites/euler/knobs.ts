import type { KnobGroup } from '../../adapters/knob.ts'
import { eulerOptions } from './options.ts'

export const eulerKnobs: KnobGroup = {
  title: 'euler',
  knobs: [
    { name: 'TESTBENCH_EULER_LANGUAGES', kind: 'list', default: 'python,java,rust,clojure', accepted: 'a comma list of python, java, rust, clojure, javascript, go, c, cpp', readme: 'one variant per language' },
    { name: 'TESTBENCH_EULER_MODE', kind: 'choice', default: 'oneshot', accepted: 'oneshot or tool', readme: "`tool` runs upstream's tool agent (`inference-with-tools.py`): the model works in a virtual workspace through tools and delivers a file" },
    { name: 'TESTBENCH_EULER_PROBLEMS', kind: 'list', default: '1-100 (tool mode: 101-200)', accepted: 'numbers and ranges, e.g. `1-200`, `1-10,22`', readme: 'which problems run' },
    { name: 'TESTBENCH_EULER_ERA', kind: 'choice', default: 'current', accepted: 'current or pe100', readme: "the prompt and the combined score's estimate of the PE-100 era (see Upstream and deviations)" },
    { name: 'TESTBENCH_EULER_OVERWRITE', kind: 'boolean', default: 'off', accepted: '1/on/true or 0/off/false', readme: 'run stored model × language results again instead of reusing them' },
    { name: 'TESTBENCH_EULER_ANSWER_IN_CODE', kind: 'boolean', default: 'off', accepted: '1/on/true or 0/off/false', readme: "the original's answer-in-code rule, a known false positive" },
    { name: 'TESTBENCH_EULER_RUN_TIMEOUT_MS', kind: 'integer', default: '10000', accepted: 'milliseconds, ≥ 1', readme: 'wall time of one program run, compilation not counted' },
    { name: 'TESTBENCH_EULER_SCRAPE_DELAY_MS', kind: 'integer', default: '1000', accepted: 'milliseconds, ≥ 0', readme: 'pause between two requests to projecteuler.net' },
    { name: 'TESTBENCH_EULER_PARAMETERS', kind: 'number', default: "Ollama's details, else the name", accepted: 'billions of parameters, above 0', readme: "the model's size for Mem-Score and Best Model for Size" },
    { name: 'TESTBENCH_EULER_BITS', kind: 'integer', default: "Ollama's details, else the name", accepted: 'bits per weight, ≥ 1', readme: "the model's quantization for Mem-Score" },
    { name: 'TESTBENCH_EULER_SHA256', kind: 'text', default: 'the pinned snapshot', accepted: 'a sha256 in hex', readme: "pins another `euler/solutions.json` in `TESTBENCH_DATA_DIR` (a made-up fixture's)" },
  ],
  check: (env) => eulerOptions(env),
}
