// npm run bench:humaneval: what the suite costs over running the programs bare.
// MODEL=reference over all 164 HumanEval tasks through the suite (`vitest run`, as a user runs
// it: start-up, model plumbing, extraction, sandbox, reporters), then the same 164 programs
// (canonical solution + tests + check call) run one after another by a bare loop with the same
// interpreter, no sandbox; both in this run. Datasets: TESTBENCH_DATA_DIR, else ../shared/datasets
// when it exists, else the download cache.
import { execa } from 'execa'
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { HostToolchain } from '../adapters/sandbox/host-toolchain.ts'
import { loadHumanEval } from '../suites/humaneval/dataset.ts'
import { extractSolution, withImports } from '../harness/python-tasks/extract-solution.ts'
import { testProgram } from '../harness/python-tasks/python-task.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const shared = join(root, '..', 'shared', 'datasets')
const dataDir = process.env.TESTBENCH_DATA_DIR ?? (existsSync(shared) ? shared : undefined)
const env = { ...process.env, ...(dataDir === undefined ? {} : { TESTBENCH_DATA_DIR: dataDir }) }
const python = new HostToolchain().resolve('python')
if ('missing' in python) throw new Error(`No Python to run the programs with: ${python.missing}.`)

const tasks = await loadHumanEval('humaneval', env)
const dir = mkdtempSync(join(tmpdir(), 'testbench-bench-humaneval-'))
try {
  console.log(`HumanEval, ${tasks.length} tasks, MODEL=reference; bare loop with ${python.path}\n`)

  const suiteStarted = performance.now()
  const reportDir = join(dir, 'reports')
  const suite = await execa(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--project', 'suites', 'suites/humaneval'], {
    cwd: root,
    reject: false,
    env: {
      ...env,
      MODEL: 'reference',
      SAMPLES: '1',
      TESTBENCH_HUMANEVAL_VARIANTS: 'humaneval',
      TESTBENCH_CACHE_DIR: join(dir, 'cache'),
      TESTBENCH_REPORT_DIR: reportDir,
      CI: '1',
      NO_COLOR: '1',
    },
  })
  const suiteMs = performance.now() - suiteStarted
  const passed = readdirSync(join(reportDir, 'humaneval'))
    .filter((name) => name.endsWith('.jsonl'))
    .flatMap((name) => readFileSync(join(reportDir, 'humaneval', name), 'utf8').split('\n'))
    .filter((line) => line.includes('"outcome":"passed"')).length
  if (suite.exitCode !== 0 || passed !== tasks.length) {
    throw new Error(`The suite run failed (exit ${suite.exitCode}, ${passed} of ${tasks.length} passed):\n${suite.stdout.slice(-3000)}\n${suite.stderr.slice(-3000)}`)
  }

  const programs = tasks.map((task, index) => {
    const canonical = extractSolution(task.reference, task.entryPoint)
    if (canonical === undefined) throw new Error(`${task.id}: its reference reply holds no code.`)
    const file = join(dir, `p${index}.py`)
    writeFileSync(file, testProgram(task, withImports(canonical.code, task.preamble), 'print("BARE-LOOP-PASSED")'))
    return { id: task.id, file }
  })
  const bareStarted = performance.now()
  for (const program of programs) {
    const result = await execa(python.path, [program.file], { reject: false })
    if (!result.stdout.endsWith('BARE-LOOP-PASSED')) throw new Error(`${program.id} failed in the bare loop:\n${result.stderr}`)
  }
  const bareMs = performance.now() - bareStarted

  console.log(`through the suite (vitest run, ${passed}/${tasks.length} passed)   ${(suiteMs / 1000).toFixed(2).padStart(7)} s`)
  console.log(`bare loop, one program after another          ${(bareMs / 1000).toFixed(2).padStart(7)} s`)
  console.log(`ratio suite / bare                             ${(suiteMs / bareMs).toFixed(2).padStart(7)}×`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
