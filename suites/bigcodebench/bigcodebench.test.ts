/**
 * BigCodeBench (Zhuo et al. 2024): practical Python tasks that call about 70 libraries, judged
 * by their unittest TestCases. Complete (continue the signature and docstring) and Instruct (an
 * instruction in words), over all 1140 tasks or the 148 of BigCodeBench-Hard. Tasks whose
 * canonical solution fails in this environment are excluded (calibration), never counted.
 * `MODEL=qwen2.5-coder TESTBENCH_BIGCODEBENCH_SPLIT=complete,instruct npx vitest run suites/bigcodebench`
 */
import { benchmark } from '../../harness/benchmark.ts'
import { sampleCount } from '../../harness/knobs.ts'
import { BatchingRunner } from './batching-runner.ts'
import { calibrate, exclusionsByCategory } from './calibration.ts'
import { loadBigCodeBench, taskNumber } from './dataset.ts'
import { bigCodeBenchOptions } from './options.ts'
import { bigCodeBenchFacts, runItem } from './run-item.ts'
import { formatExclusions, variantName } from './variant.ts'

const options = bigCodeBenchOptions(sampleCount())
const selected = options.tasks
const tasks = (await loadBigCodeBench(options.subset)).filter((task) => selected === undefined || selected.has(taskNumber(task.id)))
const calibration = await calibrate(tasks, options)
const excluded = formatExclusions(exclusionsByCategory(calibration.entries, tasks.map((task) => task.id)))
const runner = new BatchingRunner({ memoryBytes: options.memoryBytes, maxBatch: 16, waitMs: 200 })
const canonicalMs = new Map<string, number>()
for (const [id, entry] of calibration.entries) if (entry.status === 'scored') canonicalMs.set(id, entry.canonicalMs)
const scored = tasks.filter((task) => canonicalMs.has(task.id))
process.stderr.write(`BigCodeBench ${options.subset}: ${scored.length} of ${tasks.length} tasks scored here${excluded === '' ? '' : `; excluded: ${excluded}`}\n`)

for (const split of options.splits) {
  benchmark({
    suite: 'bigcodebench',
    variant: variantName(split, options.subset),
    scoring: bigCodeBenchFacts,
    items: scored,
    ...(selected === undefined ? {} : { narrowedBy: `TESTBENCH_BIGCODEBENCH_TASKS=${process.env.TESTBENCH_BIGCODEBENCH_TASKS}` }),
    concurrent: true,
    run: (task, bench) =>
      runItem(task, bench, {
        split,
        options,
        runner,
        canonicalMs: canonicalMs.get(task.id) ?? 0,
        calibration: calibration.fingerprint,
        excluded,
      }),
  })
}
