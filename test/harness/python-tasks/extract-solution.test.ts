import { describe, expect, test } from 'vitest'
import {
  extractSolution,
  solutionFrom,
  withImports,
  withoutMainGuard,
} from '../../../harness/python-tasks/extract-solution.ts'
import type { PythonTask } from '../../../harness/python-tasks/python-task.ts'

const SOLUTION = 'def add(a, b):\n    return a + b'

describe('extractSolution', () => {
  test('prose around one fenced block', () => {
    const reply = `Sure! Here is the function:\n\n\`\`\`python\n${SOLUTION}\n\`\`\`\n\nIt adds the two numbers and returns the sum.`
    expect(extractSolution(reply, 'add')).toEqual({ code: SOLUTION, from: 'entry-point block' })
  })

  test('several blocks: the one that defines the entry point, not the larger usage example', () => {
    const usage = 'print(add(1, 2))\nprint(add(3, 4))\nprint(add(5, 6))\nprint(add(7, 8))\nprint(add(9, 10))'
    const reply = `First the helper:\n\`\`\`python\n${SOLUTION}\n\`\`\`\nUsage:\n\`\`\`python\n${usage}\n\`\`\``
    expect(extractSolution(reply, 'add')?.code).toBe(SOLUTION)
  })

  test('a first try and a correction: the last block that defines the entry point', () => {
    const wrong = 'def add(a, b):\n    return a - b'
    const reply = `\`\`\`python\n${wrong}\n\`\`\`\nOops, that subtracts. Corrected:\n\`\`\`python\n${SOLUTION}\n\`\`\``
    expect(extractSolution(reply, 'add')?.code).toBe(SOLUTION)
  })

  test('a block with tests in it is kept whole, and its __main__ demo is dropped', () => {
    const block = `${SOLUTION}\n\n\nassert add(1, 2) == 3\n\nif __name__ == "__main__":\n    x = int(input())\n    print(add(x, x))\n`
    const reply = `Here you go, with a quick test:\n\`\`\`py\n${block}\`\`\``
    expect(extractSolution(reply, 'add')?.code).toBe(`${SOLUTION}\n\n\nassert add(1, 2) == 3`)
  })

  test('a separate block of tests does not replace the solution', () => {
    const tests =
      'import unittest\n\nclass TestAdd(unittest.TestCase):\n    def test_small(self):\n        self.assertEqual(add(1, 2), 3)\n\nunittest.main()'
    const reply = `\`\`\`python\n${SOLUTION}\n\`\`\`\nAnd the tests:\n\`\`\`python\n${tests}\n\`\`\``
    expect(extractSolution(reply, 'add')?.code).toBe(SOLUTION)
  })

  test('no block defines the entry point: the largest Python block', () => {
    const small = 'x = 1'
    const large = 'def plus(a, b):\n    return a + b\n\nadd = plus'
    const reply = `\`\`\`python\n${small}\n\`\`\`\n\`\`\`\n${large}\n\`\`\`\n\`\`\`bash\npip install nothing-at-all-here-and-longer\n\`\`\``
    expect(extractSolution(reply, 'add')).toEqual({ code: large, from: 'largest block' })
  })

  test('no block: the whole reply when it is code', () => {
    expect(extractSolution(`${SOLUTION}\n`, 'add')).toEqual({ code: SOLUTION, from: 'whole reply' })
  })

  test('no block and no code: nothing', () => {
    expect(extractSolution('I cannot help with that, but addition is commutative.', 'add')).toBeUndefined()
    expect(extractSolution('', 'add')).toBeUndefined()
  })

  test('reasoning is dropped before looking for blocks', () => {
    const reply = `<think>Maybe \`\`\`python\ndef add(a, b):\n    return 0\n\`\`\`? No.</think>\n\`\`\`python\n${SOLUTION}\n\`\`\``
    expect(extractSolution(reply, 'add')?.code).toBe(SOLUTION)
  })

  test('a language tag line inside the fence is dropped', () => {
    expect(extractSolution(`\`\`\`\npython\n${SOLUTION}\n\`\`\``, 'add')?.code).toBe(SOLUTION)
  })

  test('an entry point that only appears as a call does not count as defined', () => {
    const reply = `\`\`\`python\nresult = add(1, 2)\n\`\`\`\n\`\`\`python\ndef add_all(xs):\n    return sum(xs)\n\`\`\``
    expect(extractSolution(reply, 'add')).toEqual({
      code: 'def add_all(xs):\n    return sum(xs)',
      from: 'largest block',
    })
  })
})

describe('withImports', () => {
  test("puts the prompt's imports the solution lacks before it", () => {
    const preamble = 'from typing import List\nimport math'
    expect(withImports('import math\n\ndef f(xs: List[int]):\n    return math.fsum(xs)', preamble)).toBe(
      'from typing import List\n\nimport math\n\ndef f(xs: List[int]):\n    return math.fsum(xs)',
    )
  })

  test('leaves a solution alone that has them all', () => {
    expect(withImports('from typing import List\ndef f(): pass', 'from typing import List')).toBe(
      'from typing import List\ndef f(): pass',
    )
  })
})

describe('withoutMainGuard', () => {
  test('keeps code after the guard', () => {
    expect(withoutMainGuard("def f():\n    pass\nif __name__ == '__main__':\n    f()\n\n    f()\nx = 1")).toBe(
      'def f():\n    pass\nx = 1',
    )
  })
})

const TASK: PythonTask = {
  id: 'Toy/0',
  title: 'add',
  entryPoint: 'add',
  chatPrompt: 'Write add.',
  completionPrompt: 'def add(a, b):\n    """Adds."""\n',
  stop: ['\ndef'],
  completionPrefix: 'def add(a, b):\n    """Adds."""\n',
  preamble: '',
  judge: { check: { prelude: SOLUTION, setup: '', test: 'assert add(1, 2) == 3' } },
  reference: `\`\`\`python\n${SOLUTION}\n\`\`\``,
}

describe('solutionFrom', () => {
  test('a replayed completion continues the prompt', () => {
    expect(solutionFrom(TASK, { text: '    return a + b\n', form: 'completion' }, 'chat')).toEqual({
      code: 'def add(a, b):\n    """Adds."""\n    return a + b\n',
      from: 'prompt + completion',
    })
  })

  test('a replayed solution is the whole program', () => {
    expect(solutionFrom(TASK, { text: SOLUTION, form: 'solution' }, 'chat')).toEqual({
      code: SOLUTION,
      from: 'whole program',
    })
  })

  test('completion mode: a base model continuation follows the prompt', () => {
    expect(solutionFrom(TASK, { text: '    return a + b' }, 'completion')?.code).toBe(
      'def add(a, b):\n    """Adds."""\n    return a + b',
    )
  })

  test('completion mode: a fenced whole function (an instruction model, or MODEL=reference) is taken as is', () => {
    expect(solutionFrom(TASK, { text: TASK.reference }, 'completion')).toEqual({
      code: SOLUTION,
      from: 'entry-point block',
    })
  })

  test('chat mode extracts; an empty reply has no solution', () => {
    expect(solutionFrom(TASK, { text: TASK.reference, form: 'reply' }, 'chat')?.code).toBe(SOLUTION)
    expect(solutionFrom(TASK, { text: '  \n', form: 'completion' }, 'chat')).toBeUndefined()
  })
})
