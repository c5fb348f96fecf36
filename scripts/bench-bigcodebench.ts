/**
 * `npm run bench:bigcodebench`: runs the BigCodeBench calibration over every canonical solution
 * (ignoring the cache, which it rewrites for the suite to use) and prints its wall time, tasks
 * per second, the CPU time the canonical solutions used, the concurrency, the peak memory of this
 * process, and what was excluded and why. Reads TESTBENCH_DATA_DIR, TESTBENCH_CACHE_DIR,
 * TESTBENCH_SANDBOX_CONCURRENCY and the TESTBENCH_BIGCODEBENCH_* knobs (TASKS, MEMORY_MB,
 * TIME_LIMIT) like the suite.
 */
import { sandboxConcurrency } from '../adapters/sandbox/concurrency.ts'
import { sandbox } from '../adapters/sandbox/index.ts'
import { calibrate, exclusionsByCategory } from '../suites/bigcodebench/calibration.ts'
import { loadBigCodeBench, taskNumber } from '../suites/bigcodebench/dataset.ts'
import { bigCodeBenchOptions } from '../suites/bigcodebench/options.ts'

const options = bigCodeBenchOptions(1)
const selected = options.tasks
const tasks = (await loadBigCodeBench('full')).filter((task) => selected === undefined || selected.has(taskNumber(task.id)))
const hardIds = new Set((await loadBigCodeBench('hard')).map((task) => task.id))

const started = performance.now()
const calibration = await calibrate(tasks, { ...options, fresh: true })
const seconds = (performance.now() - started) / 1000
await sandbox().close()

const ids = tasks.map((task) => task.id)
const scored = ids.filter((id) => calibration.entries.get(id)?.status === 'scored')
const cpuMs = scored.reduce((sum, id) => {
  const entry = calibration.entries.get(id)
  return sum + (entry?.status === 'scored' ? entry.canonicalCpuMs : 0)
}, 0)
const groups = exclusionsByCategory(calibration.entries, ids)
const hardScored = scored.filter((id) => hardIds.has(id)).length
const hardTotal = ids.filter((id) => hardIds.has(id)).length
const lines = [
  `BigCodeBench v0.1.0 calibration (${sandbox().tier} sandbox)`,
  `  tasks: ${tasks.length}; scored ${scored.length} (${((100 * scored.length) / tasks.length).toFixed(1)}%), excluded ${tasks.length - scored.length}; hard subset: ${hardScored} of ${hardTotal} scored`,
  `  wall time: ${seconds.toFixed(1)} s, ${(tasks.length / seconds).toFixed(2)} tasks/s`,
  `  concurrency: ${sandboxConcurrency()} sandbox runs at once, one program per run on a warm interpreter that preloads ${calibration.preload.length} modules`,
  `  CPU time of the scored canonical solutions: ${(cpuMs / 1000).toFixed(1)} s in all`,
  `  peak RSS of this process: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`,
  `  cache: ${calibration.dir}`,
]
for (const [category, list] of groups) {
  lines.push(`  excluded, ${category}: ${list.length}`)
  for (const id of list) {
    const entry = calibration.entries.get(id)
    if (entry?.status === 'excluded') lines.push(`    ${id}: ${entry.reason.split('\n')[0]?.slice(0, 160)}`)
  }
}
const missing = ids.filter((id) => !calibration.entries.has(id))
if (missing.length > 0) lines.push(`  not calibrated (sandbox failures, retried next run): ${missing.join(', ')}`)
process.stdout.write(`${lines.join('\n')}\n`)
