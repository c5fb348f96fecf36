import { describe, expect, test } from 'vitest'
import { judgeLog } from '../../../../suites/swebench/evaluation/evaluate.ts'
import { gradeInstance } from '../../../../suites/swebench/evaluation/grading.ts'
import type { TestStatus } from '../../../../suites/swebench/evaluation/log-parsers.ts'
import { SYNTHETIC_SPEC, syntheticInstance } from '../synthetic-instance.ts'

const statuses = (entries: Record<string, TestStatus>) => new Map(Object.entries(entries))

describe('gradeInstance', () => {
  test('resolved: every FAIL_TO_PASS and PASS_TO_PASS test passes (XFAIL counts as passing)', () => {
    expect(gradeInstance(statuses({ a: 'PASSED', b: 'XFAIL', c: 'PASSED' }), ['a', 'b'], ['c']).resolution).toBe(
      'resolved',
    )
  })

  test('partially resolved: some FAIL_TO_PASS tests pass and every PASS_TO_PASS test does', () => {
    expect(gradeInstance(statuses({ a: 'PASSED', b: 'FAILED', c: 'PASSED' }), ['a', 'b'], ['c']).resolution).toBe(
      'partially_resolved',
    )
  })

  test('not resolved: a broken PASS_TO_PASS test, or no FAIL_TO_PASS test passing', () => {
    expect(gradeInstance(statuses({ a: 'PASSED', b: 'PASSED', c: 'ERROR' }), ['a', 'b'], ['c']).resolution).toBe(
      'not_resolved',
    )
    expect(gradeInstance(statuses({ a: 'PASSED', b: 'FAILED', c: 'FAILED' }), ['a', 'b'], ['c']).resolution).toBe(
      'not_resolved',
    )
    expect(gradeInstance(statuses({ a: 'FAILED', c: 'PASSED' }), ['a'], ['c']).resolution).toBe('not_resolved')
  })

  test('a test missing from the log fails; a skipped one counts neither way', () => {
    const grade = gradeInstance(statuses({ a: 'PASSED', c: 'SKIPPED' }), ['a', 'b'], ['c'])
    expect(grade.failToPass).toEqual({ passed: ['a'], failed: ['b'] })
    expect(grade.passToPass).toEqual({ passed: [], failed: [] })
    expect(grade.resolution).toBe('partially_resolved')
  })
})

describe('judgeLog: what the container log says', () => {
  const setup = { spec: SYNTHETIC_SPEC, timeoutMs: 30_000 }
  const testOutput = [
    '>>>>> Applied Patch (git apply)',
    '>>>>> Start Test Output',
    'PASSED tests/test_stats.py::test_median_odd',
  ]

  test('the model patch did not apply: a patch error, the model’s no_answer', async () => {
    const verdict = judgeLog(
      await syntheticInstance(),
      setup,
      'error: patch failed\n>>>>> Patch Apply Failed\n',
      3,
      false,
      10,
    )
    expect(verdict).toMatchObject({ status: 'patch_error', outcome: 'no_answer' })
  })

  test('the test patch did not apply: infra error', async () => {
    const verdict = judgeLog(
      await syntheticInstance(),
      setup,
      '>>>>> Applied Patch (git apply)\n>>>>> Test Patch Apply Failed\n',
      4,
      false,
      10,
    )
    expect(verdict).toMatchObject({ status: 'infra_error', outcome: 'infra_error' })
  })

  test('a time-out before the tests start, or a container that ends early: infra error, with the reason', async () => {
    const instance = await syntheticInstance()
    expect(
      judgeLog(instance, setup, '>>>>> Applied Patch (git apply)\nInstalling…\n', null, true, 30_000),
    ).toMatchObject({
      status: 'infra_error',
      reason: expect.stringMatching(/timed out after 30 s before the tests started/),
    })
    expect(judgeLog(instance, setup, 'bash: git: command not found\n', 127, false, 10)).toMatchObject({
      status: 'infra_error',
      reason: expect.stringMatching(/exit 127\) before the tests started: bash: git: command not found/),
    })
  })

  test('tests that started and ran past the limit: the patch’s timeout', async () => {
    expect(judgeLog(await syntheticInstance(), setup, testOutput.join('\n'), null, true, 30_000)).toMatchObject({
      status: 'timeout',
      outcome: 'timeout',
    })
  })

  test('a finished run is graded from the lines between the markers only', async () => {
    const log = [
      'PASSED tests/test_stats.py::test_median_even',
      ...testOutput,
      'FAILED tests/test_stats.py::test_median_even - assert 3 == 2.5',
      '>>>>> End Test Output (exit 1)',
      'PASSED tests/test_stats.py::test_median_even',
    ].join('\n')
    const verdict = judgeLog(await syntheticInstance(), setup, log, 0, false, 10)
    expect(verdict).toMatchObject({ status: 'not_resolved', outcome: 'wrong_answer', appliedWith: 'git apply' })
    expect(verdict.reason).toBe('not resolved: FAIL_TO_PASS 0/1, PASS_TO_PASS 1/1 pass.')
  })

  const passing = ['PASSED tests/test_stats.py::test_median_even', 'PASSED tests/test_stats.py::test_median_odd']

  test("a marker inside a line (a file name git apply prints) is no marker: only the script's own echo counts", async () => {
    // A patch that adds files named like the markers cannot end the test log early or skip the exit-status rule.
    const log = [
      'Checking patch >>>>> Start Test Output...',
      'Checking patch >>>>> End Test Output (exit 0)...',
      '>>>>> Applied Patch (git apply)',
      ...testOutput,
      'PASSED tests/test_stats.py::test_median_even',
      '>>>>> End Test Output (exit 1)',
    ].join('\n')
    expect(judgeLog(await syntheticInstance(), setup, log, 0, false, 10)).toMatchObject({
      status: 'not_resolved',
      reason: expect.stringMatching(/exited 1 but its log reports no failing test/),
    })
  })

  test("the test command's exit status decides, as SWE-bench's grading does, when it fails while the log shows no failure", async () => {
    const instance = await syntheticInstance()
    const spoofed = [...testOutput, ...passing, '>>>>> End Test Output (exit 1)'].join('\n')
    expect(judgeLog(instance, setup, spoofed, 0, false, 10)).toMatchObject({
      status: 'not_resolved',
      outcome: 'wrong_answer',
      reason: expect.stringMatching(/exited 1 but its log reports no failing test/),
    })
    // Exit 0, or a non-zero exit with a failure in the log, is graded from the log.
    expect(
      judgeLog(instance, setup, [...testOutput, ...passing, '>>>>> End Test Output (exit 0)'].join('\n'), 0, false, 10),
    ).toMatchObject({ status: 'resolved', outcome: 'passed' })
    const withFailure = [
      ...testOutput,
      ...passing,
      'FAILED tests/test_stats.py::test_other - boom',
      '>>>>> End Test Output (exit 1)',
    ].join('\n')
    expect(judgeLog(instance, setup, withFailure, 0, false, 10)).toMatchObject({ status: 'resolved' })
  })

  test('nothing read between the markers: the whole log is read, as SWE-bench does', async () => {
    const log = [
      'PASSED tests/test_stats.py::test_median_even',
      ...testOutput.slice(0, 2),
      '>>>>> End Test Output (exit 0)',
      'PASSED tests/test_stats.py::test_median_odd',
    ].join('\n')
    expect(judgeLog(await syntheticInstance(), setup, log, 0, false, 10)).toMatchObject({ status: 'resolved' })
  })

  test('the chain step that took the patch is recorded', async () => {
    const log = [
      '>>>>> Applied Patch (git apply --reject)',
      ...testOutput.slice(1),
      'PASSED tests/test_stats.py::test_median_even',
      '>>>>> End Test Output (exit 0)',
    ].join('\n')
    expect(judgeLog(await syntheticInstance(), setup, log, 0, false, 10)).toMatchObject({
      status: 'resolved',
      appliedWith: 'git apply --reject',
    })
  })
})
