import type { ModelDetails, ThinkSetting } from './model-adapter.ts'

/** What a model's details (as its up-front check and the run recorded them) say it can do, for suites and reports. */
export interface ModelAbilities {
  /** Images are sent to it; when false they are left out and the prompt's "(see image)" stands alone. */
  vision: boolean
  /** Whether the model can think, where its provider says (Ollama's capabilities, Gemini's model info). */
  thinks?: boolean
  /** TESTBENCH_THINK as the run asked it; `default` leaves the model's own. */
  think: ThinkSetting | 'default'
}

const THINK_VALUES: ReadonlyArray<ThinkSetting | 'default'> = ['on', 'off', 'low', 'medium', 'high', 'default']

export function modelAbilities(details: ModelDetails): ModelAbilities {
  const think = THINK_VALUES.find((value) => value === details.think) ?? 'default'
  return {
    vision: details.vision === 'yes',
    ...(details.thinks === undefined ? {} : { thinks: details.thinks === 'yes' }),
    think,
  }
}
