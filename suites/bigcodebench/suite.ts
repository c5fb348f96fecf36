import { sampleCount } from '../../harness/knobs.ts'
import type { SuiteDeclaration } from '../../harness/suite-declaration.ts'
import { loadBigCodeBench } from './dataset.ts'
import { bigCodeBenchKnobs } from './knobs.ts'
import { bigCodeBenchOptions } from './options.ts'
import { scoreBigCodeBench } from './score.ts'

export const bigcodebench: SuiteDeclaration = {
  name: 'bigcodebench',
  title: 'BigCodeBench',
  parts: 6,
  runsPrograms: true,
  knobs: bigCodeBenchKnobs,
  scorer: scoreBigCodeBench,
  prepareDatasets: (env) => [loadBigCodeBench(bigCodeBenchOptions(sampleCount(env), env).subset, env)],
}
