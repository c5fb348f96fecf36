import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ItemRecord } from '../../harness/records/item-record.ts'
import { startVitestRun } from './run-vitest.ts'
import { datasetEnv } from './test-datasets.ts'

/**
 * Runs a suite as a user would (`MODEL=… vitest run --project suites suites/<suite>`, the
 * configured reporters) on the real datasets (test-datasets.ts), and reads its records from the score reporter's
 * JSONL files. `-t` narrows it to some items.
 */
export async function runSuite(suite: 'humaneval' | 'mbpp', env: Record<string, string>, namePattern?: string) {
  const dir = mkdtempSync(join(tmpdir(), `${suite}-run-`))
  const reportDir = join(dir, 'reports')
  const clean = Object.fromEntries(
    Object.keys(process.env)
      .filter(
        (key) =>
          key.startsWith(`TESTBENCH_${suite.toUpperCase()}_`) || key === 'TESTBENCH_PROMPT_MODE' || key === 'SAMPLES',
      )
      .map((key) => [key, undefined]),
  )
  const args = ['--project', 'suites', `suites/${suite}`, ...(namePattern === undefined ? [] : ['-t', namePattern])]
  const run = startVitestRun(args, {
    ...clean,
    TESTBENCH_CACHE: 'off',
    TESTBENCH_CACHE_DIR: join(dir, 'cache'),
    TESTBENCH_REPORT_DIR: reportDir,
    ...datasetEnv(),
    ...env,
  })
  const started = performance.now()
  const { code, output } = await run.done
  const seconds = (performance.now() - started) / 1000
  const records = reportFiles(join(reportDir, suite))
    .flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line !== ''),
    )
    .map((line) => JSON.parse(line) as ItemRecord)
  return { code, output, records, seconds }
}

function reportFiles(dir: string): string[] {
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => name.endsWith('.jsonl'))
        .map((name) => join(dir, name))
    : []
}

/** `itemId #sample` → outcome, for one variant. */
export function outcomes(records: readonly ItemRecord[], variant: string): Record<string, string | undefined> {
  return Object.fromEntries(
    records
      .filter((record) => record.variant === variant)
      .map((record) => [`${record.itemId} #${record.sample}`, record.outcome]),
  )
}

/** Items that did not pass, with why, for a readable failure message. */
export function notPassed(records: readonly ItemRecord[]): string[] {
  return records
    .filter((record) => record.outcome !== 'passed')
    .map((record) => `${record.variant} ${record.itemId}: ${record.outcome} ${(record.output ?? '').slice(0, 300)}`)
}

/** A `-t` pattern that leaves out the given items (`HumanEval/15`…) and keeps every other item of the suite. */
export function allBut(ids: readonly string[]): string {
  return `^(?!.*(?:${ids.map((id) => id.replace('/', '\\/')).join('|')}) ).*$`
}
