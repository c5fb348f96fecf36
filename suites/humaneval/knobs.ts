import type { KnobGroup } from '../../adapters/knob.ts'
import { codeSuiteKnobs } from '../../harness/python-tasks/knobs.ts'
import { HUMANEVAL_VARIANTS } from './dataset.ts'

export const HUMANEVAL_KNOBS = codeSuiteKnobs('HUMANEVAL', { all: HUMANEVAL_VARIANTS, defaults: HUMANEVAL_VARIANTS })

export const humanEvalKnobs: KnobGroup = { title: 'humaneval', knobs: Object.values(HUMANEVAL_KNOBS) }
