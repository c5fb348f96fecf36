/**
 * SWE-bench (Jimenez et al. 2024): resolve a real GitHub issue with a patch; it is
 * resolved when the tests pass in the instance's container afterwards.
 * Lite by default: `MODEL=qwen2.5-coder npx vitest run suites/swebench`
 * The items are declared in part files (`swebench-<k>.test.ts`), so that `--shard` spreads them evenly.
 */
import { inject } from 'vitest'
import { benchmark, declarePart, type Part } from '../../harness/benchmark.ts'
import { runWideLimiter } from '../../harness/run-wide/run-slots.ts'
import { loadInstances } from './dataset.ts'
import { INSTANCES } from './knobs.ts'
import { swebenchOptions } from './options.ts'
import { replayModeProblem } from './replay-mode.ts'
import { assertEngineReachable, runItem, swebenchItem, swebenchRun, type SwebenchRun } from './run-item.ts'
import { runAgentItem } from './agent/run-agent-item.ts'
import { swebenchFacts } from './score.ts'

const options = swebenchOptions()
let shared: SwebenchRun | undefined

/**
 * One run for the part files of a worker; its containers (TESTBENCH_SWEBENCH_CONCURRENCY) are
 * counted across the workers that run other parts at the same time.
 */
function run(): SwebenchRun {
  if (shared) return shared
  const slots = inject('runSlots')
  if (slots === undefined) return (shared = swebenchRun(options))
  return (shared = swebenchRun(options, process.env, {
    run: runWideLimiter(slots, 'swebench:containers', options.concurrency),
  }))
}

/** Declares part `part` of the instances. */
export function declareSwebench(part: Part): Promise<void> {
  return declarePart('swebench', part, async () => {
    for (const model of inject('benchModels')) {
      const problem = model.provider === 'replay' ? replayModeProblem(model.model, options.mode) : undefined
      if (problem !== undefined) throw new Error(problem)
    }
    await assertEngineReachable(options)
    const runs = run()
    benchmark({
      suite: 'swebench',
      items: (await loadInstances({ datasetFile: options.datasetFile, instances: options.instances })).map((instance) =>
        swebenchItem(instance, options.mode),
      ),
      part,
      ...(options.instances === undefined ? {} : { narrowedBy: `${INSTANCES.name}=${INSTANCES.raw()}` }),
      scoring: swebenchFacts,
      concurrent: true,
      // The agent's tracks here, not in runItem, so that run-item.ts and agent/run-agent-item.ts do not import each other.
      run: (item, bench) =>
        runs.options.mode === 'oneshot' ? runItem(item, bench, runs) : runAgentItem(item, bench, runs),
    })
  })
}
