// npm run bench:evalplus: HumanEval+ and MBPP+ through the README's command next to evalplus's own evaluator on the
// same outputs (each task's canonical solution), interleaved round by round after an untimed warm-up round:
// - suite: `npx vitest run suites/humaneval` (TESTBENCH_HUMANEVAL_VARIANTS=humaneval+) and `npx vitest run
//   suites/mbpp` (TESTBENCH_MBPP_VARIANTS=mbpp+), MODEL=reference, as an ordinary user (as root: BENCH_USER, default
//   nobody); a first run on an empty cache, and a warm run on the cache its warm-up run filled;
// - evalplus: `python3 -m evalplus.evaluate --dataset humaneval|mbpp --samples <the same solutions>` from evalplus at
//   26d6d00 (BENCH_EVALPLUS_UPSTREAM: a git dir, a clone or a copy of it), by Debian's /usr/bin/python3, as the same
//   user, on the dataset files the suite reads (HUMANEVAL_OVERRIDE_PATH, MBPP_OVERRIDE_PATH); a first run on an empty
//   cache (it computes the expected outputs, as on a user's first run) and a warm run on a filled one. Its time ends
//   when its results file is written: its last act, after which a watchdog thread of its own may keep the process
//   up to 20 s more, not counted.
// evalplus imports modules Debian does not package (tree_sitter, tree_sitter_python, datasets, tempdir): none is
// called on the path that evaluates given samples from local files, so the bench puts stand-ins on its PYTHONPATH
// that raise if anything of them is used. The others it needs come from apt: python3-numpy python3-tqdm
// python3-termcolor python3-fire python3-rich python3-psutil python3-appdirs python3-wget python3-multipledispatch.
// Knobs: BENCH_ROUNDS (default 5), BENCH_EVALPLUS_DATASETS (default humaneval,mbpp). Datasets from
// TESTBENCH_DATA_DIR, else ../shared/datasets. Prints the load beside each round, medians and min–max, and the
// ratios suite / evalplus, first run and warm, per dataset.
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
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

/** What evalplus imports that Debian packages (as python3-<name>). */
const REQUIRED = ['numpy', 'tqdm', 'termcolor', 'fire', 'rich', 'psutil', 'appdirs', 'wget', 'multipledispatch']
const USAGE = `usage: npm run bench:evalplus
HumanEval+ and MBPP+ through the suite, next to evalplus's own evaluator on the same outputs.
Environment: BENCH_EVALPLUS_UPSTREAM (an evalplus checkout, required), BENCH_ROUNDS (default 5),
BENCH_EVALPLUS_DATASETS (default humaneval,mbpp), BENCH_USER (default nobody, as root), TESTBENCH_DATA_DIR.
evalplus runs on Debian's /usr/bin/python3 with: apt-get install ${REQUIRED.map((module) => `python3-${module}`).join(' ')}`
refuseArguments(USAGE)

const root = fileURLToPath(new URL('../..', import.meta.url))
const dataDir = process.env.TESTBENCH_DATA_DIR ?? join(root, '..', 'shared', 'datasets')
const debianPython = '/usr/bin/python3'
const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const DATASETS = {
  humaneval: {
    file: join(dataDir, 'humanevalplus', 'HumanEvalPlus.jsonl.gz'),
    overrideVariable: 'HUMANEVAL_OVERRIDE_PATH',
    suite: 'humaneval',
    knobs: { TESTBENCH_HUMANEVAL_VARIANTS: 'humaneval+' },
  },
  mbpp: {
    file: join(dataDir, 'mbppplus', 'MbppPlus.jsonl.gz'),
    overrideVariable: 'MBPP_OVERRIDE_PATH',
    suite: 'mbpp',
    knobs: { TESTBENCH_MBPP_VARIANTS: 'mbpp+' },
  },
} as const
type DatasetName = keyof typeof DATASETS
const datasets = (process.env.BENCH_EVALPLUS_DATASETS ?? 'humaneval,mbpp').split(',').map((name) => {
  if (!(name in DATASETS)) throw new Error(`BENCH_EVALPLUS_DATASETS: ${name} is not humaneval or mbpp.`)
  return name as DatasetName
})
const GOAL = 1.0

const missing = missingPythonModules(REQUIRED)
if (missing.length > 0)
  throw new Error(
    `${debianPython} cannot import ${missing.join(', ')}, which evalplus needs: apt-get install ${missing.map((module) => `python3-${module}`).join(' ')}.`,
  )

/** Modules evalplus imports at start-up but never calls when it evaluates given samples on local dataset files. */
const STAND_INS: Record<string, string> = {
  tree_sitter: 'evalplus.sanitize (code generation only)',
  tree_sitter_python: 'evalplus.sanitize (code generation only)',
  datasets: 'evalplus.data.get_evalperf_data (EvalPerf only)',
  tempdir: 'evalplus.data.utils.make_cache (downloads only; the bench names the dataset files)',
}
const dir = removeOnInterrupt(mkdtempSync(join(tmpdir(), 'testbench-bench-evalplus-')))
chmodSync(dir, 0o755)
const standIns = join(dir, 'stand-ins')
const unpackaged = writeStandIns(standIns, 'bench:evalplus', STAND_INS)

const upstream = upstreamTree(
  {
    variable: 'BENCH_EVALPLUS_UPSTREAM',
    repository: 'evalplus/evalplus',
    commit: '26d6d00',
    marker: 'evalplus/evaluate.py',
  },
  dir,
)
chmodSync(dir, 0o755)

interface PlusTask {
  task_id: string
  prompt: string
  canonical_solution: string
}
// Python's JSON: the MBPP+ inputs hold Infinity and NaN, which JSON.parse refuses.
const TASK_FIELDS = `import gzip, json, sys
for line in gzip.open(sys.argv[1], 'rt'):
    if line.strip():
        task = json.loads(line)
        print(json.dumps({key: task[key] for key in ('task_id', 'prompt', 'canonical_solution')}))
`
const tasksOf = (name: DatasetName): PlusTask[] =>
  spawnSync(debianPython, ['-c', TASK_FIELDS, DATASETS[name].file], { encoding: 'utf8', maxBuffer: 1 << 28 })
    .stdout.split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as PlusTask)

let runs = 0
/** One evalplus.evaluate run as `user`; ms until its results file is written, and how many solutions it passed. */
async function evalplusRun(
  name: DatasetName,
  user: OrdinaryUser | undefined,
  samples: string,
  cacheHome: string,
): Promise<{ wallMs: number; passed: number; total: number }> {
  const runDir = userDir(join(dir, `evalplus-${runs++}`), user)
  const ownSamples = join(runDir, 'samples.jsonl')
  writeFileSync(ownSamples, readFileSync(samples))
  userDir(runDir, user)
  const results = join(runDir, 'samples.eval_results.json')
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: runDir,
    XDG_CACHE_HOME: userDir(cacheHome, user),
    PYTHONPATH: `${upstream}:${standIns}`,
    [DATASETS[name].overrideVariable]: DATASETS[name].file,
    NO_COLOR: '1',
  }
  const run = await runUntilWritten(
    user,
    debianPython,
    ['-m', 'evalplus.evaluate', '--dataset', name, '--samples', ownSamples],
    runDir,
    env,
    results,
  )
  if (run.text === undefined)
    throw new Error(`evalplus ${name}: no results file (exit ${run.exitCode}):\n${run.output}`)
  const parsed = JSON.parse(run.text) as { eval: Record<string, Array<{ base_status: string; plus_status: string }>> }
  const verdicts = Object.values(parsed.eval).flat()
  const passed = verdicts.filter((entry) => entry.base_status === 'pass' && entry.plus_status === 'pass').length
  rmSync(runDir, { recursive: true, force: true })
  return { wallMs: run.wallMs, passed, total: verdicts.length }
}

const user = ordinaryUser()
const giveBackDirs = lendWritableDirs(user, [root])
try {
  console.log(`HumanEval+ / MBPP+: suite (MODEL=reference) and evalplus.evaluate at 26d6d00 on the same solutions`)
  console.log(
    `${rounds} rounds interleaved after a warm-up round; ${user === undefined ? 'as this user' : `as ${user.name}`}`,
  )
  if (unpackaged.length > 0)
    console.log(`evalplus: stand-ins for ${unpackaged.join(', ')} (not packaged by Debian, not called when evaluating)`)
  console.log(`load average at the start: ${load()}`)
  const verdicts: string[] = []
  for (const name of datasets) {
    const tasks = tasksOf(name)
    const samples = join(dir, `${name}-samples.jsonl`)
    writeFileSync(
      samples,
      tasks
        .map((task) => JSON.stringify({ task_id: task.task_id, solution: task.prompt + task.canonical_solution }))
        .join('\n') + '\n',
    )
    const { suite, knobs } = DATASETS[name]
    let homes = 0
    const suiteContestant = (warm: boolean): Contestant => ({
      name: `suite ${name}+${warm ? ', warm' : ', first run'}`,
      run: async () =>
        (
          await readmeCommand(
            suite,
            { MODEL: 'reference', TESTBENCH_DATA_DIR: dataDir, ...knobs },
            {
              user,
              cwd: root,
              home: join(dir, warm ? `suite-${name}-warm` : `suite-${name}-${homes++}`),
              label: `suite ${name}+`,
            },
          )
        ).wallMs,
    })
    const evalplusContestant = (warm: boolean): Contestant => ({
      name: `evalplus ${name}${warm ? ', warm' : ', first run'}`,
      run: async () => {
        const cache = join(dir, warm ? `evalplus-${name}-cache-warm` : `evalplus-${name}-cache-${homes++}`)
        const { wallMs, passed, total } = await evalplusRun(name, user, samples, cache)
        if (total !== tasks.length) throw new Error(`evalplus ${name}: ${total} verdicts for ${tasks.length} tasks.`)
        // Its time limits are wall time: on a busy machine a canonical solution now and then runs out. Said, not fatal.
        if (passed !== total) console.log(`  (evalplus ${name}: ${passed} of ${total} canonical solutions passed)`)
        if (!warm) rmSync(cache, { recursive: true, force: true })
        return wallMs
      },
    })
    const contestants = [
      suiteContestant(false),
      suiteContestant(true),
      evalplusContestant(false),
      evalplusContestant(true),
    ]
    console.log(`\n${name}+: ${tasks.length} tasks`)
    const times = await interleave(contestants, rounds)
    for (const { name: contestant } of contestants)
      console.log(`${contestant.padEnd(32)} ${spread(times.get(contestant) ?? [], 2, 6)}`)
    for (const kind of ['first run', 'warm']) {
      const ratio = ratioOfMedians(times.get(`suite ${name}+, ${kind}`), times.get(`evalplus ${name}, ${kind}`))
      const line = `${name}+ ${kind}: suite / evalplus ${ratio.toFixed(2)}× (${goalVerdict(ratio, GOAL)})`
      console.log(line)
      verdicts.push(line)
    }
  }
  console.log(`\nload average at the end: ${load()}`)
  for (const verdict of verdicts) console.log(verdict)
} finally {
  giveBackDirs()
  rmSync(dir, { recursive: true, force: true })
}
