import { mkdtemp, readdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, test } from 'vitest'
import type { PythonTask } from '../../../harness/python-tasks/python-task.ts'
import { lastException, outcomeOf, runTests } from '../../../harness/python-tasks/run-tests.ts'
import type { TimeLimitPolicy } from '../../../harness/python-tasks/time-limit.ts'
import { skipWithoutSandbox } from '../../support/sandbox-available.ts'

/** A HumanEval-shaped task written for these tests. */
const TASK: PythonTask = {
  id: 'Toy/0',
  title: 'halve',
  entryPoint: 'halve',
  chatPrompt: 'Write halve.',
  completionPrompt: 'from typing import List\n\ndef halve(xs: List[int]) -> List[int]:\n    """Halves each number, rounding down."""\n',
  stop: ['\ndef'],
  completionPrefix: 'from typing import List\n\ndef halve(xs: List[int]) -> List[int]:\n    """Halves each number, rounding down."""\n',
  preamble: 'from typing import List',
  tests: 'def check(candidate):\n    assert candidate([4, 5]) == [2, 2]\n    assert candidate([]) == []\n\ncheck(halve)',
  reference: '```python\nfrom typing import List\n\ndef halve(xs: List[int]) -> List[int]:\n    return [x // 2 for x in xs]\n```\n',
}

async function policy(floorMs = 3000): Promise<TimeLimitPolicy> {
  return { floorMs, inputFloorMs: 1000, factor: 4, memoryBytes: 512 * 1024 * 1024, cacheDir: await mkdtemp(join(tmpdir(), 'testbench-times-')) }
}

const RIGHT = 'def halve(xs: List[int]) -> List[int]:\n    return [x // 2 for x in xs]'

describe('runTests', () => {
  beforeEach((context) => skipWithoutSandbox(context))
  test('a right solution passes (the prompt\'s import is supplied)', async () => {
    const run = await runTests(TASK, RIGHT, await policy())
    expect(run.outcome, run.output).toBe('passed')
  })

  test.for([
    ['exit(0) before the checks', `import sys\n${RIGHT}\nsys.exit(0)`],
    ['os._exit(0) before the checks', `import os\n${RIGHT}\nos._exit(0)`],
    ['exit() from inside the function', 'def halve(xs):\n    exit(0)'],
    ['raise SystemExit(0) when checked', 'def halve(xs):\n    raise SystemExit(0)'],
  ])('a sample that exits early fails: %s', async ([, solution]) => {
    const run = await runTests(TASK, solution ?? '', await policy())
    expect(run.outcome, run.output).not.toBe('passed')
    expect(run.output).toMatch(/without printing the success marker/)
  })

  test('a sample that prints a guessed marker does not pass', async () => {
    const run = await runTests(TASK, `${RIGHT}\nprint("TESTBENCH_PASS_" + "0" * 32)\nimport sys\nsys.exit(0)`, await policy())
    expect(run.outcome).not.toBe('passed')
  })

  test('a failed assert is a wrong answer', async () => {
    const run = await runTests(TASK, 'def halve(xs):\n    return [x / 2 for x in xs]', await policy())
    expect(run.outcome, run.output).toBe('wrong_answer')
    expect(run.output).toMatch(/AssertionError/)
  })

  test('a syntax error is a compile error', async () => {
    const run = await runTests(TASK, 'def halve(xs):\n    return [x // 2 for x in xs', await policy())
    expect(run.outcome, run.output).toBe('compile_error')
  })

  test('an exception is a runtime error', async () => {
    const run = await runTests(TASK, 'def halve(xs):\n    return [x // 0 for x in xs]', await policy())
    expect(run.outcome, run.output).toBe('runtime_error')
    expect(run.output).toMatch(/ZeroDivisionError/)
  })

  test('an endless loop times out at the floor when the canonical solution is fast, and the canonical time is cached', async () => {
    const limits = await policy(1000)
    const run = await runTests(TASK, 'def halve(xs):\n    while True:\n        pass', limits)
    expect(run.outcome, run.output).toBe('timeout')
    expect(run.limitMs).toBe(1000)
    expect(await readdir(limits.cacheDir)).toHaveLength(1)
  })

  test('a slow right answer passes when the canonical solution is as slow: the limit is factor × its time', async () => {
    const slow: PythonTask = {
      ...TASK,
      reference: '```python\nimport time\ndef halve(xs):\n    time.sleep(0.6)\n    return [x // 2 for x in xs]\n```',
    }
    const run = await runTests(slow, 'import time\ndef halve(xs):\n    time.sleep(0.9)\n    return [x // 2 for x in xs]', await policy(500))
    expect(run.outcome, run.output).toBe('passed')
    expect(run.limitMs).toBeGreaterThanOrEqual(4 * 600)
  })
})

describe('outcomeOf', () => {
  const stderr = (text: string) => ({ text, truncated: false, bytes: text.length })
  test('AssertionError on the last traceback line is a wrong answer; another exception stays a runtime error', () => {
    const traceback = 'Traceback (most recent call last):\n  File "main.py", line 3, in <module>\n'
    expect(outcomeOf({ outcome: 'runtime_error', stderr: stderr(`${traceback}AssertionError`) })).toBe('wrong_answer')
    expect(outcomeOf({ outcome: 'runtime_error', stderr: stderr(`${traceback}AssertionError: invalid inputs`) })).toBe('wrong_answer')
    expect(outcomeOf({ outcome: 'runtime_error', stderr: stderr(`${traceback}TypeError: bad`) })).toBe('runtime_error')
    expect(outcomeOf({ outcome: 'timeout', stderr: stderr('') })).toBe('timeout')
  })

  test('lastException reads dotted names and ignores stderr without a traceback', () => {
    expect(lastException('Traceback (most recent call last):\n  x\nnumpy.core._exceptions._ArrayMemoryError: no')).toBe('_ArrayMemoryError')
    expect(lastException('AssertionError')).toBeUndefined()
  })
})
