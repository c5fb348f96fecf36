/**
 * HumanEval (Chen et al. 2021) and HumanEval+ (EvalPlus): write the function
 * from its signature and docstring; it passes when the hidden tests pass.
 * `MODEL=qwen2.5-coder npx vitest run suites/humaneval`
 * The items are declared in part files (`humaneval-<k>.test.ts`), so that `--shard` spreads them evenly.
 */
import { benchmark, declarePart, type Part } from '../../harness/benchmark.ts'
import { sampleCount } from '../../harness/knobs.ts'
import { codeSuiteOptions, timeLimitPolicy } from '../../harness/python-tasks/options.ts'
import { pythonTaskFacts, runItem } from '../../harness/python-tasks/run-item.ts'
import { warmUpFor } from '../../harness/python-tasks/warm-up.ts'
import { loadHumanEval } from './dataset.ts'
import { HUMANEVAL_KNOBS } from './knobs.ts'

const options = codeSuiteOptions(HUMANEVAL_KNOBS, sampleCount())
const policy = timeLimitPolicy(options)

/** Declares part `part` of every variant's tasks. */
export function declareHumanEval(part: Part): Promise<void> {
  return declarePart('humaneval', part, async () => {
    for (const variant of options.variants) {
      const items = await loadHumanEval(variant)
      // The sandbox's servers and the judge start while Vitest collects the items.
      warmUpFor(items)
      benchmark({
        suite: 'humaneval',
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
