import { describe, expect, test } from 'vitest'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { HUMANEVAL_STOP, TEST_FIXES, humanEvalTask, loadHumanEval } from '../../../suites/humaneval/dataset.ts'
import { extractSolution } from '../../../harness/python-tasks/extract-solution.ts'
import { runTests } from '../../../harness/python-tasks/run-tests.ts'
import { withDatasets } from '../../support/test-datasets.ts'

const SHARED = withDatasets()

/** A made-up row in HumanEval's format. */
const ROW = {
  task_id: 'Toy/7',
  prompt: 'from typing import List\nimport math\n\n\ndef norm(xs: List[float]) -> float:\n    """Euclidean norm.\n    >>> norm([3.0, 4.0])\n    5.0\n    """\n',
  canonical_solution: '    return math.sqrt(sum(x * x for x in xs))\n',
  test: '\n\ndef check(candidate):\n    assert candidate([3.0, 4.0]) == 5.0\n    assert candidate([]) == 0.0\n',
  entry_point: 'norm',
}

describe('humanEvalTask', () => {
  const task = humanEvalTask(ROW, 'toy row 1')

  test('the chat prompt holds the signature and docstring, not the hidden tests', () => {
    expect(task.chatPrompt).toContain('def norm(xs: List[float]) -> float:')
    expect(task.chatPrompt).toMatch(/^Please provide a self-contained Python script/)
    expect(task.chatPrompt).not.toContain('check(')
    expect(task.chatPrompt).not.toContain('candidate([])')
  })

  test('completion continues the raw prompt with the usual stops', () => {
    expect(task.completionPrompt).toBe(ROW.prompt)
    expect(task.completionPrefix).toBe(ROW.prompt)
    expect(task.stop).toEqual(HUMANEVAL_STOP)
  })

  test('the tests end with the checker call, the preamble has the prompt imports, the reference is the whole fenced function', () => {
    expect(task.tests.endsWith('check(norm)')).toBe(true)
    expect(task.preamble).toBe('from typing import List\nimport math')
    expect(task.reference).toBe(`\`\`\`python\n${(ROW.prompt + ROW.canonical_solution).trim()}\n\`\`\`\n`)
    expect(task).toMatchObject({ id: 'Toy/7', title: 'norm', entryPoint: 'norm' })
  })

  test('a row without a field is an error naming the row and the field', () => {
    expect(() => humanEvalTask({ ...ROW, entry_point: 3 }, 'toy row 1')).toThrow('toy row 1: field "entry_point" should be a string, found a number.')
  })
})

describe('the real files', () => {
  test('HumanEval has 164 tasks, HumanEval/0 … HumanEval/163', async () => {
    const tasks = await loadHumanEval('humaneval', SHARED)
    expect(tasks.map((task) => task.id)).toEqual(Array.from({ length: 164 }, (_, index) => `HumanEval/${index}`))
    expect(tasks.every((task) => task.tests.endsWith(`check(${task.entryPoint})`))).toBe(true)
  })

  test('HumanEval+ has the same 164 tasks, with much larger tests and HumanEval/32 fixed', async () => {
    const [base, plus] = await Promise.all([loadHumanEval('humaneval', SHARED), loadHumanEval('humaneval+', SHARED)])
    expect(plus.map((task) => task.id)).toEqual(base.map((task) => task.id))
    const size = (tasks: typeof base) => tasks.reduce((sum, task) => sum + task.tests.length, 0)
    expect(size(plus)).toBeGreaterThan(20 * size(base))
    const fix = TEST_FIXES['humaneval+']['HumanEval/32']
    const findZero = plus.find((task) => task.id === 'HumanEval/32')
    expect(findZero?.tests).toContain(fix?.right)
    expect(findZero?.tests).not.toContain(fix?.wrong)
  })

  test('the fixed HumanEval+/32 check passes the canonical find_zero and fails a wrong one', { timeout: 60_000 }, async () => {
    const task = (await loadHumanEval('humaneval+', SHARED)).find((candidate) => candidate.id === 'HumanEval/32')
    if (task === undefined) throw new Error('HumanEval/32 is missing')
    const policy = { floorMs: 10_000, inputFloorMs: 1000, factor: 4, memoryBytes: 1024 ** 3, cacheDir: await mkdtemp(join(tmpdir(), 'testbench-times-')) }
    const canonical = await runTests(task, extractSolution(task.reference, task.entryPoint)?.code ?? '', policy)
    expect(canonical.outcome, canonical.output).toBe('passed')
    const wrong = await runTests(task, 'def find_zero(xs):\n    return 0.5', policy)
    expect(wrong.outcome, wrong.output).toBe('wrong_answer')
  })
})
