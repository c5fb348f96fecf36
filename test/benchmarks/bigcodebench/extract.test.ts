import { describe, expect, test } from 'vitest'
import type { BigCodeBenchTask } from '../../../suites/bigcodebench/dataset.ts'
import { indentedBody, solutionFrom } from '../../../suites/bigcodebench/extract.ts'

const COMPLETE_PROMPT = 'import math\n\ndef task_func(x):\n    """\n    Square root of x, rounded.\n    """\n'
const task = { completePrompt: COMPLETE_PROMPT, entryPoint: 'task_func' } as BigCodeBenchTask

describe('solutionFrom', () => {
  test('the calibrated rule: a fenced block that starts with an indented body gets the complete prompt in front', () => {
    const reply = 'Here it is:\n```python\n    return round(math.sqrt(x))\n```\n'
    expect(solutionFrom(task, { text: reply }, 'chat')).toEqual({
      code: `${COMPLETE_PROMPT}    return round(math.sqrt(x))`,
      from: 'complete prompt + indented body',
    })
  })

  test('a whole function in the reply is taken as it is, the last block that defines the entry point winning', () => {
    const reply =
      '```python\ndef task_func(x):\n    return 0\n```\nFixed:\n```python\nimport math\ndef task_func(x):\n    return round(math.sqrt(x))\n```\n```python\nprint(task_func(4))\n```'
    expect(solutionFrom(task, { text: reply }, 'chat')).toEqual({
      code: 'import math\ndef task_func(x):\n    return round(math.sqrt(x))',
      from: 'entry-point block',
    })
  })

  test('completions continue the complete prompt; replayed solutions are whole programs; empty replies hold nothing', () => {
    expect(solutionFrom(task, { text: '    return 1\n', form: 'completion' }, 'chat')?.code).toBe(
      `${COMPLETE_PROMPT}    return 1\n`,
    )
    expect(solutionFrom(task, { text: '    return 1\n' }, 'completion')?.from).toBe('prompt + completion')
    expect(solutionFrom(task, { text: 'def task_func(x): pass', form: 'solution' }, 'chat')).toEqual({
      code: 'def task_func(x): pass',
      from: 'whole program',
    })
    expect(solutionFrom(task, { text: '  ' }, 'chat')).toBeUndefined()
    expect(solutionFrom(task, { text: 'I cannot help with that.' }, 'chat')).toBeUndefined()
  })
})

describe('indentedBody', () => {
  test('only the first python or untagged block counts, and only when its first code line is indented', () => {
    expect(indentedBody('```\n\n\treturn 1\n```')).toBe('\n\treturn 1')
    expect(indentedBody('```bash\n  ls\n```\n```python\ndef f():\n    pass\n```')).toBeUndefined()
    expect(indentedBody('```python\nimport os\n    x = 1\n```')).toBeUndefined()
    expect(indentedBody('no code')).toBeUndefined()
  })
})
