import { choiceKnob, numberKnob, type KnobGroup } from '../../adapters/knob.ts'

/** The knobs of the providers' batch APIs (harness/batches/batch-queue.ts), read through their declarations. */

export const BATCH = choiceKnob({
  name: 'TESTBENCH_BATCH',
  choices: ['off', 'on'],
  default: 'off',
  readme:
    "`on` asks one-shot items of OpenAI, Anthropic and Gemini through the providers' batch APIs (half price, answers within 24 h), resumable from the cache dir",
})
export const BATCH_WAIT = numberKnob({
  name: 'TESTBENCH_BATCH_WAIT',
  default: 3,
  unit: 'seconds',
  readme:
    'how long a batch gathers requests after the last one came, once every test file of the run has started its items, before it is submitted',
})
export const BATCH_POLL = numberKnob({
  name: 'TESTBENCH_BATCH_POLL',
  default: 60,
  above: true,
  unit: 'seconds',
  readme:
    "the longest wait between two polls of an open batch (polls start at 1/32 of it, then come every 2 % of the time waited, and once at the time the provider's counts say the batch ends)",
})

export const batchKnobs: KnobGroup = { title: 'batches', knobs: [BATCH, BATCH_WAIT, BATCH_POLL] }

export function batchMode(env: NodeJS.ProcessEnv = process.env): boolean {
  return BATCH.read(env) === 'on'
}
