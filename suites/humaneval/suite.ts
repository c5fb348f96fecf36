import { codeSuiteOptions } from '../../harness/python-tasks/options.ts'
import type { SuiteDeclaration } from '../../harness/suite-declaration.ts'
import { HUMANEVAL_VARIANTS, loadHumanEval } from './dataset.ts'
import { humanEvalKnobs } from './knobs.ts'
import { scoreHumanEval } from './score.ts'

export const humaneval: SuiteDeclaration = {
  name: 'humaneval',
  title: 'HumanEval',
  parts: 6,
  runsPrograms: true,
  knobs: humanEvalKnobs,
  scorer: scoreHumanEval,
  prepareDatasets: (env) => codeSuiteOptions('HUMANEVAL', HUMANEVAL_VARIANTS, HUMANEVAL_VARIANTS, 1, env).variants.map((variant) => loadHumanEval(variant, env)),
}
