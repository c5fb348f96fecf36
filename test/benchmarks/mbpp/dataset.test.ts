import { describe, expect, test } from 'vitest'
import {
  MBPP_FILES,
  MBPP_STOP,
  loadMbpp,
  mbppEntryPoint,
  mbppPlusTask,
  mbppRow,
  mbppTask,
  sanitizedRow,
} from '../../../suites/mbpp/dataset.ts'
import { datasetOrSkip } from '../../support/test-datasets.ts'

/** Made-up rows in MBPP's formats (with its \r\n line ends). */
const SHOT = {
  task_id: 2,
  text: 'Write a function to double a number.',
  code: 'def double(n):\r\n  return 2 * n',
  test_setup_code: '',
  test_list: ['assert double(2) == 4', 'assert double(0) == 0', 'assert double(-1) == -2'],
  challenge_test_list: [],
}
const ROW = {
  task_id: 42,
  text: 'Write a function to count the leaves of a tree.',
  code: 'class Node:\r\n  def __init__(self, kids=()):\r\n    self.kids = list(kids)\r\ndef _walk(node):\r\n  return [node] + [n for k in node.kids for n in _walk(k)]\r\ndef count_leaves(root):\r\n  return sum(1 for n in _walk(root) if not n.kids)',
  test_setup_code: 'tree = Node([Node(), Node([Node()])])',
  test_list: [
    'assert count_leaves(tree) == 2',
    'assert count_leaves(Node()) == 1',
    'assert count_leaves(Node([Node()])) == 1',
  ],
  challenge_test_list: ['assert count_leaves(Node([Node(), Node()])) == 2'],
}

describe('mbppTask', () => {
  const task = mbppTask(mbppRow(ROW, 'row'), [mbppRow(SHOT, 'shot')])

  test("the chat prompt is the paper's: the task, then the three asserts", () => {
    expect(task.chatPrompt).toMatch(
      /^You are an expert Python programmer, and here is your task: Write a function to count the leaves of a tree\. Your code should pass these tests:\n\nassert count_leaves\(tree\) == 2\nassert count_leaves\(Node\(\)\) == 1\nassert count_leaves\(Node\(\[Node\(\)\]\)\) == 1\n/,
    )
  })

  test('completion is few-shot [BEGIN] … [DONE], and the program is the completion alone', () => {
    expect(task.completionPrompt).toBe(
      `You are an expert Python programmer, and here is your task: ${SHOT.text} Your code should pass these tests:\n\n${SHOT.test_list.join('\n')}\n[BEGIN]\ndef double(n):\n  return 2 * n\n[DONE]\n` +
        `You are an expert Python programmer, and here is your task: ${ROW.text} Your code should pass these tests:\n\n${ROW.test_list.join('\n')}\n[BEGIN]\n`,
    )
    expect(task.stop).toEqual(MBPP_STOP)
    expect(task.completionPrefix).toBe('')
  })

  test('\\r\\n become \\n; the check is the reference as prelude, the setup code, then the asserts, without the challenge tests', () => {
    expect(task.reference).not.toContain('\r')
    expect(task.judge).toEqual({
      check: { prelude: ROW.code.replaceAll('\r\n', '\n'), setup: ROW.test_setup_code, test: ROW.test_list.join('\n') },
    })
    expect(JSON.stringify(task.judge)).not.toContain('Node(), Node()]')
  })

  test('the entry point is the defined function the tests call, not a helper or class', () => {
    expect(task.entryPoint).toBe('count_leaves')
    expect(task.id).toBe('Mbpp/42')
    expect(() => mbppEntryPoint({ ...mbppRow(ROW, 'row'), tests: ['assert True'] })).toThrow(
      'Mbpp/42: none of the functions its reference defines (_walk, count_leaves) is called by its tests.',
    )
  })

  test('sanitized rows bring their test imports', () => {
    const row = sanitizedRow(
      {
        task_id: 12,
        prompt: 'Find the root.',
        code: 'import math\ndef root(x):\n  return math.sqrt(x)',
        test_imports: ['import math'],
        test_list: ['assert math.isclose(root(2), 1.4142, rel_tol=0.001)'],
      },
      'row',
    )
    const sanitized = mbppTask(row, [])
    expect(sanitized.judge).toMatchObject({
      check: { setup: '', test: 'import math\nassert math.isclose(root(2), 1.4142, rel_tol=0.001)' },
    })
    expect(sanitized.preamble).toBe('import math')
  })
})

describe('mbppPlusTask', () => {
  test("EvalPlus's prompt from the native file, judged by inputs and outputs from the same file, with nothing added before the solution", () => {
    const native = {
      task_id: 'Mbpp/9',
      prompt: '"""\nWrite a function to triple.\nassert triple(1) == 3\n"""\n',
      entry_point: 'triple',
      canonical_solution: '\ndef triple(n):\n  return 3 * n\n',
    }
    const task = mbppPlusTask(native, 'row', MBPP_FILES.plus)
    expect(task).toMatchObject({
      id: 'Mbpp/9',
      entryPoint: 'triple',
      preamble: '',
      completionPrefix: native.prompt,
      judge: { io: { kind: 'mbpp', file: MBPP_FILES.plus } },
    })
    expect(task.chatPrompt).toContain('Write a function to triple.')
    expect(task.reference).toBe('```python\ndef triple(n):\n  return 3 * n\n```\n')
  })
})

describe('the real files', () => {
  test('the MBPP test split is task ids 11–510, with the fixed task 341', async (context) => {
    const tasks = await datasetOrSkip(context, (env) => loadMbpp('mbpp', env))
    expect(tasks.map((task) => task.id)).toEqual(Array.from({ length: 500 }, (_, index) => `Mbpp/${index + 11}`))
    expect(tasks.find((task) => task.id === 'Mbpp/341')?.reference).toContain('sorted(s)')
    expect(tasks.every((task) => !task.reference.includes('\r'))).toBe(true)
  })

  test('sanitized: the 257 test-split tasks; MBPP+ v0.2.0: 378 tasks; v0.1.0: 399', async (context) => {
    const [sanitized, plus, plusV010] = await datasetOrSkip(context, (env) =>
      Promise.all([loadMbpp('mbpp-sanitized', env), loadMbpp('mbpp+', env), loadMbpp('mbpp+v0.1.0', env)]),
    )
    expect(sanitized).toHaveLength(257)
    expect(plus).toHaveLength(378)
    expect(plus[0]?.id).toBe('Mbpp/2')
    expect(plusV010).toHaveLength(399)
    expect(plusV010.every((task) => 'io' in task.judge && task.judge.io.file === MBPP_FILES.plusV010)).toBe(true)
  })
})
