/**
 * SWE-bench (Jimenez et al. 2024): resolve a real GitHub issue with a patch; it is
 * resolved when the tests pass in the instance's container afterwards.
 * Lite by default: `MODEL=qwen2.5-coder npx vitest run suites/swebench`
 */
import { benchmark } from '../../harness/benchmark.ts'
import { loadInstances } from './dataset.ts'
import { swebenchOptions } from './options.ts'
import { assertEngineReachable, runItem, swebenchItem, swebenchRun } from './run-item.ts'
import { swebenchFacts } from './score.ts'

const options = swebenchOptions()
await assertEngineReachable(options)
const run = swebenchRun(options)

benchmark({
  suite: 'swebench',
  items: (await loadInstances({ datasetFile: options.datasetFile, instances: options.instances })).map(swebenchItem),
  scoring: swebenchFacts,
  concurrent: true,
  run: (item, bench) => runItem(item, bench, run),
})
