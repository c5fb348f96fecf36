/**
 * MBPP (Austin et al. 2021): the 500-task test split, the hand-checked
 * sanitized subset, and MBPP+ (EvalPlus) with many more tests per task.
 * `MODEL=qwen2.5-coder npx vitest run suites/mbpp`
 * The items are declared in part files (`mbpp-<k>.test.ts`), so that `--shard` spreads them evenly.
 */
import { benchmark, declarePart, type Part } from '../../harness/benchmark.ts'
import { sampleCount } from '../../harness/knobs.ts'
import { codeSuiteOptions, timeLimitPolicy } from '../../harness/python-tasks/options.ts'
import { pythonTaskFacts, runItem } from '../../harness/python-tasks/run-item.ts'
import { warmUpFor } from '../../harness/python-tasks/warm-up.ts'
import { loadMbpp } from './dataset.ts'
import { MBPP_KNOBS } from './knobs.ts'

const options = codeSuiteOptions(MBPP_KNOBS, sampleCount())
const policy = timeLimitPolicy(options)

/** Declares part `part` of every variant's tasks. */
export function declareMbpp(part: Part): Promise<void> {
  return declarePart('mbpp', part, async () => {
    for (const variant of options.variants) {
      const items = await loadMbpp(variant)
      // The sandbox's servers and the judge start while Vitest collects the items.
      warmUpFor(items)
      benchmark({
        suite: 'mbpp',
        variant,
        scoring: pythonTaskFacts,
        items,
        part,
        concurrent: true,
        run: (task, bench) => runItem(task, bench, options, policy),
      })
    }
  })
}
