import { existsSync, readdirSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { startVitestRun } from '../support/run-vitest.ts'

test('a run that selects no item saves no score', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'zero-items-'))
  try {
    const reports = join(dir, 'reports')
    const run = startVitestRun(['--project', 'suites', 'suites/demo', '-t', 'no item has this name'], {
      MODEL: 'reference',
      TESTBENCH_CACHE_DIR: join(dir, 'cache'),
      TESTBENCH_REPORT_DIR: reports,
    })
    const { output } = await run.done
    expect(output).toMatch(/5 skipped/)
    expect(
      existsSync(reports) ? readdirSync(reports, { recursive: true }).filter((name) => String(name).includes('.')) : [],
    ).toEqual([])
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})
