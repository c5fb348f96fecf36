/**
 * The judge alone: hand-written answer keys and driver outputs, one per EvalPlus rule
 * (evalplus/eval/__init__.py, v0.3.1), each with the verdict EvalPlus gives.
 */
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { describe, expect, test } from 'vitest'
import { judgeOutputs, type JudgeVerdict } from '../../../harness/python-tasks/io/judge-process.ts'
import type { OracleKind } from '../../../harness/python-tasks/io/evalplus-oracle.ts'
import { sandboxPython } from '../../support/sandbox-available.ts'

interface Key {
  entryPoint: string
  atol?: number
  nBase?: number
  /** Argument lists and expected outputs, as value_codec JSON text. */
  inputs: string[]
  expected: string[]
}

/** An answer key file as the harness writes it, and the driver's output for `outputs` (value_codec JSON text, or a whole record). */
async function judge(
  kind: OracleKind,
  key: Key,
  outputs: Array<string | Record<string, unknown>>,
): Promise<JudgeVerdict> {
  const dir = await mkdtemp(join(tmpdir(), 'testbench-judge-'))
  const path = join(dir, 'task.json')
  const expected = key.expected.map((value, index) => `{"i":${index},"s":"ok","cpu":1,"wall":1,"v":${value}}`)
  await writeFile(
    path,
    JSON.stringify({
      entryPoint: key.entryPoint,
      atol: key.atol ?? 0,
      nBase: key.nBase ?? key.inputs.length,
      inputs: `[${key.inputs.join(',')}]`,
      expected: `[${expected.join(',')}]`,
      canonicalCpuMs: key.inputs.map(() => 1),
    }),
  )
  const lines = outputs.map((output, index) =>
    typeof output === 'string'
      ? `{"i":${index},"s":"ok","cpu":1,"wall":1,"v":${output}}`
      : JSON.stringify({ i: index, cpu: 1, wall: 1, ...output }),
  )
  const done =
    outputs.length === key.inputs.length && outputs.every((output) => typeof output === 'string' || output.s === 'ok')
      ? [`{"done":${outputs.length}}`]
      : []
  const output = ['{"setup":"ok","cpu":1}', ...lines, ...done].join('\n')
  return judgeOutputs({ oracle: path, task: key.entryPoint, kind, output })
}

describe('the EvalPlus judge', () => {
  test('exact equality is Python equality: 1 == 1.0 == True, a list is not a tuple', async () => {
    const key = { entryPoint: 'f', inputs: ['[1]', '[2]'], expected: ['1', '{"T":[1,2]}'] }
    expect((await judge('humaneval', key, ['true', '{"T":[1.0,2]}'])).passed).toBe(true)
    expect((await judge('humaneval', key, ['1', '[1,2]'])).failure).toMatchObject({ index: 1, status: 'wrong' })
  })

  test('float outputs: atol 1e-6 when the task says 0, and the same type (an int for a float is wrong)', async () => {
    const key = { entryPoint: 'f', inputs: ['[1]', '[2]'], expected: ['0.5', '[0.25,0.75]'] }
    expect((await judge('humaneval', key, ['0.5000004', '[0.2500001,0.7499999]'])).passed).toBe(true)
    expect((await judge('humaneval', key, ['0.50001', '[0.25,0.75]'])).failure).toMatchObject({
      index: 0,
      status: 'wrong',
    })
    expect((await judge('humaneval', { ...key, expected: ['2.0', '[0.25,0.75]'] }, ['2', '[0.25,0.75]'])).passed).toBe(
      true,
    )
    expect(
      (await judge('humaneval', { ...key, expected: ['2.0000001', '[0.25,0.75]'] }, ['2', '[0.25,0.75]'])).failure,
    ).toMatchObject({ index: 0, status: 'wrong' })
  })

  test("HumanEval/32 (find_zero): any x with |poly(xs, x)| <= atol passes, as EvalPlus's special oracle", async () => {
    const key = { entryPoint: 'find_zero', atol: 1e-4, inputs: ['[[-6,11,-6,1]]'], expected: ['1.0'] }
    expect((await judge('humaneval', key, ['3.0'])).passed).toBe(true)
    expect((await judge('humaneval', key, ['2.5'])).passed).toBe(false)
  })

  test('Mbpp/2, 111, 579… compare as sets (EvalPlus since April 2024); elsewhere order counts', async () => {
    const key = {
      entryPoint: 'similar_elements',
      inputs: ['[{"T":[3,4,5,6]},{"T":[5,7,4,10]}]'],
      expected: ['{"T":[4,5]}'],
    }
    expect((await judge('mbpp', key, ['[5,4]'])).passed).toBe(true)
    expect((await judge('mbpp', key, ['[5]'])).passed).toBe(false)
    expect((await judge('mbpp', { ...key, entryPoint: 'other' }, ['{"T":[5,4]}'])).passed).toBe(false)
  })

  test('Mbpp/737, 787, 794: only whether the output is None counts, a bool is compared as a bool', async () => {
    const key = { entryPoint: 'check_str', inputs: ['["annie"]', '["dawood"]'], expected: ['true', 'false'] }
    expect(
      (
        await judge('mbpp', key, [
          { s: 'ok', nn: true },
          { s: 'ok', nn: false },
        ])
      ).passed,
    ).toBe(true)
    expect(
      (
        await judge('mbpp', key, [
          { s: 'ok', nn: true },
          { s: 'ok', nn: true },
        ])
      ).failure,
    ).toMatchObject({ index: 1, status: 'wrong' })
    expect((await judge('mbpp', key, ['true', 'false'])).passed).toBe(true)
  })

  test('base inputs first: a failure on a plus input keeps the base column passed', async () => {
    const key = { entryPoint: 'f', nBase: 1, inputs: ['[1]', '[2]'], expected: ['1', '2'] }
    const verdict = await judge('humaneval', key, ['1', '3'])
    expect(verdict).toMatchObject({ passed: false, basePassed: true, failure: { index: 1, status: 'wrong' } })
  })

  test('a timeout, an exception or an object the driver refused fails at that input', async () => {
    const key = { entryPoint: 'f', inputs: ['[1]', '[2]'], expected: ['1', '2'] }
    expect((await judge('humaneval', key, ['1', { s: 'timeout' }])).failure).toMatchObject({
      index: 1,
      status: 'timeout',
    })
    expect((await judge('humaneval', key, [{ s: 'error', e: 'ZeroDivisionError' }])).failure).toMatchObject({
      index: 0,
      status: 'error',
    })
    expect(
      (await judge('humaneval', key, [{ s: 'unencodable', e: 'returned an object of type __solution__.Always' }]))
        .failure,
    ).toMatchObject({ index: 0, status: 'unencodable' })
  })

  test('forged results channel: results for the wrong input, extra results, or lines that are no result fail', async () => {
    const key = { entryPoint: 'f', inputs: ['[1]'], expected: ['1'] }
    const wrongIndex = await judgeOutputsRaw(key, ['{"setup":"ok"}', '{"i":1,"s":"ok","v":1}', '{"done":1}'])
    expect(wrongIndex.failure?.status).toBe('malformed')
    const extra = await judgeOutputsRaw(key, [
      '{"setup":"ok"}',
      '{"i":0,"s":"ok","v":1}',
      '{"i":0,"s":"ok","v":1}',
      '{"done":1}',
    ])
    expect(extra.passed).toBe(false)
    const noise = await judgeOutputsRaw(key, ['PASSED', '{"setup":"ok"}', '{"i":0,"s":"ok","v":1}', '{"done":1}'])
    expect(noise.passed).toBe(false)
    const unknownTag = await judgeOutputsRaw(key, ['{"setup":"ok"}', '{"i":0,"s":"ok","v":{"Q":1}}', '{"done":1}'])
    expect(unknownTag.passed).toBe(false)
    const missing = await judgeOutputsRaw(key, ['{"setup":"ok"}'])
    expect(missing.failure?.status).toBe('missing')
  })
})

async function judgeOutputsRaw(key: Key, lines: string[]): Promise<JudgeVerdict> {
  const dir = await mkdtemp(join(tmpdir(), 'testbench-judge-'))
  const path = join(dir, 'task.json')
  const expected = key.expected.map((value, index) => `{"i":${index},"s":"ok","cpu":1,"wall":1,"v":${value}}`)
  await writeFile(
    path,
    JSON.stringify({
      entryPoint: key.entryPoint,
      atol: 0,
      nBase: key.inputs.length,
      inputs: `[${key.inputs.join(',')}]`,
      expected: `[${expected.join(',')}]`,
      canonicalCpuMs: [1],
    }),
  )
  return judgeOutputs({ oracle: path, task: key.entryPoint, kind: 'humaneval', output: lines.join('\n') })
}

test("without numpy the judge's float rule is np.allclose's, in plain Python", () => {
  // [out, expected, atol, np.allclose(out, expected, rtol=1e-7, atol=atol)]
  const cases = `[
    (0.5000004, 0.5, 1e-6, True), ([0.2500001, 0.75], [0.25, 0.75], 1e-6, True), (0.50001, 0.5, 1e-6, False),
    ([1, 2], [1.0, 2.0], 0, True), (float('inf'), float('inf'), 1e-6, True), (float('inf'), 1e308, 1e-6, False),
    (float('nan'), float('nan'), 1e-6, False), ([1.0], [1.0, 1.0], 1e-6, True), (2.0, [2.0, 2.0000001], 1e-6, True),
    ([[1.0, 2.0]], [[1.0, 2.0000001]], 1e-6, True), (1 + 1j, 1 + 1j, 1e-6, True), (True, 1.0, 1e-6, True), (1e10, 1.0001e10, 0, False),
    (1e10, 1e10 + 999, 0, True), ('x', 1.0, 1e-6, TypeError), (None, 1.0, 1e-6, TypeError), ([1.0, 2.0, 3.0], [1.0, 2.0], 1e-6, ValueError),
  ]`
  const script = `import sys
sys.modules['numpy'] = None
import close_enough
assert close_enough.numpy is None
for out, expected, atol, verdict in ${cases}:
    try:
        got = close_enough.allclose(out, expected, 1e-07, atol)
    except Exception as error:
        got = type(error)
    assert got == verdict, (out, expected, atol, got, verdict)
print('ok')`
  const ran = spawnSync(sandboxPython(), ['-B', '-E', '-s', '-c', script], {
    cwd: new URL('../../../harness/python-tasks/io/', import.meta.url).pathname,
    encoding: 'utf8',
  })
  expect(ran.stderr).toBe('')
  expect(ran.stdout).toBe('ok\n')
})
