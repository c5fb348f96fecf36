import type { KnobGroup } from '../../adapters/knob.ts'
import { codeSuiteKnobs } from '../../harness/python-tasks/knobs.ts'
import { codeSuiteOptions } from '../../harness/python-tasks/options.ts'
import { HUMANEVAL_VARIANTS } from './dataset.ts'

export const humanEvalKnobs: KnobGroup = {
  title: 'humaneval',
  knobs: codeSuiteKnobs('HUMANEVAL', { all: HUMANEVAL_VARIANTS, defaults: HUMANEVAL_VARIANTS }),
  check: (env) => codeSuiteOptions('HUMANEVAL', HUMANEVAL_VARIANTS, HUMANEVAL_VARIANTS, 1, env),
}
