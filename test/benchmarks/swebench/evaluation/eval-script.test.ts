import { expect, test } from 'vitest'
import { evalScript } from '../../../../suites/swebench/evaluation/eval-script.ts'
import { repoSpec } from '../../../../suites/swebench/evaluation/repo-specs.ts'

const script = evalScript({
  baseCommit: 'abc123',
  spec: repoSpec('pallets/flask', '2.3'),
  testFiles: ['tests/test_x.py'],
  testDirectives: ['tests/test_x.py'],
})

test("the model's patch goes through SWE-bench v4.1.0's chain, with its flags, in its order", () => {
  const chain = script.split('\n').filter((line) => /^(if|elif) (git apply|patch)/.test(line))
  expect(chain.map((line) => /^(?:el)?if (.*?) \/swebench\/model\.patch;/.exec(line)?.[1])).toEqual([
    'git apply --verbose',
    'git apply --verbose --reject',
    'patch --batch --fuzz=5 -p1 -i',
  ])
  expect(script).not.toContain('--dry-run')
})

test("stderr goes to stdout's stream from the start, so that the engine cannot interleave a marker mid-line", () => {
  expect(script.split('\n').slice(0, 3)).toEqual(['#!/bin/bash', 'set -uo pipefail', 'exec 2>&1'])
})

test("the test command's exit status is recorded with the end marker", () => {
  expect(script).toContain('pytest -rA tests/test_x.py\necho ">>>>> End Test Output (exit $?)"')
})

test('repository specs as SWE-bench has them: no -p no:nose for old astropy; psf/requests gets a network for its httpbin', () => {
  for (const version of ['0.1', '1.3'])
    expect(repoSpec('astropy/astropy', version).testCommand).toBe(
      'pytest -rA -vv -o console_output_style=classic --tb=no',
    )
  expect(repoSpec('astropy/astropy', '5.0').testCommand).toBe('pytest -rA')
  expect(repoSpec('psf/requests', '2.4').network).toBe('bridge')
  expect(repoSpec('django/django', '3.0').network).toBeUndefined()
})
