import { codeSuiteOptions } from '../../harness/python-tasks/options.ts'
import type { SuiteDeclaration } from '../../harness/suite-declaration.ts'
import { loadMbpp } from './dataset.ts'
import { MBPP_KNOBS, mbppKnobs } from './knobs.ts'
import { scoreMbpp } from './score.ts'

export const mbpp: SuiteDeclaration = {
  name: 'mbpp',
  title: 'MBPP',
  parts: 12,
  runsPrograms: true,
  knobs: mbppKnobs,
  scorer: scoreMbpp,
  prepareDatasets: (env) => codeSuiteOptions(MBPP_KNOBS, 1, env).variants.map((variant) => loadMbpp(variant, env)),
}
