import { codeSuiteOptions } from '../../harness/python-tasks/options.ts'
import type { SuiteDeclaration } from '../../harness/suite-declaration.ts'
import { loadHumanEval } from './dataset.ts'
import { HUMANEVAL_KNOBS, humanEvalKnobs } from './knobs.ts'
import { scoreHumanEval } from './score.ts'

export const humaneval: SuiteDeclaration = {
  name: 'humaneval',
  title: 'HumanEval',
  parts: 6,
  runsPrograms: true,
  knobs: humanEvalKnobs,
  scorer: scoreHumanEval,
  prepareDatasets: (env) =>
    codeSuiteOptions(HUMANEVAL_KNOBS, 1, env).variants.map((variant) => loadHumanEval(variant, env)),
}
