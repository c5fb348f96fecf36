import type { SuiteDeclaration } from '../../harness/suite-declaration.ts'
import { loadInstances } from './dataset.ts'
import { swebenchKnobs } from './knobs.ts'
import { swebenchOptions } from './options.ts'
import { writePredictions } from './predictions.ts'
import { scoreSwebench } from './score.ts'

/** Each instance runs in a container of its own, whose engine the suite's own set-up checks: nothing in adapters/sandbox. */
export const swebench: SuiteDeclaration = {
  name: 'swebench',
  title: 'SWE-bench',
  parts: 6,
  runsPrograms: false,
  knobs: swebenchKnobs,
  scorer: scoreSwebench,
  suiteFiles: writePredictions,
  prepareDatasets: (env) => {
    const options = swebenchOptions(env)
    return [loadInstances({ datasetFile: options.datasetFile, instances: options.instances, env })]
  },
}
