// npm run bench:bigcodebench-upstream: BigCodeBench-Complete on a fixed sample of tasks, through the README's command
// and through bigcode-project/bigcodebench's own evaluator on the same outputs (each task's canonical solution),
// interleaved round by round after an untimed warm-up round:
// - suite: `npx vitest run suites/bigcodebench` with MODEL=reference and TESTBENCH_BIGCODEBENCH_TASKS=<the sample>, as
//   an ordinary user (as root: BENCH_USER, default nobody); a first run on an empty cache (it calibrates the sample's
//   canonical solutions, as upstream times its ground truth) and a warm run on the cache its warm-up run filled;
// - upstream: `python3 -m bigcodebench.evaluate --execution local --split complete --subset full --samples <the
//   solutions> --selective_evaluate <the sample>` from bigcodebench at 47eff25 (BENCH_BIGCODEBENCH_UPSTREAM: a git
//   dir, a clone or a copy of it), by Debian's /usr/bin/python3 with the apt packages of
//   .ci/bigcodebench-packages.txt, as the same user, on the dataset file the suite reads (BIGCODEBENCH_OVERRIDE_PATH);
//   a first run on an empty cache (it runs the ground truth) and a warm run on a filled one; its default parallelism
//   (half the cores). Its time ends when its results file is written (its last act).
// bigcodebench imports modules Debian does not package (gradio_client, e2b, httpx where missing, pqdm,
// tree_sitter, tree_sitter_python, tempdir, transformers, datasets): none is called by a local evaluation of given samples, so the bench puts
// stand-ins on its PYTHONPATH that raise if anything of them is called.
// Knobs: BENCH_ROUNDS (default 5), BENCH_SAMPLE (default 20 tasks: BigCodeBench/0, then every 1140/N-th), or
// BENCH_SAMPLE_TASKS (task numbers, e.g. 570,1139: the sample named instead).
// Datasets from TESTBENCH_DATA_DIR, else ../shared/datasets.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gunzipSync } from 'node:zlib'
import { removeOnInterrupt } from './support/interrupt-cleanup.ts'
import { load, spread } from './support/bench-figures.ts'
import { goalVerdict, interleave, ratioOfMedians, type Contestant } from './support/bench-interleave.ts'
import {
  lendWritableDirs,
  ordinaryUser,
  readmeCommand,
  runUntilWritten,
  userDir,
  type OrdinaryUser,
} from './support/bench-ordinary-user.ts'
import { missingPythonModules, upstreamTree, writeStandIns } from './support/bench-upstream.ts'
import { refuseArguments } from '../script-usage.ts'

const USAGE = `usage: npm run bench:bigcodebench-upstream
BigCodeBench-Complete on a fixed sample of tasks, through the suite and through bigcodebench's own evaluator.
Environment: BENCH_BIGCODEBENCH_UPSTREAM (a bigcodebench checkout, required), BENCH_ROUNDS (default 5),
BENCH_SAMPLE (default 20 tasks) or BENCH_SAMPLE_TASKS (task numbers), BENCH_USER (default nobody, as root), TESTBENCH_DATA_DIR.`
refuseArguments(USAGE)

const root = fileURLToPath(new URL('../..', import.meta.url))
const dataDir = process.env.TESTBENCH_DATA_DIR ?? join(root, '..', 'shared', 'datasets')
const datasetFile = join(dataDir, 'bigcodebench', 'BigCodeBench-hf-v0.1.0.jsonl.gz')
const debianPython = '/usr/bin/python3'
const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const sampleSize = Number(process.env.BENCH_SAMPLE ?? 20)
const GOAL = 1.0

const REQUIRED = ['numpy', 'tqdm', 'termcolor', 'fire', 'rich', 'psutil', 'appdirs', 'wget']
const missing = missingPythonModules(REQUIRED)
if (missing.length > 0)
  throw new Error(
    `${debianPython} cannot import ${missing.join(', ')}, which bigcodebench needs: apt-get install ${missing.map((module) => `python3-${module}`).join(' ')}.`,
  )
const STAND_INS: Record<string, string> = {
  gradio_client: 'the gradio execution (--execution gradio)',
  e2b: 'the e2b execution (--execution e2b)',
  httpx: 'the gradio execution (--execution gradio)',
  'pqdm.processes': 'bigcodebench.sanitize (code generation only)',
  tree_sitter: 'bigcodebench.sanitize (code generation only)',
  tree_sitter_python: 'bigcodebench.sanitize (code generation only)',
  tempdir: 'bigcodebench.data.utils.make_cache (downloads only; the bench names the dataset file)',
  transformers: "bigcodebench.provider.utility's chat prompts (code generation only)",
  datasets: 'bigcodebench.data (hub downloads only; the bench names the dataset file)',
}

interface Task {
  task_id: string
  complete_prompt: string
  canonical_solution: string
}
const tasks = gunzipSync(readFileSync(datasetFile))
  .toString('utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as Task)
const step = Math.max(1, Math.floor(tasks.length / sampleSize))
const named = process.env.BENCH_SAMPLE_TASKS?.split(',').map((number) => `BigCodeBench/${number.trim()}`)
const sample =
  named === undefined
    ? tasks.filter((_, index) => index % step === 0).slice(0, sampleSize)
    : tasks.filter((task) => named.includes(task.task_id))
if (named !== undefined && sample.length !== named.length)
  throw new Error(
    `BENCH_SAMPLE_TASKS=${process.env.BENCH_SAMPLE_TASKS}: give task numbers from 0 to ${tasks.length - 1}.`,
  )
const numbers = sample.map((task) => Number(task.task_id.split('/')[1]))

const dir = removeOnInterrupt(mkdtempSync(join(tmpdir(), 'testbench-bench-bigcodebench-')))
chmodSync(dir, 0o755)
const standIns = join(dir, 'stand-ins')
const unpackaged = writeStandIns(standIns, 'bench:bigcodebench-upstream', STAND_INS)
const upstream = upstreamTree(
  {
    variable: 'BENCH_BIGCODEBENCH_UPSTREAM',
    repository: 'bigcode-project/bigcodebench',
    commit: '47eff25',
    marker: 'bigcodebench/evaluate.py',
  },
  dir,
)
chmodSync(dir, 0o755)
const samples = join(dir, 'samples.jsonl')
writeFileSync(
  samples,
  sample
    .map((task) =>
      JSON.stringify({ task_id: task.task_id, solution: `${task.complete_prompt}\n${task.canonical_solution}` }),
    )
    .join('\n') + '\n',
)

let runs = 0
async function upstreamRun(
  user: OrdinaryUser | undefined,
  cacheHome: string,
): Promise<{ wallMs: number; passed: number; total: number }> {
  const runDir = userDir(join(dir, `upstream-${runs++}`), user)
  const ownSamples = join(runDir, 'samples.jsonl')
  writeFileSync(ownSamples, readFileSync(samples))
  userDir(runDir, user)
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: runDir,
    XDG_CACHE_HOME: userDir(cacheHome, user),
    PYTHONPATH: `${upstream}:${standIns}`,
    BIGCODEBENCH_OVERRIDE_PATH: datasetFile,
    MPLBACKEND: 'Agg',
    NO_COLOR: '1',
  }
  const run = await runUntilWritten(
    user,
    debianPython,
    [
      '-m',
      'bigcodebench.evaluate',
      '--execution',
      'local',
      '--split',
      'complete',
      '--subset',
      'full',
      '--samples',
      ownSamples,
      '--selective_evaluate',
      sample.map((task) => task.task_id).join(','),
    ],
    runDir,
    env,
    join(runDir, 'samples_eval_results.json'),
  )
  if (run.text === undefined) throw new Error(`bigcodebench: no results file (exit ${run.exitCode}):\n${run.output}`)
  const verdicts = Object.values(
    (JSON.parse(run.text) as { eval: Record<string, Array<{ status: string }>> }).eval,
  ).flat()
  rmSync(runDir, { recursive: true, force: true })
  return {
    wallMs: run.wallMs,
    passed: verdicts.filter((entry) => entry.status === 'pass').length,
    total: verdicts.length,
  }
}

const user = ordinaryUser()
const giveBackDirs = lendWritableDirs(user, [root])
let homes = 0
const suitePassed: number[] = []
const suiteContestant = (warm: boolean): Contestant => ({
  name: `suite${warm ? ', warm' : ', first run'}`,
  run: async () => {
    const { wallMs, rows } = await readmeCommand(
      'bigcodebench',
      { MODEL: 'reference', TESTBENCH_DATA_DIR: dataDir, TESTBENCH_BIGCODEBENCH_TASKS: numbers.join(',') },
      {
        user,
        cwd: root,
        home: join(dir, warm ? 'suite-warm' : `suite-${homes++}`),
        label: 'suite bigcodebench',
        expected: 'reported',
      },
    )
    suitePassed.push(rows.filter((row) => row.outcome === 'passed').length)
    return wallMs
  },
})
const upstreamContestant = (warm: boolean): Contestant => ({
  name: `bigcodebench.evaluate${warm ? ', warm' : ', first run'}`,
  run: async () => {
    const cache = join(dir, warm ? 'upstream-cache-warm' : `upstream-cache-${homes++}`)
    const { wallMs, passed, total } = await upstreamRun(user, cache)
    if (total !== sample.length) throw new Error(`bigcodebench: ${total} verdicts for ${sample.length} tasks.`)
    if (passed !== total) console.log(`  (bigcodebench.evaluate: ${passed} of ${total} canonical solutions passed)`)
    if (!warm) rmSync(cache, { recursive: true, force: true })
    return wallMs
  },
})

try {
  console.log(`BigCodeBench-Complete, ${sample.length} tasks (${numbers.join(',')}), canonical solutions`)
  console.log(`suite (MODEL=reference) and bigcodebench.evaluate --execution local at 47eff25`)
  console.log(
    `${rounds} rounds interleaved after a warm-up round; ${user === undefined ? 'as this user' : `as ${user.name}`}`,
  )
  if (unpackaged.length > 0) console.log(`bigcodebench: stand-ins for ${unpackaged.join(', ')} (not called)`)
  console.log(`load average at the start: ${load()}`)
  const contestants = [
    suiteContestant(false),
    suiteContestant(true),
    upstreamContestant(false),
    upstreamContestant(true),
  ]
  const times = await interleave(contestants, rounds)
  console.log(`suite: ${[...new Set(suitePassed)].join(' or ')} of ${sample.length} items passed per run`)
  for (const { name } of contestants) console.log(`${name.padEnd(36)} ${spread(times.get(name) ?? [], 2, 6)}`)
  console.log(`load average at the end: ${load()}`)
  for (const kind of ['first run', 'warm']) {
    const ratio = ratioOfMedians(times.get(`suite, ${kind}`), times.get(`bigcodebench.evaluate, ${kind}`))
    console.log(
      `BigCodeBench ${kind}: suite / bigcodebench.evaluate ${ratio.toFixed(2)}× (${goalVerdict(ratio, GOAL)})`,
    )
  }
} finally {
  giveBackDirs()
  rmSync(dir, { recursive: true, force: true })
}
