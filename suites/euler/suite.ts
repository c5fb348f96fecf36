import type { SuiteDeclaration } from '../../harness/suite-declaration.ts'
import { eulerCharts } from './charts.ts'
import { eulerProblems } from './dataset/data-source.ts'
import { eulerKnobs } from './knobs.ts'
import { eulerOptions } from './options.ts'
import { eulerResultsTable } from './results-table.ts'
import { scoreEuler } from './score.ts'

export const euler: SuiteDeclaration = {
  name: 'euler',
  title: 'PE-Bench',
  parts: 6,
  runsPrograms: true,
  knobs: eulerKnobs,
  scorer: scoreEuler,
  resultsTable: eulerResultsTable,
  prepareDatasets: (env) => [eulerProblems(eulerOptions(env), env)],
  charts: eulerCharts,
}
