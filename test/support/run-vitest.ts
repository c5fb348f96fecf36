import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ItemRecord } from '../../harness/records/item-record.ts'
import type { DeclaredItem } from '../../harness/records/declared-item.ts'

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url))

export interface VitestRun {
  child: ChildProcess
  /** Resolves when the run ends, with its exit code and everything it printed. */
  done: Promise<{ code: number | null; output: string }>
}

/** Runs `vitest run <args>` in a child process of its own group, as a user would from the repo root. */
export function startVitestRun(args: string[], env: NodeJS.ProcessEnv): VitestRun {
  const child = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env, CI: '1', FORCE_COLOR: '0', NO_COLOR: '1' },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const done = new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, output })),
  )
  return { child, done }
}

/** Kills the run and every process it started, as a crash or `kill -9` would. */
export function killRun(run: VitestRun): void {
  if (run.child.pid !== undefined) process.kill(-run.child.pid, 'SIGKILL')
}

/** One test as Vitest's `json` reporter writes it, with the item record the benchmark left in its meta. */
export interface JsonTestResult {
  ancestorTitles: string[]
  title: string
  status: string
  meta: { bench?: ItemRecord; declared?: DeclaredItem }
}

/** Every test of a run's `--reporter=json --outputFile.json=<file>` report. */
export function readJsonReport(file: string): JsonTestResult[] {
  const report = JSON.parse(readFileSync(file, 'utf8')) as {
    testResults: Array<{ assertionResults: JsonTestResult[] }>
  }
  return report.testResults.flatMap((testFile) => testFile.assertionResults)
}

/**
 * Runs one suite as a user would (`MODEL=… vitest run suites/<suite>`) with the reply cache off,
 * its own report dir and cache dir (unless `env` names one), none of the caller's
 * `TESTBENCH_<SUITE>_*` knobs, and reads every item's record from Vitest's JSON report.
 * `started` is told the run's temp folder and process as soon as both exist (a bench removes and kills them
 * when it is interrupted).
 */
export async function runSuiteForRecords(
  suite: string,
  env: Record<string, string>,
  started?: (run: { dir: string; child: ChildProcess }) => void,
) {
  const dir = mkdtempSync(join(tmpdir(), `${suite}-run-`))
  const report = join(dir, 'report.json')
  const prefix = `TESTBENCH_${suite.toUpperCase()}_`
  const clean = Object.fromEntries(
    Object.keys(process.env)
      .filter((key) => key.startsWith(prefix))
      .map((key) => [key, undefined]),
  )
  const reports = join(dir, 'reports')
  const run = startVitestRun(
    ['--project', 'suites', `suites/${suite}`, '--reporter=json', `--outputFile.json=${report}`],
    {
      ...clean,
      TESTBENCH_CACHE: 'off',
      TESTBENCH_CACHE_DIR: join(dir, 'cache'),
      TESTBENCH_REPORT_DIR: reports,
      ...env,
    },
  )
  started?.({ dir, child: run.child })
  try {
    const { code, output } = await run.done
    // The benchmark items: a part file whose slice is empty declares a skipped placeholder, no item.
    const results = readJsonReport(report).filter((result) => result.meta.declared !== undefined)
    const records = results.map((result) => result.meta.bench).filter((record) => record !== undefined)
    return { code, output, results, records, reports }
  } catch (error) {
    // A run that wrote no report leaves nothing for the caller to read, or to remove.
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
}
