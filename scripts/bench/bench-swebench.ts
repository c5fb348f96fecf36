// npm run bench:swebench: SWE-bench's grading of evaluation logs, by the suite and by SWE-bench's own harness, on the
// same logs, interleaved round by round after an untimed warm-up round. Only the grading is compared: the swebench
// package cannot evaluate the fixture instance here (its run_evaluation looks the test command up in its own tables,
// by repository and version, which hold no fixture, and builds its images from Docker Hub, conda and pip downloads,
// none reachable here), so the part both can run is what follows the container: reading the test log and grading it.
// - the logs: fixtures/swebench/tinycalc's instance evaluated once per patch of patches/ (gold, wrong,
//   breaks-passing-test, wrong-hunk-counts, malformed) by the suite's own eval script in the instance's image
//   (localhost/testbench/sweb.eval.x86_64.testbench_1776_tinycalc-1, built by .ci/swebench-setup.sh) with podman,
//   untimed: the container's output is the log each contestant reads;
// - suite: `node scripts/swebench-grade-logs.mjs <instance.json> <logs>`, suites/swebench/evaluation/evaluate.ts's judgeLog; a
//   first run without Node's compile cache (node_modules/.vitest-cache/node-compile-cache), a warm one with it;
// - swebench: SWE-bench at 7a21e05 (v5.0.2; BENCH_SWEBENCH_UPSTREAM: a git dir, a clone or a copy of it) by Debian's
//   /usr/bin/python3, `swebench.harness.grading.get_eval_report` on each log, its harness package entered without
//   its __init__, which imports the Docker and Modal runners (docker, modal, datasets) that grading never uses: the
//   lightest start-up upstream's grading can have, and one that needs no package beyond Debian's python3. Its tree belongs to the
//   user, as a clone of their own: a first run without its __pycache__ dirs, a warm one with them.
// Both as an ordinary user (as root: BENCH_USER, default nobody), a process per round, each over every log; they
// must agree on which logs are resolved, or the bench stops. Knobs: BENCH_ROUNDS (default 5). Prints the load beside
// each round, medians and min–max, the ratio suite / swebench (a process each; and the grading alone, start-up
// excluded), and the goal.
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { removeOnInterrupt } from './support/interrupt-cleanup.ts'
import { evalScript } from '../../suites/swebench/evaluation/eval-script.ts'
import { parseInstance } from '../../suites/swebench/instance.ts'
import { testFiles } from '../../suites/swebench/patches/patch-files.ts'
import { testDirectives } from '../../suites/swebench/evaluation/repo-specs.ts'
import { load, median, spread } from './support/bench-figures.ts'
import { goalVerdict, interleave, ratioOfMedians, type Contestant } from './support/bench-interleave.ts'
import { lendWritableDirs, ordinaryUser, runAs, userDir } from './support/bench-ordinary-user.ts'
import { upstreamTree } from './support/bench-upstream.ts'
import { refuseArguments } from '../script-usage.ts'

const USAGE = `usage: npm run bench:swebench
SWE-bench's grading of the fixture instance's evaluation logs, by the suite and by SWE-bench's harness.
Environment: BENCH_SWEBENCH_UPSTREAM (a SWE-bench checkout, required), BENCH_ROUNDS (default 5),
BENCH_USER (default nobody, as root). Needs podman and the image .ci/swebench-setup.sh builds.`
refuseArguments(USAGE)

const root = fileURLToPath(new URL('../..', import.meta.url))
const fixture = join(root, 'fixtures', 'swebench', 'tinycalc')
const image = 'localhost/testbench/sweb.eval.x86_64.testbench_1776_tinycalc-1:latest'
const PATCHES = ['gold', 'wrong', 'breaks-passing-test', 'wrong-hunk-counts', 'malformed'] as const
const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const debianPython = '/usr/bin/python3'
const GOAL = 1.0

const dir = removeOnInterrupt(mkdtempSync(join(tmpdir(), 'testbench-bench-swebench-')))
chmodSync(dir, 0o755)
const readFixture = (name: string): string => readFileSync(join(fixture, name), 'utf8')
const row = {
  ...(JSON.parse(readFixture('instance.json')) as Record<string, unknown>),
  patch: readFixture('patches/gold.diff'),
  test_patch: readFixture('patches/test.diff'),
}
const instance = parseInstance(row, 'fixtures/swebench/tinycalc/instance.json')
if (instance.spec === undefined) throw new Error('fixtures/swebench/tinycalc/instance.json names no test_cmd.')

/** The log of the instance evaluated with `patch` in its image, as the suite's container would print it. */
function evaluationLog(patch: (typeof PATCHES)[number]): string {
  const mount = join(dir, `eval-${patch}`)
  userDir(mount, undefined)
  writeFileSync(
    join(mount, 'run.sh'),
    evalScript({
      baseCommit: instance.baseCommit,
      spec: instance.spec ?? { testCommand: '', parser: 'pytest' },
      testFiles: testFiles(instance.testPatch),
      testDirectives: testDirectives(instance.repo, instance.testPatch),
    }),
  )
  writeFileSync(join(mount, 'model.patch'), readFixture(`patches/${patch}.diff`))
  writeFileSync(join(mount, 'test.patch'), instance.testPatch)
  const run = spawnSync(
    'podman',
    [
      'run',
      '--rm',
      '--network=none',
      '--ulimit=nofile=1024:1024',
      '--ulimit=nproc=4096:4096',
      `--volume=${mount}:/swebench:ro`,
      image,
      'bash',
      '/swebench/run.sh',
    ],
    { encoding: 'utf8', timeout: 300_000 },
  )
  if (run.error !== undefined || !run.stdout.includes('>>>>> '))
    throw new Error(
      `podman could not evaluate the fixture with patches/${patch}.diff in ${image} (build it with .ci/swebench-setup.sh): ` +
        `${run.error?.message ?? ''}${run.stderr}`,
    )
  return run.stdout
}

// SWE-bench's get_eval_report on each log, the way run_evaluation calls it after a container; prints as the suite's
// grader does. Its resolved flag is what % Resolved counts.
const UPSTREAM_GRADER = `import importlib.util, json, sys, time, types
harness = types.ModuleType('swebench.harness')
harness.__path__ = [importlib.util.find_spec('swebench').submodule_search_locations[0] + '/harness']
sys.modules['swebench.harness'] = harness
from swebench.harness.grading import get_eval_report
from swebench.types import TestSpec
row = json.load(open(sys.argv[1]))
spec = TestSpec(instance_id=row['instance_id'], image='', eval_script_list=[], repo=row['repo'], version=row['version'],
    FAIL_TO_PASS=json.loads(row['FAIL_TO_PASS']), PASS_TO_PASS=json.loads(row['PASS_TO_PASS']),
    log_parser='parse_log_' + row['log_parser'], eval_type='pass_and_fail')
started = time.perf_counter()
lines = []
for log in sys.argv[2:]:
    prediction = {'instance_id': row['instance_id'], 'model_name_or_path': 'bench', 'model_patch': ''}
    report = get_eval_report(spec, prediction, log, True)[row['instance_id']]
    lines.append('%s\\t%s' % (log, 'resolved' if report['resolved'] else 'not_resolved'))
print('\\n'.join(lines))
print('grading ms\\t%.3f' % ((time.perf_counter() - started) * 1000))
`

interface Graded {
  wallMs: number
  gradingMs: number
  resolved: string[]
}

function readGrades(stdout: string, who: string): Omit<Graded, 'wallMs'> {
  const rows = stdout
    .trim()
    .split('\n')
    .map((line) => line.split('\t'))
  const grading = rows.find(([first]) => first === 'grading ms')
  if (grading === undefined || rows.length !== PATCHES.length + 1)
    throw new Error(`${who}: expected ${PATCHES.length} verdicts and the grading time, got:\n${stdout}`)
  return {
    gradingMs: Number(grading[1]),
    resolved: rows
      .filter(([first, status]) => first !== 'grading ms' && status === 'resolved')
      .map(([log]) => log ?? ''),
  }
}

/** Every __pycache__ dir under `tree`: a Python first run. */
function removePycache(tree: string): void {
  for (const entry of readdirSync(tree, { withFileTypes: true, recursive: true }))
    if (entry.isDirectory() && entry.name === '__pycache__')
      rmSync(join(entry.parentPath, entry.name), { recursive: true, force: true })
}

const compileCache = join(root, 'node_modules', '.vitest-cache', 'node-compile-cache')
const user = ordinaryUser()
const giveBackDirs = lendWritableDirs(user, [root])
try {
  const upstream = upstreamTree(
    {
      variable: 'BENCH_SWEBENCH_UPSTREAM',
      repository: 'SWE-bench/SWE-bench',
      commit: '7a21e05',
      marker: 'swebench/harness/grading.py',
    },
    dir,
  )
  const logsDir = join(dir, 'logs')
  userDir(logsDir, undefined)
  const logs = PATCHES.map((patch) => {
    const file = join(logsDir, `${patch}.log`)
    writeFileSync(file, evaluationLog(patch))
    return file
  })
  const instanceFile = join(dir, 'instance.json')
  writeFileSync(instanceFile, JSON.stringify(row))
  chmodSync(dir, 0o755)
  userDir(upstream, user)
  userDir(join(dir, 'home'), user)
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: join(dir, 'home'), NO_COLOR: '1' }
  const gradingMs = new Map<string, number[]>()
  /** Each run's resolved logs, by contestant: every run of every contestant must resolve the same. */
  const resolvedBy = new Map<string, Set<string>>()
  const contestant = (
    name: string,
    file: string,
    args: readonly string[],
    extraEnv: Record<string, string>,
    beforeRun: () => void,
  ): Contestant => ({
    name,
    run: async () => {
      beforeRun()
      const run = await runAs(user, file, [...args, instanceFile, ...logs], root, { ...env, ...extraEnv })
      if (run.exitCode !== 0) throw new Error(`${name} failed (exit ${run.exitCode}):\n${run.stdout}\n${run.stderr}`)
      const graded = readGrades(run.stdout, name)
      gradingMs.set(name, [...(gradingMs.get(name) ?? []), graded.gradingMs])
      const resolved = graded.resolved.map((log) => basename(log)).join(', ')
      resolvedBy.set(name, new Set([...(resolvedBy.get(name) ?? []), resolved]))
      return run.wallMs
    },
  })
  const grader = [join(root, 'scripts', 'swebench-grade-logs.mjs')]
  const python = { PYTHONPATH: upstream }
  const contestants: Contestant[] = [
    contestant('suite, first run', process.execPath, grader, {}, () =>
      rmSync(compileCache, { recursive: true, force: true }),
    ),
    contestant('suite, warm', process.execPath, grader, {}, () => undefined),
    contestant('swebench, first run', debianPython, ['-c', UPSTREAM_GRADER], python, () => removePycache(upstream)),
    contestant('swebench, warm', debianPython, ['-c', UPSTREAM_GRADER], python, () => undefined),
  ]
  console.log(`SWE-bench grading: the suite's judgeLog and swebench's get_eval_report at 7a21e05 on the same logs`)
  console.log(
    `${PATCHES.length} logs of testbench__tinycalc-1 (patches ${PATCHES.join(', ')}); ${rounds} rounds interleaved ` +
      `after a warm-up round; ${user === undefined ? 'as this user' : `as ${user.name}`}`,
  )
  console.log(`load average at the start: ${load()}`)
  const times = await interleave(contestants, rounds)
  const verdicts = new Set([...resolvedBy.values()].flatMap((runs) => [...runs]))
  if (verdicts.size !== 1)
    throw new Error(
      `The graders disagree on which logs are resolved: ${JSON.stringify([...resolvedBy].map(([name, runs]) => [name, [...runs]]))}.`,
    )
  console.log(`all resolve: ${[...verdicts][0] || 'none'}`)
  for (const { name } of contestants) {
    const grading = median((gradingMs.get(name) ?? []).slice(-rounds))
    console.log(`${name.padEnd(20)} ${spread(times.get(name) ?? [], 2, 6)}; grading alone ${grading.toFixed(1)} ms`)
  }
  console.log(`\nload average at the end: ${load()}`)
  for (const kind of ['first run', 'warm']) {
    const [suite, swebench] = [`suite, ${kind}`, `swebench, ${kind}`]
    const ratio = ratioOfMedians(times.get(suite), times.get(swebench))
    const grading = ratioOfMedians(gradingMs.get(suite)?.slice(-rounds), gradingMs.get(swebench)?.slice(-rounds))
    console.log(
      `SWE-bench grading ${kind}: suite / swebench ${ratio.toFixed(2)}× (${goalVerdict(ratio, GOAL)}); ` +
        `the grading alone ${grading.toFixed(2)}×`,
    )
  }
} finally {
  giveBackDirs()
  rmSync(dir, { recursive: true, force: true })
}
