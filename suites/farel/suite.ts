import type { SuiteDeclaration } from '../../harness/suite-declaration.ts'
import { farelCharts } from './charts.ts'
import { farelKnobs } from './knobs.ts'
import { scoreFarel } from './score.ts'

/** FaRel generates its quizzes itself: no dataset to prepare, and nothing it runs. */
export const farel: SuiteDeclaration = {
  name: 'farel',
  title: 'FaRel',
  parts: 6,
  runsPrograms: false,
  knobs: farelKnobs,
  scorer: scoreFarel,
  charts: farelCharts,
}
