// npm run bench:farel: FaRel's scoring of one run's replies, by the suite and by fairydreaming/farel-bench's own
// scripts, interleaved round by round after an untimed warm-up round:
// - suite: `npx vitest run suites/farel` with MODEL=replay:<the log's replies> (read by suites/farel/farel-bench-log.ts),
//   the published FaRel-3 set (the default), as an ordinary user (as root: BENCH_USER, default nobody); a first run
//   on an empty cache and a warm run on the cache its warm-up run filled;
// - farel-bench at 1fc255d (BENCH_FAREL_UPSTREAM: a git dir, a clone or a copy of it), by Debian's /usr/bin/python3,
//   as the same user: `run_openai.py -m bench < <the quiz CSV> > <model>.log`, whose loop extracts and scores each reply
//   and prints the per-class lines, then `compute_metrics.py <dir>`, the FaRel table. The model is the log: the
//   `openai` module on its PYTHONPATH is the bench's, whose chat.completions.create answers each quiz with the log's
//   reply to it (as MODEL=replay: is for the suite). compute_metrics.py needs python3-pandas and python3-tabulate.
// Both must count every class as the log does, or the bench stops. Beside them, Vitest's own start-up: this clone's
// Vitest running one empty test file of a folder of its own (no config of ours, no plugin, no setup), as the same
// user: the floor under any suite's run.
// Knobs: BENCH_ROUNDS (default 5), BENCH_FAREL_LOG (default ../shared/published/farel/logs/v0.11.0-alpha/o1-mini.log),
// BENCH_FAREL_QUIZZES (the set's CSV, default ../shared/published/farel/farel_bench_quizzes_l3_n50_seed42.csv).
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { removeOnInterrupt } from './support/interrupt-cleanup.ts'
import { readFarelBenchLog, type LoggedClass } from '../../suites/farel/farel-bench-log.ts'
import { farelOptions } from '../../suites/farel/options.ts'
import { DEFAULT_SYSTEM_PROMPT, generateQuizzes } from '../../suites/farel/quiz.ts'
import { load, spread } from './support/bench-figures.ts'
import { goalVerdict, interleave, ratioOfMedians, type Contestant } from './support/bench-interleave.ts'
import { lendWritableDirs, ordinaryUser, readmeCommand, runAs, userDir } from './support/bench-ordinary-user.ts'
import { missingPythonModules, upstreamTree } from './support/bench-upstream.ts'
import { refuseArguments } from '../script-usage.ts'

const USAGE = `usage: npm run bench:farel
FaRel's scoring of one run's replies, by the suite and by farel-bench's own scripts.
Environment: BENCH_FAREL_UPSTREAM (a farel-bench checkout, required), BENCH_ROUNDS (default 5), BENCH_FAREL_LOG,
BENCH_FAREL_QUIZZES, BENCH_USER (default nobody, as root).`
refuseArguments(USAGE)

const root = fileURLToPath(new URL('../..', import.meta.url))
const published = join(root, '..', 'shared', 'published', 'farel')
const logFile = process.env.BENCH_FAREL_LOG ?? join(published, 'logs', 'v0.11.0-alpha', 'o1-mini.log')
const quizFile = process.env.BENCH_FAREL_QUIZZES ?? join(published, 'farel_bench_quizzes_l3_n50_seed42.csv')
const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const debianPython = '/usr/bin/python3'
const GOAL = 1.0

const missing = missingPythonModules(['pandas', 'tabulate'])
if (missing.length > 0)
  throw new Error(
    `${debianPython} cannot import ${missing.join(', ')}, which farel-bench's compute_metrics.py needs: apt-get install ${missing.map((module) => `python3-${module}`).join(' ')}.`,
  )

const quizzes = generateQuizzes(farelOptions({}))
const logText = readFileSync(logFile, 'utf8')
const { log, system } = (() => {
  try {
    return { log: readFarelBenchLog(logText, quizzes), system: undefined }
  } catch {
    return { log: readFarelBenchLog(logText, quizzes, DEFAULT_SYSTEM_PROMPT), system: DEFAULT_SYSTEM_PROMPT }
  }
})()
if (log.replies.length !== quizzes.length)
  throw new Error(`${logFile}: ${log.replies.length} replies for the set's ${quizzes.length} quizzes.`)
const promptOf = new Map(quizzes.map((quiz) => [`${quiz.relation} #${quiz.index}`, quiz.prompt]))
const correct = log.classes.reduce((sum, entry) => sum + entry.correct, 0)

const dir = removeOnInterrupt(mkdtempSync(join(tmpdir(), 'testbench-bench-farel-')))
chmodSync(dir, 0o755)
const upstream = upstreamTree(
  {
    variable: 'BENCH_FAREL_UPSTREAM',
    repository: 'fairydreaming/farel-bench',
    commit: '1fc255d',
    marker: 'run_openai.py',
  },
  dir,
)
const replies = join(dir, 'replies.jsonl')
writeFileSync(replies, log.replies.map((entry) => JSON.stringify(entry)).join('\n') + '\n')
const repliesByQuiz = join(dir, 'replies-by-quiz.json')
writeFileSync(
  repliesByQuiz,
  JSON.stringify(Object.fromEntries(log.replies.map((entry) => [promptOf.get(entry.id), entry.reply]))),
)
// The model farel-bench's run script talks to: the log, quiz by quiz.
const model = join(dir, 'replayed-model')
userDir(model, undefined)
writeFileSync(
  join(model, 'openai.py'),
  `import json, os, types
_REPLIES = json.load(open(os.environ['BENCH_FAREL_REPLIES']))

class _Completions:
    def create(self, model, messages, **options):
        reply = _REPLIES[messages[-1]['content']]
        return types.SimpleNamespace(choices=[types.SimpleNamespace(message=types.SimpleNamespace(content=reply))])

class OpenAI:
    def __init__(self, **options):
        self.chat = types.SimpleNamespace(completions=_Completions())
`,
)

const user = ordinaryUser()
let runs = 0
async function upstreamRun(): Promise<number> {
  const runDir = userDir(join(dir, `upstream-${runs++}`), user)
  const logs = userDir(join(runDir, 'logs'), user)
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: runDir,
    PYTHONPATH: model,
    BENCH_FAREL_REPLIES: repliesByQuiz,
    QUIZZES: quizFile,
    LOG: join(logs, 'bench.log'),
    UPSTREAM: upstream,
  }
  const script =
    `${debianPython} -u "$UPSTREAM/run_openai.py" -m bench ${system === undefined ? '' : '-s'} < "$QUIZZES" > "$LOG" && ` +
    `${debianPython} "$UPSTREAM/compute_metrics.py" "${logs}"`
  const run = await runAs(user, 'sh', ['-c', script], runDir, env)
  if (run.exitCode !== 0) throw new Error(`farel-bench: exit ${run.exitCode}:\n${run.stderr.slice(-2000)}`)
  const classes = readFarelBenchLog(readFileSync(join(logs, 'bench.log'), 'utf8'), quizzes, system).classes
  const same = (a: LoggedClass[], b: LoggedClass[]): boolean => JSON.stringify(a) === JSON.stringify(b)
  if (!same(classes, log.classes))
    throw new Error(
      `farel-bench's counts are not the log's:\n${JSON.stringify(classes)}\n${JSON.stringify(log.classes)}`,
    )
  if (!run.stdout.includes('| bench')) throw new Error(`compute_metrics.py printed no row for the run:\n${run.stdout}`)
  rmSync(runDir, { recursive: true, force: true })
  return run.wallMs
}

const floor = join(dir, 'vitest-floor')
userDir(floor, undefined)
writeFileSync(
  join(floor, 'vitest.config.mjs'),
  "export default { test: { globals: true, include: ['floor.test.js'] } }\n",
)
writeFileSync(join(floor, 'floor.test.js'), "test('nothing', () => {})\n")
const FLOOR = "Vitest's floor (one empty test)"
async function floorRun(): Promise<number> {
  userDir(floor, user)
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: floor, CI: '1', NO_COLOR: '1' }
  const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs')
  const run = await runAs(user, process.execPath, [vitest, 'run', '--root', floor], floor, env)
  if (run.exitCode !== 0) throw new Error(`${FLOOR}: exit ${run.exitCode}:\n${run.stdout}\n${run.stderr}`)
  return run.wallMs
}

let homes = 0
const suiteContestant = (warm: boolean): Contestant => ({
  name: `suite${warm ? ', warm' : ', first run'}`,
  run: async () =>
    (
      await readmeCommand(
        'farel',
        { MODEL: `replay:${replies}`, ...(system === undefined ? {} : { TESTBENCH_FAREL_SYSTEM: 'on' }) },
        {
          user,
          cwd: root,
          home: join(dir, warm ? 'suite-warm' : `suite-${homes++}`),
          label: 'suite farel',
          expected: { items: quizzes.length, passed: correct },
        },
      )
    ).wallMs,
})

const giveBackDirs = lendWritableDirs(user, [root])
try {
  console.log(
    `FaRel: ${logFile} (${log.replies.length} replies, ${correct} right), scored by the suite and by farel-bench`,
  )
  console.log(
    `${rounds} rounds interleaved after a warm-up round; ${user === undefined ? 'as this user' : `as ${user.name}`}`,
  )
  console.log(`load average at the start: ${load()}`)
  const contestants: Contestant[] = [
    suiteContestant(false),
    suiteContestant(true),
    { name: 'farel-bench run_openai.py + compute_metrics.py', run: upstreamRun },
    { name: FLOOR, run: floorRun },
  ]
  const times = await interleave(contestants, rounds)
  for (const { name } of contestants) console.log(`${name.padEnd(48)} ${spread(times.get(name) ?? [], 2, 6)}`)
  console.log(`load average at the end: ${load()}`)
  for (const kind of ['first run', 'warm']) {
    const ratio = ratioOfMedians(times.get(`suite, ${kind}`), times.get(contestants[2]?.name ?? ''))
    console.log(`FaRel ${kind}: suite / farel-bench ${ratio.toFixed(2)}× (${goalVerdict(ratio, GOAL)})`)
  }
  const floorRatio = ratioOfMedians(times.get(FLOOR), times.get(contestants[2]?.name ?? ''))
  console.log(`${FLOOR} / farel-bench ${floorRatio.toFixed(2)}× (what no suite run can go under)`)
} finally {
  giveBackDirs()
  rmSync(dir, { recursive: true, force: true })
}
