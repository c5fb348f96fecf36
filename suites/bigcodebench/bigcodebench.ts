/**
 * BigCodeBench (Zhuo et al. 2024): practical Python tasks that call about 70 libraries, judged
 * by their unittest TestCases. Complete (continue the signature and docstring) and Instruct (an
 * instruction in words), over all 1140 tasks or the 148 of BigCodeBench-Hard. Tasks whose
 * canonical solution fails in this environment are excluded (calibration) and listed; the score
 * is given over the tasks scored here and over all of them, the excluded counted as failed.
 * `MODEL=qwen2.5-coder TESTBENCH_BIGCODEBENCH_SPLIT=complete,instruct npx vitest run suites/bigcodebench`
 * The items are declared in part files (`bigcodebench-<k>.test.ts`). Each needs the calibration of
 * the whole selection (which tasks are scored decides the parts); the workers of a run share it
 * (calibration.ts), each starting with its own part's tasks.
 */
import { benchmark, declarePart, type Part } from '../../harness/benchmark.ts'
import { sampleCount } from '../../harness/knobs.ts'
import { calibrate, exclusionsByCategory } from './calibration.ts'
import { loadBigCodeBench, taskNumber } from './dataset.ts'
import { TASKS } from './knobs.ts'
import { bigCodeBenchOptions } from './options.ts'
import type { RawMemoryAccess } from './run-checks.ts'
import { bigCodeBenchFacts } from './facts.ts'
import { runItem } from './run-item.ts'
import { formatExclusions, variantName } from './variant.ts'

const options = bigCodeBenchOptions(sampleCount())

/** Declares part `part` of every split's scored tasks. */
export function declareBigCodeBench(part: Part): Promise<void> {
  return declarePart('bigcodebench', part, async () => {
    const selected = options.tasks
    const tasks = (await loadBigCodeBench(options.subset)).filter(
      (task) => selected === undefined || selected.has(taskNumber(task.id)),
    )
    const startAt = Math.floor(((part.index - 1) * tasks.length) / part.count)
    const calibration = await calibrate(tasks, options, startAt)
    const excluded = formatExclusions(
      exclusionsByCategory(
        calibration.entries,
        tasks.map((task) => task.id),
      ),
    )
    const canonical = new Map<string, { canonicalMs: number; rawMemory: RawMemoryAccess }>()
    for (const [id, entry] of calibration.entries)
      if (entry.status === 'scored') canonical.set(id, { canonicalMs: entry.canonicalMs, rawMemory: entry.rawMemory })
    const scored = tasks.filter((task) => canonical.has(task.id))
    if (part.index === 1 && scored.length < tasks.length) {
      process.stderr.write(
        `BigCodeBench ${options.subset}: ${scored.length} of ${tasks.length} tasks scored here; excluded: ${excluded}\n`,
      )
    }
    for (const split of options.splits) {
      benchmark({
        suite: 'bigcodebench',
        variant: variantName(split, options.subset),
        scoring: bigCodeBenchFacts,
        items: scored,
        part,
        ...(selected === undefined ? {} : { narrowedBy: `${TASKS.name}=${TASKS.raw()}` }),
        concurrent: true,
        run: (task, bench) =>
          runItem(task, bench, {
            split,
            options,
            ...(canonical.get(task.id) ?? { canonicalMs: 0, rawMemory: 'blocked' }),
            preload: calibration.preload,
            excluded,
          }),
      })
    }
  })
}
