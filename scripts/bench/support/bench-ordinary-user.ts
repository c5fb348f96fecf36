// How a bench script runs a command as an ordinary user would: as root, through runuser as BENCH_USER (default
// nobody), with a home of the user's own; otherwise as whoever runs the bench.
import { execa } from 'execa'
import { spawn, spawnSync } from 'node:child_process'
import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { killOnInterrupt } from './interrupt-cleanup.ts'

export interface OrdinaryUser {
  uid: number
  gid: number
  name: string
}

/** The user the bench runs commands as when it is root (BENCH_USER, default nobody); undefined when not root. */
export function ordinaryUser(env: NodeJS.ProcessEnv = process.env): OrdinaryUser | undefined {
  if (process.getuid?.() !== 0) return undefined
  const name = env.BENCH_USER ?? 'nobody'
  const ids = spawnSync('id', ['-u', name], { encoding: 'utf8' })
  const gids = spawnSync('id', ['-g', name], { encoding: 'utf8' })
  if (ids.status !== 0)
    throw new Error(`BENCH_USER ${name} does not exist: create one (useradd -m tbuser) or name another.`)
  return { uid: Number(ids.stdout.trim()), gid: Number(gids.stdout.trim()), name }
}

function chownTree(path: string, uid: number, gid: number): void {
  chownSync(path, uid, gid)
  if (statSync(path).isDirectory()) for (const name of readdirSync(path)) chownTree(join(path, name), uid, gid)
}

/**
 * An ordinary user owns their clone; this one (and a baseline's) is root's. What Vite and Vitest write inside it (the
 * bundled config in node_modules/.vite-temp, the caches in node_modules/.vite and .vitest-cache)
 * belongs to the bench's user while it runs, so that the user runs the README's command as in a clone
 * of their own; the returned function gives it back to its owner.
 */
export function lendWritableDirs(user: OrdinaryUser | undefined, clones: readonly string[]): () => void {
  if (user === undefined) return () => undefined
  const lent = clones.flatMap((clone) =>
    ['.vite-temp', '.vite', '.vitest-cache'].map((name) => join(clone, 'node_modules', name)),
  )
  const owners = lent.map((path) => {
    mkdirSync(path, { recursive: true })
    const { uid, gid } = statSync(path)
    return { path, uid, gid }
  })
  for (const { path } of owners) chownTree(path, user.uid, user.gid)
  return () => {
    for (const { path, uid, gid } of owners) chownTree(path, uid, gid)
  }
}

/** A dir the user owns (made when missing). */
export function userDir(path: string, user: OrdinaryUser | undefined): string {
  mkdirSync(path, { recursive: true })
  if (user !== undefined) chownTree(path, user.uid, user.gid)
  return path
}

export interface CommandRun {
  wallMs: number
  exitCode: number | undefined
  stdout: string
  stderr: string
}

/** `file args` in `cwd` with exactly `env` (PATH included), as `user` where there is one; its wall time. */
export async function runAs(
  user: OrdinaryUser | undefined,
  file: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string>,
): Promise<CommandRun> {
  const [command, commandArgs] =
    user === undefined
      ? [file, args]
      : ['runuser', ['-u', user.name, '--', 'env', ...Object.entries(env).map(([k, v]) => `${k}=${v}`), file, ...args]]
  const started = performance.now()
  const run = await execa(command, commandArgs, { cwd, reject: false, env, extendEnv: false })
  return { wallMs: performance.now() - started, exitCode: run.exitCode, stdout: run.stdout, stderr: run.stderr }
}

export interface ReportRow {
  itemId?: string
  outcome?: string
  startedAt: string
  durationMs: number
}

/** The item records of a suite's report dir (`<reports>/<suite>/*.jsonl`). */
export function reportRows(reports: string, suite: string): ReportRow[] {
  const dir = join(reports, suite)
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => name.endsWith('.jsonl'))
        .flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n'))
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as ReportRow)
        .filter((row) => row.outcome !== undefined)
    : []
}

/** First item's start to last item's end, in ms. */
export function executionPhaseMs(rows: readonly ReportRow[]): number {
  const starts = rows.map((row) => Date.parse(row.startedAt))
  const ends = rows.map((row) => Date.parse(row.startedAt) + row.durationMs)
  return Math.max(...ends) - Math.min(...starts)
}

/**
 * The README's command for `suite` (`npx vitest run suites/<suite>`) from the clone `cwd`, with the run's `knobs`, a
 * home at `home` (its cache and reports inside; the reports of a previous run there are removed first); checks the
 * items' outcomes.
 */
export async function readmeCommand(
  suite: string,
  knobs: Record<string, string>,
  options: {
    user: OrdinaryUser | undefined
    cwd: string
    home: string
    label: string
    /** How many items there are and how many pass ('reported': any outcome); without it, every item must pass. */
    expected?: { items: number; passed: number } | 'reported'
  },
): Promise<{ wallMs: number; phaseMs: number; rows: ReportRow[] }> {
  const { user, cwd, home, label, expected } = options
  userDir(home, user)
  rmSync(join(home, 'reports'), { recursive: true, force: true })
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    SAMPLES: '1',
    TESTBENCH_CACHE_DIR: join(home, 'cache'),
    TESTBENCH_REPORT_DIR: join(home, 'reports'),
    CI: '1',
    NO_COLOR: '1',
    ...knobs,
  }
  const run = await runAs(
    user,
    process.execPath,
    ['node_modules/vitest/vitest.mjs', 'run', `suites/${suite}`],
    cwd,
    env,
  )
  const rows = reportRows(join(home, 'reports'), suite)
  const passed = rows.filter((row) => row.outcome === 'passed').length
  const ran = run.exitCode === 0 || run.exitCode === 1
  const right =
    expected === undefined
      ? run.exitCode === 0 && passed > 0 && passed === rows.length
      : expected === 'reported'
        ? ran && rows.length > 0
        : ran && rows.length === expected.items && passed === expected.passed
  if (!right) {
    const wanted = typeof expected === 'object' ? `, expected ${expected.passed} of ${expected.items}` : ''
    const tail = `${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`
    throw new Error(
      `${label}: the suite run failed (exit ${run.exitCode}, ${passed} of ${rows.length} items passed${wanted}):\n${tail}`,
    )
  }
  return { wallMs: run.wallMs, phaseMs: executionPhaseMs(rows), rows }
}

/**
 * `file args` as `runAs` runs it, timed until it has written `written` in full (a JSON file: until it parses), its
 * last act: what it does after (an upstream's idle watchdog thread that keeps its process up) is not counted, and
 * the process group is then ended. Returns the file's text, or undefined when the command ended without writing it.
 */
export async function runUntilWritten(
  user: OrdinaryUser | undefined,
  file: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string>,
  written: string,
): Promise<{ wallMs: number; text: string | undefined; output: string; exitCode: number | null }> {
  const [command, commandArgs] =
    user === undefined
      ? [file, args]
      : ['runuser', ['-u', user.name, '--', 'env', ...Object.entries(env).map(([k, v]) => `${k}=${v}`), file, ...args]]
  const started = performance.now()
  const child = spawn(command, commandArgs, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  killOnInterrupt(child)
  let output = ''
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-4000)
  }
  child.stdout.on('data', keep)
  child.stderr.on('data', keep)
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  let text: string | undefined
  let wallMs = NaN
  for (;;) {
    const ended = await Promise.race([
      exited.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(resolve, 10, false)),
    ])
    if (existsSync(written)) {
      const candidate = readFileSync(written, 'utf8')
      try {
        JSON.parse(candidate)
        text = candidate
        wallMs = performance.now() - started
        break
      } catch {
        // Still being written.
      }
    }
    if (ended) break
  }
  if (child.exitCode === null && child.signalCode === null && child.pid !== undefined)
    process.kill(-child.pid, 'SIGKILL')
  await exited
  return { wallMs, text, output, exitCode: child.exitCode }
}
