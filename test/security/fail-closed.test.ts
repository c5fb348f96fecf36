import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { runSuiteForRecords, startVitestRun } from '../support/run-vitest.ts'
import { eulerReplay, NO_SANDBOX_CAN_RUN } from './euler-replay.ts'

/** A tier that cannot work on any machine: a container engine at a socket that does not exist. */
const NO_TIER = { SANDBOX: 'docker', DOCKER_HOST: 'unix:///nonexistent/testbench-no-engine.sock' }

describe('fail closed: no working sandbox, no program runs', () => {
  test('a suite that runs programs stops before its first item with one message saying what is missing and what to do', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fail-closed-'))
    const run = startVitestRun(['--project', 'suites', 'suites/euler'], { ...eulerReplay(dir), ...NO_TIER })
    const { code, output } = await run.done
    expect(code, output).not.toBe(0)
    expect(output).toMatch(NO_SANDBOX_CAN_RUN)
    expect(output).toMatch(
      /SANDBOX=docker: no container engine answers at unix:\/\/\/nonexistent\/testbench-no-engine\.sock/,
    )
    // No item ran, so no report was written.
    expect(existsSync(join(dir, 'reports', 'euler'))).toBe(false)
    expect(output).not.toMatch(/0001/)
  })

  test('a suite that runs no program (FaRel) runs without any sandbox', async () => {
    const { code, output, records } = await runSuiteForRecords('farel', {
      MODEL: 'reference',
      TESTBENCH_FAREL_PER_CLASS: '1',
      ...NO_TIER,
    })
    expect(code, output).toBe(0)
    expect(records.length).toBeGreaterThan(0)
    expect(records.every((record) => record.outcome === 'passed' && record.sandbox === undefined)).toBe(true)
  })
})
