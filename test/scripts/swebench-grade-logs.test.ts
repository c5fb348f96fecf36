import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, expect, test } from 'vitest'
import { REPO_ROOT } from '../support/run-vitest.ts'

const run = promisify(execFile)
const work = mkdtempSync(join(tmpdir(), 'swebench-grade-logs-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** A test log of the fixture instance as its eval script prints it, pytest -rA's summary between the markers. */
function evaluationLog(even: 'PASSED' | 'FAILED'): string {
  return [
    '>>>>> Applied Patch (git apply)',
    '>>>>> Start Test Output',
    '=========================== short test summary info ============================',
    'PASSED tests/test_stats.py::test_median_odd',
    `${even} tests/test_stats.py::test_median_even`,
    `>>>>> End Test Output (exit ${even === 'PASSED' ? 0 : 1})`,
    '',
  ].join('\n')
}

test('bench:swebench grader: the suite verdict on each log of the fixture instance, through the .mjs launcher', async () => {
  const logs = {
    resolved: join(work, 'resolved.log'),
    broken: join(work, 'broken.log'),
    unapplied: join(work, 'unapplied.log'),
  }
  writeFileSync(logs.resolved, evaluationLog('PASSED'))
  writeFileSync(logs.broken, evaluationLog('FAILED'))
  writeFileSync(logs.unapplied, 'error: corrupt patch at line 13\n>>>>> Patch Apply Failed\n')
  const { stdout } = await run(
    process.execPath,
    ['scripts/swebench-grade-logs.mjs', 'fixtures/swebench/tinycalc/instance.json', ...Object.values(logs)],
    { cwd: REPO_ROOT, timeout: 60_000 },
  )
  const lines = stdout.trim().split('\n')
  expect(lines.slice(0, 3)).toEqual([
    `${logs.resolved}\tresolved`,
    `${logs.broken}\tnot_resolved`,
    `${logs.unapplied}\tpatch_error`,
  ])
  expect(lines[3]).toMatch(/^grading ms\t\d+(\.\d+)?$/)
})
