import type { KnobGroup } from '../../adapters/knob.ts'
import { codeSuiteKnobs } from '../../harness/python-tasks/knobs.ts'
import { MBPP_DEFAULT_VARIANTS, MBPP_VARIANTS } from './dataset.ts'

export const MBPP_KNOBS = codeSuiteKnobs('MBPP', { all: MBPP_VARIANTS, defaults: MBPP_DEFAULT_VARIANTS })

export const mbppKnobs: KnobGroup = { title: 'mbpp', knobs: Object.values(MBPP_KNOBS) }
