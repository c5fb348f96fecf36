/**
 * `npm run bench:bigcodebench`: runs the BigCodeBench calibration over every canonical solution
 * (ignoring the cache, which it rewrites for the suite to use) and prints its wall time, tasks
 * per second, the CPU time the canonical solutions used, the concurrency, the peak memory of this
 * process, and what was excluded and why. Then, on BENCH_SAMPLE scored tasks (default 40, spread
 * over the set), one program at a time and interleaved task by task, the suite's checks against a
 * yardstick: the official harness's way without its sandbox-free multiprocessing plumbing, a fresh
 * /usr/bin/python3 that execs the program and its tests and runs unittest (no sandbox, no checks);
 * prints both medians and the ratio of the totals. Reads TESTBENCH_DATA_DIR, TESTBENCH_CACHE_DIR,
 * TESTBENCH_SANDBOX_CONCURRENCY and the TESTBENCH_BIGCODEBENCH_* knobs (TASKS, MEMORY_MB,
 * TIME_LIMIT) like the suite; BENCH_CACHED=1 keeps the calibration the cache has.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { removeOnInterrupt } from './support/interrupt-cleanup.ts'
import { sandboxConcurrency } from '../../adapters/sandbox/concurrency.ts'
import { sandbox } from '../../adapters/sandbox/index.ts'
import { calibrate, exclusionsByCategory } from '../../suites/bigcodebench/calibration.ts'
import { canonicalProgram, loadBigCodeBench, taskNumber } from '../../suites/bigcodebench/dataset.ts'
import { runChecks } from '../../suites/bigcodebench/run-checks.ts'
import { bigCodeBenchOptions } from '../../suites/bigcodebench/options.ts'
import { refuseArguments } from '../script-usage.ts'

const USAGE = `usage: npm run bench:bigcodebench
The BigCodeBench calibration over every canonical solution, then the suite's checks against a bare
/usr/bin/python3 on a sample of tasks. Environment: BENCH_SAMPLE (default 40), BENCH_CACHED=1 (keep the
cached calibration), TESTBENCH_DATA_DIR, TESTBENCH_CACHE_DIR, TESTBENCH_SANDBOX_CONCURRENCY, TESTBENCH_BIGCODEBENCH_*.`
refuseArguments(USAGE)

const options = bigCodeBenchOptions(1)
const selected = options.tasks
const tasks = (await loadBigCodeBench('full')).filter(
  (task) => selected === undefined || selected.has(taskNumber(task.id)),
)
const hardIds = new Set((await loadBigCodeBench('hard')).map((task) => task.id))

const started = performance.now()
const calibration = await calibrate(tasks, { ...options, fresh: process.env.BENCH_CACHED !== '1' })
const seconds = (performance.now() - started) / 1000

const ids = tasks.map((task) => task.id)
const scored = ids.filter((id) => calibration.entries.get(id)?.status === 'scored')
const cpuMs = scored.reduce((sum, id) => {
  const entry = calibration.entries.get(id)
  return sum + (entry?.status === 'scored' ? entry.canonicalCpuMs : 0)
}, 0)
const groups = exclusionsByCategory(calibration.entries, ids)
const hardScored = scored.filter((id) => hardIds.has(id)).length
const hardTotal = ids.filter((id) => hardIds.has(id)).length
const scoredShare = `${scored.length} (${((100 * scored.length) / tasks.length).toFixed(1)}%)`
const excluded = tasks.length - scored.length
const lines = [
  `BigCodeBench v0.1.0 calibration (${sandbox().tier} sandbox)`,
  `  tasks: ${tasks.length}; scored ${scoredShare}, excluded ${excluded}; hard subset: ${hardScored} of ${hardTotal} scored`,
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

const BARE = `
import sys, types, unittest
program, test = sys.stdin.read().split('\\0')
module = types.ModuleType('__test__')
exec(compile(program + '\\n' + test, '__test__.py', 'exec'), module.__dict__)
result = unittest.TestResult()
unittest.TestLoader().loadTestsFromTestCase(module.TestCases).run(result)
sys.exit(0 if result.wasSuccessful() else 1)
`
const sampleSize = Number(process.env.BENCH_SAMPLE ?? 40)
const scoredTasks = tasks.filter((task) => calibration.entries.get(task.id)?.status === 'scored')
const sample = scoredTasks
  .filter((_, index) => index % Math.max(1, Math.floor(scoredTasks.length / sampleSize)) === 0)
  .slice(0, sampleSize)
const ours: number[] = []
const bare: number[] = []
const scratch = removeOnInterrupt(mkdtempSync(join(tmpdir(), 'bench-bigcodebench-')))
try {
  for (const task of sample) {
    const program = canonicalProgram(task)
    let begin = performance.now()
    const entry = calibration.entries.get(task.id)
    const rawMemory = entry?.status === 'scored' ? entry.rawMemory : 'blocked'
    const run = await runChecks({
      id: task.id,
      program,
      test: task.test,
      entryPoint: task.entryPoint,
      timeLimitSeconds: options.timeLimitSeconds + 1,
      memoryBytes: options.memoryBytes,
      preload: calibration.preload,
      rawMemory,
    })
    ours.push(performance.now() - begin)
    begin = performance.now()
    // The task's own temporary files (tempfile.mkdtemp…) go in its dir too, which goes with the scratch dir.
    const taskDir = mkdtempSync(join(scratch, 'task-'))
    const plain = spawnSync('/usr/bin/python3', ['-c', BARE], {
      input: `${program}\0${task.test}`,
      cwd: taskDir,
      timeout: 600_000,
      env: { PATH: process.env.PATH ?? '', MPLBACKEND: 'Agg', TMPDIR: taskDir },
    })
    bare.push(performance.now() - begin)
    if (run.outcome !== 'passed' || plain.status !== 0)
      process.stdout.write(`  (${task.id}: suite ${run.outcome}, bare exit ${plain.status})\n`)
  }
} finally {
  await sandbox().close()
  rmSync(scratch, { recursive: true, force: true })
}
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0
const total = (values: number[]): number => values.reduce((sum, value) => sum + value, 0)
process.stdout.write(
  [
    `BigCodeBench checks against a bare interpreter, ${sample.length} canonical programs one at a time, interleaved (machine noise: compare ratios across runs)`,
    `  suite (sandboxed, warm, checked): median ${median(ours).toFixed(0)} ms, total ${(total(ours) / 1000).toFixed(1)} s`,
    `  bare python3 per program (no sandbox, no checks): median ${median(bare).toFixed(0)} ms, total ${(total(bare) / 1000).toFixed(1)} s`,
    `  suite / bare: ${(total(ours) / total(bare)).toFixed(2)} (totals), ${(median(ours) / median(bare)).toFixed(2)} (medians)`,
  ].join('\n') + '\n',
)
