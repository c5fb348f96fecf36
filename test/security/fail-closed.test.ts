import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { runSuiteForRecords, startVitestRun } from '../support/run-vitest.ts'

const FIXTURE_DATASETS = fileURLToPath(new URL('../../fixtures/euler/datasets', import.meta.url))
const FIXTURE_SOLUTIONS_SHA256 = 'b3aeedb669617655a526e325a303cff999c6d8304aaa762ac47953ecb511d57f'
const FIXTURE_REPLIES = fileURLToPath(new URL('../../fixtures/euler/replies.jsonl', import.meta.url))
/** A tier that cannot work on any machine: a container engine at a socket that does not exist. */
const NO_TIER = { SANDBOX: 'docker', DOCKER_HOST: 'unix:///nonexistent/testbench-no-engine.sock' }

describe('fail closed: no working sandbox, no program runs', () => {
  test('a suite that runs programs stops before its first item with one message saying what is missing and what to do', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fail-closed-'))
    const run = startVitestRun(['--project', 'suites', 'suites/euler'], {
      TESTBENCH_CACHE: 'off',
      TESTBENCH_CACHE_DIR: join(dir, 'cache'),
      TESTBENCH_REPORT_DIR: join(dir, 'reports'),
      MODEL: `replay:${FIXTURE_REPLIES}`,
      TESTBENCH_DATA_DIR: FIXTURE_DATASETS,
      TESTBENCH_EULER_SHA256: FIXTURE_SOLUTIONS_SHA256,
      TESTBENCH_EULER_LANGUAGES: 'python',
      TESTBENCH_EULER_PROBLEMS: '1-2',
      ...NO_TIER,
    })
    const { code, output } = await run.done
    expect(code, output).not.toBe(0)
    expect(output).toMatch(/euler run\(s\) model-written programs, and no sandbox can run them here; nothing was asked or run/)
    expect(output).toMatch(/SANDBOX=docker: no container engine answers at unix:\/\/\/nonexistent\/testbench-no-engine\.sock/)
    // No item ran, so no report was written.
    expect(existsSync(join(dir, 'reports', 'euler'))).toBe(false)
    expect(output).not.toMatch(/0001/)
  })

  test('a suite that runs no program (FaRel) runs without any sandbox', async () => {
    const { code, output, records } = await runSuiteForRecords('farel', { MODEL: 'reference', TESTBENCH_FAREL_PER_CLASS: '1', ...NO_TIER })
    expect(code, output).toBe(0)
    expect(records.length).toBeGreaterThan(0)
    expect(records.every((record) => record.outcome === 'passed' && record.sandbox === undefined)).toBe(true)
  })
})
