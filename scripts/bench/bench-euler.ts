// npm run bench:euler: PE-Bench through the README's command next to upstream's own pipeline, on the same programs,
// interleaved round by round:
// - suite: `npx vitest run suites/euler` with MODEL=replay:<the programs>, one run per language and one run of all
//   languages together (what a user runs), a fresh cache and report dir each run;
// - upstream: Orbiter/project-euler-llm-benchmark's `execute.py --model bench --language <lang> --n100` at 03c692c,
//   run by Debian's /usr/bin/python3 from a copy in a temp dir (never in this repository): it compiles and runs each
//   program on the host, two threads (its cpu_count), with its 10 s limit. Its four languages together are the sum of
//   its per-language runs of the round: execute.py takes its languages one after another.
//   A row `…, one by one` sets beside it the sum of the suite's per-language runs (ours taken the same way).
// The programs (scripts/bench/support/euler-sieve-programs.ts) print each problem's answer through a sieve whose size sets their
// cost: set `light` (a sieve to about 1000, so the pipelines' own costs are what is measured) and set `heavy` (about
// 10^7, a program that works a while). Every run must judge every program correct, or the bench stops.
// Upstream's source: BENCH_EULER_UPSTREAM (a git dir or a checkout holding commit 03c692c). It needs python3-requests, python3-urllib3 and
// python3-pil (its execute.py imports llm_client), javac/java, rustc, and `clj`: Debian has no Clojure CLI, so a
// `clj` on the PATH of upstream's runs hands `clj -M -e <code>` to Debian's `clojure -e <code>` (clojure.main, as
// clj -M ends in).
// Knobs: BENCH_ROUNDS (default 3), BENCH_EULER_LANGUAGES (default python,java,rust,clojure), BENCH_EULER_PROBLEMS
// (default 100: problems 1–N), BENCH_EULER_SETS (default light,heavy). Prints the load average beside each round,
// medians and min–max, the ratio suite / upstream per language and for the four together, and whether the goals
// (suite ≤ 1.0× upstream per language, ≤ 0.5× the four together) are met.
import { execa } from 'execa'
import { spawnSync } from 'node:child_process'
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { removeOnInterrupt } from './support/interrupt-cleanup.ts'
import { load, median, spread as spreadOf } from './support/bench-figures.ts'
import { EXTENSIONS, SIEVE_LANGUAGES, sieveProgram, type SieveLanguage } from './support/euler-sieve-programs.ts'
import { refuseArguments } from '../script-usage.ts'

const USAGE = `usage: npm run bench:euler
PE-Bench through the suite next to upstream's execute.py on the same programs. Environment: BENCH_ROUNDS
(default 3), BENCH_EULER_LANGUAGES (default python,java,rust,clojure), BENCH_EULER_PROBLEMS (default 100),
BENCH_EULER_SETS (default light,heavy), BENCH_EULER_UPSTREAM (upstream's checkout), TESTBENCH_DATA_DIR.`
refuseArguments(USAGE)

const root = fileURLToPath(new URL('../..', import.meta.url))
const dataDir = process.env.TESTBENCH_DATA_DIR ?? join(root, '..', 'shared', 'datasets')
const answersFile = join(dataDir, 'euler', 'solutions.json')
const UPSTREAM_COMMIT = '03c692c'
const upstreamSource = process.env.BENCH_EULER_UPSTREAM ?? ''
if (upstreamSource === '')
  throw new Error(
    'BENCH_EULER_UPSTREAM is not set: git clone https://github.com/Orbiter/project-euler-llm-benchmark and set it to the clone.',
  )
const debianPython = '/usr/bin/python3'
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
const problemCount = Number(process.env.BENCH_EULER_PROBLEMS ?? 100)
const languages = (process.env.BENCH_EULER_LANGUAGES ?? SIEVE_LANGUAGES.join(','))
  .split(',')
  .map((language) => language.trim())
  .map((language) => {
    if (!(SIEVE_LANGUAGES as readonly string[]).includes(language))
      throw new Error(`BENCH_EULER_LANGUAGES: ${language} is not one of ${SIEVE_LANGUAGES.join(', ')}.`)
    return language as SieveLanguage
  })
const SIEVE_LIMITS = { light: 1000, heavy: 10_000_000 } as const
type ProgramSet = keyof typeof SIEVE_LIMITS
const sets = (process.env.BENCH_EULER_SETS ?? 'light,heavy').split(',').map((name) => {
  if (!(name in SIEVE_LIMITS)) throw new Error(`BENCH_EULER_SETS: ${name} is not light or heavy.`)
  return name as ProgramSet
})
const GOAL = 0.5
// Issue 43: every language on its own at most upstream's time.
const LANGUAGE_GOAL = 1.0

if (!Number.isInteger(problemCount) || problemCount < 1 || problemCount > 100)
  throw new Error(`BENCH_EULER_PROBLEMS=${process.env.BENCH_EULER_PROBLEMS}: give a whole number from 1 to 100.`)
if (!existsSync(answersFile))
  throw new Error(`No PE-Bench answers at ${answersFile}: set TESTBENCH_DATA_DIR to the datasets dir.`)
const probe = spawnSync(debianPython, ['-c', 'import requests, urllib3, PIL'], { encoding: 'utf8' })
if (probe.status !== 0)
  throw new Error(
    `${debianPython} cannot import requests, urllib3, PIL, which upstream's execute.py needs: apt-get install python3-requests python3-urllib3 python3-pil.`,
  )
for (const tool of ['javac', 'java', 'rustc', 'clojure'])
  if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0)
    throw new Error(`${tool} is not on PATH: upstream's pipeline needs it (see .ci/install-packages).`)

interface Answer {
  solution: string
}
const answers = JSON.parse(readFileSync(answersFile, 'utf8')) as Record<string, Answer>
const problemIds = Array.from({ length: problemCount }, (_, index) => String(index + 1).padStart(4, '0'))
const answerOf = (id: string): string => {
  const answer = answers[id]?.solution
  if (answer === undefined) throw new Error(`${answersFile} has no answer for problem ${id}.`)
  return answer
}

const dir = removeOnInterrupt(mkdtempSync(join(tmpdir(), 'testbench-bench-euler-')))
chmodSync(dir, 0o755)

/** Upstream at its pinned commit, exported from its git history into a dir of its own. */
function exportUpstream(): string {
  const gitDir = existsSync(join(upstreamSource, '.git')) ? join(upstreamSource, '.git') : upstreamSource
  const target = join(dir, 'upstream')
  mkdirSync(target)
  const archive = spawnSync('sh', [
    '-c',
    `git --git-dir="$1" archive "$2" | tar -x -C "$3"`,
    'sh',
    gitDir,
    UPSTREAM_COMMIT,
    target,
  ])
  if (archive.status !== 0 || !existsSync(join(target, 'execute.py')))
    throw new Error(
      `Cannot export Orbiter/project-euler-llm-benchmark at ${UPSTREAM_COMMIT} from ${upstreamSource}: ` +
        `clone it (git clone https://github.com/Orbiter/project-euler-llm-benchmark) and set BENCH_EULER_UPSTREAM to the clone.\n${archive.stderr}`,
    )
  return target
}
const upstream = exportUpstream()

// Upstream calls `clj -M -e <code>`; Debian ships clojure.main as `clojure`, which `clj -M` runs too.
const shims = join(dir, 'shims')
mkdirSync(shims)
writeFileSync(join(shims, 'clj'), '#!/bin/sh\n[ "$1" = -M ] && shift\nexec clojure "$@"\n', { mode: 0o755 })

/** Each set's programs: upstream's solutions/<model>/<language>/NNNN.<ext> and the suite's replay file. */
function writePrograms(set: ProgramSet): { model: string; replay: string } {
  const model = `bench-${set}`
  const replayRows: string[] = []
  for (const language of languages) {
    const programs = join(upstream, 'solutions', model, language)
    mkdirSync(programs, { recursive: true })
    for (const id of problemIds) {
      const program = sieveProgram(language, answerOf(id), SIEVE_LIMITS[set])
      writeFileSync(join(programs, `${id}.${EXTENSIONS[language]}`), program)
      replayRows.push(JSON.stringify({ id, variant: language, reply: `\`\`\`${language}\n${program}\n\`\`\`` }))
    }
  }
  const replay = join(dir, `${model}.jsonl`)
  writeFileSync(replay, replayRows.join('\n') + '\n')
  return { model, replay }
}

/** One execute.py run over one language; checks that it ran every program and judged each output right. */
async function upstreamRun(model: string, language: SieveLanguage): Promise<number> {
  const started = performance.now()
  const run = await execa(debianPython, ['execute.py', '--model', model, '--language', language, '--n100'], {
    cwd: upstream,
    reject: false,
    env: { PATH: `${shims}:${process.env.PATH ?? '/usr/bin:/bin'}` },
  })
  const wallMs = performance.now() - started
  const outputsFile = join(upstream, 'solutions', model, language, 'solutions.json')
  const outputs = existsSync(outputsFile)
    ? (JSON.parse(readFileSync(outputsFile, 'utf8')) as Record<string, string>)
    : {}
  const wrong = problemIds.filter((id) => outputs[id] !== answerOf(id))
  // Its limit is 10 s of wall time: on a busy machine a program now and then runs out of it. Said, not fatal: the
  // time still counts. Any other wrong verdict means the two pipelines did not run the same programs.
  const timedOut = wrong.filter((id) => /timed/.test(outputs[id] ?? ''))
  const skipped = run.stdout.includes('Found solution')
  if (run.exitCode !== 0 || wrong.length > timedOut.length || skipped) {
    throw new Error(
      `upstream ${language} (${model}): exit ${run.exitCode}, ${wrong.length} programs not judged right (${wrong.slice(0, 5).join(', ')})` +
        `${skipped ? ', some skipped for the answer in their source' : ''}:\n${run.stdout.slice(-1500)}\n${run.stderr.slice(-1500)}`,
    )
  }
  if (timedOut.length > 0) console.log(`  (upstream ${language}: ${timedOut.length} programs ran out of its 10 s)`)
  rmSync(outputsFile)
  return wallMs
}

let suiteRuns = 0
/** One run of the README's command over `runLanguages`; checks that every item passed. */
async function suiteRun(replay: string, runLanguages: readonly SieveLanguage[]): Promise<number> {
  const home = join(dir, `suite-${suiteRuns++}`)
  mkdirSync(home)
  const env = {
    MODEL: `replay:${replay}`,
    SAMPLES: '1',
    TESTBENCH_EULER_LANGUAGES: runLanguages.join(','),
    TESTBENCH_EULER_PROBLEMS: `1-${problemCount}`,
    TESTBENCH_DATA_DIR: dataDir,
    TESTBENCH_CACHE_DIR: join(home, 'cache'),
    TESTBENCH_REPORT_DIR: join(home, 'reports'),
    CI: '1',
    NO_COLOR: '1',
  }
  const started = performance.now()
  const run = await execa(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', 'suites/euler'], {
    cwd: root,
    reject: false,
    env,
  })
  const wallMs = performance.now() - started
  const reports = join(home, 'reports', 'euler')
  const outcomes = existsSync(reports)
    ? readdirSync(reports)
        .filter((name) => name.endsWith('.jsonl'))
        .flatMap((name) => readFileSync(join(reports, name), 'utf8').split('\n'))
        .filter((line) => line.trim() !== '')
        .map((line) => (JSON.parse(line) as { outcome?: string }).outcome)
        .filter((outcome) => outcome !== undefined)
    : []
  const passed = outcomes.filter((outcome) => outcome === 'passed').length
  const timedOut = outcomes.filter((outcome) => outcome === 'timeout').length
  const items = problemCount * runLanguages.length
  // As upstream's: a timeout is the machine's load, said and counted; any other failure stops the bench.
  if (outcomes.length !== items || passed + timedOut !== items)
    throw new Error(
      `suite ${runLanguages.join(',')}: exit ${run.exitCode}, ${passed} of ${items} passed:\n${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`,
    )
  if (timedOut > 0) console.log(`  (suite ${runLanguages.join(',')}: ${timedOut} programs ran out of the 10 s limit)`)
  rmSync(home, { recursive: true, force: true })
  return wallMs
}

const seconds = (ms: number): string => (ms / 1000).toFixed(1)
const spread = (values: readonly number[]): string => spreadOf(values, 1, 7)

interface Contestant {
  name: string
  run: () => Promise<number>
}
const ALL = languages.join('+')
const SUM = `${ALL}, one by one`

try {
  console.log(
    `PE-Bench, problems 1–${problemCount} × ${languages.join(', ')}, ${rounds} rounds interleaved, sets ${sets.join(', ')}`,
  )
  console.log(`upstream: Orbiter/project-euler-llm-benchmark execute.py at ${UPSTREAM_COMMIT}, ${debianPython}`)
  console.log(`suite: npx vitest run suites/euler, MODEL=replay:<the same programs>, a fresh cache each run`)
  console.log(`load average at the start: ${load()}`)
  const verdicts: string[] = []
  for (const set of sets) {
    const { model, replay } = writePrograms(set)
    console.log(`\nset ${set}: each program sieves to about ${SIEVE_LIMITS[set]}`)
    const contestants: Contestant[] = [
      ...languages.flatMap((language) => [
        { name: `upstream ${language}`, run: () => upstreamRun(model, language) },
        { name: `suite ${language}`, run: () => suiteRun(replay, [language]) },
      ]),
      ...(languages.length > 1 ? [{ name: `suite ${ALL}`, run: () => suiteRun(replay, languages) }] : []),
    ]
    const times = new Map<string, number[]>()
    for (let round = 0; round < rounds; round++) {
      // A different contestant goes first each round, so that none always meets a cold disk cache or a busy neighbour.
      const order = contestants.map((_, index) => contestants[(index + round) % contestants.length] as Contestant)
      for (const contestant of order)
        times.set(contestant.name, [...(times.get(contestant.name) ?? []), await contestant.run()])
      const total = (side: string): number =>
        languages.reduce((sum, language) => sum + (times.get(`${side} ${language}`)?.at(-1) ?? 0), 0)
      times.set(`upstream ${ALL}`, [...(times.get(`upstream ${ALL}`) ?? []), total('upstream')])
      // Ours one language after another, as upstream's together is: beside the run of all four at once.
      times.set(`upstream ${SUM}`, times.get(`upstream ${ALL}`) ?? [])
      times.set(`suite ${SUM}`, [...(times.get(`suite ${SUM}`) ?? []), total('suite')])
      console.log(
        `round ${round + 1}: ${order.map((c) => `${c.name} ${seconds(times.get(c.name)?.at(-1) ?? NaN)} s`).join(', ')} (load ${load()})`,
      )
    }
    const rows = [...languages, ...(languages.length > 1 ? [ALL, SUM] : [])]
    for (const row of rows) {
      const ours = times.get(`suite ${row}`) ?? []
      const theirs = times.get(`upstream ${row}`) ?? []
      const ratio = median(ours) / median(theirs)
      console.log(
        `${row.padEnd(26)} suite ${spread(ours)}   upstream ${spread(theirs)}   suite / upstream ${ratio.toFixed(2)}×`,
      )
      if ((languages as readonly string[]).includes(row))
        verdicts.push(
          `set ${set}, ${row}: suite / upstream ${ratio.toFixed(2)}× (goal ≤ ${LANGUAGE_GOAL}×: ${ratio <= LANGUAGE_GOAL ? 'met' : 'NOT met'})`,
        )
      if (row === ALL || languages.length === 1)
        verdicts.push(
          `set ${set}, ${row}: suite / upstream ${ratio.toFixed(2)}× (goal ≤ ${GOAL}×: ${ratio <= GOAL ? 'met' : 'NOT met'})`,
        )
    }
  }
  console.log(`\nload average at the end: ${load()}`)
  for (const verdict of verdicts) console.log(verdict)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
