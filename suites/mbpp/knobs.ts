import type { KnobGroup } from '../../adapters/knob.ts'
import { codeSuiteKnobs } from '../../harness/python-tasks/knobs.ts'
import { codeSuiteOptions } from '../../harness/python-tasks/options.ts'
import { MBPP_DEFAULT_VARIANTS, MBPP_VARIANTS } from './dataset.ts'

export const mbppKnobs: KnobGroup = {
  title: 'mbpp',
  knobs: codeSuiteKnobs('MBPP', { all: MBPP_VARIANTS, defaults: MBPP_DEFAULT_VARIANTS }),
  check: (env) => codeSuiteOptions('MBPP', MBPP_VARIANTS, MBPP_DEFAULT_VARIANTS, 1, env),
}
