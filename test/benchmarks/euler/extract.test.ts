import { describe, expect, test } from 'vitest'
import { extractProgram } from '../../../suites/euler/extract.ts'
import { LANGUAGES } from '../../../suites/euler/languages.ts'

const python = LANGUAGES.python

describe('extractProgram', () => {
  test('takes the largest of several fenced blocks', () => {
    const reply =
      'Try:\n```python\nprint(1)\n```\nBetter:\n```python\ntotal = sum(range(10))\nprint(total)\n```\nOutput:\n```\n45\n```'
    expect(extractProgram(reply, python)).toBe('total = sum(range(10))\nprint(total)')
  })

  test('ignores a larger block inside the reasoning', () => {
    const reply =
      '<think>\n```python\n# a long draft that is wrong\nprint(sum(range(11)))\n```\n</think>\n```python\nprint(45)\n```'
    expect(extractProgram(reply, python)).toBe('print(45)')
  })

  test('keeps only the solution section of <|begin_of_solution|> replies', () => {
    const reply =
      '<|begin_of_thought|>\n```python\nprint("draft draft draft")\n```\n<|end_of_thought|>\n<|begin_of_solution|>\n```python\nprint(45)\n```\n<|end_of_solution|>'
    expect(extractProgram(reply, python)).toBe('print(45)')
  })

  test('drops a first line that is only the language tag', () => {
    expect(extractProgram('```\npython\nprint(45)\n```', python)).toBe('print(45)')
    expect(extractProgram('```\nrust\nfn main() {}\n```', LANGUAGES.rust)).toBe('fn main() {}')
  })

  test('falls back to the whole reply when it has no fenced block', () => {
    expect(extractProgram('print(sum(range(10)))\n', python)).toBe('print(sum(range(10)))')
    expect(extractProgram('python\nprint(45)', python)).toBe('print(45)')
  })

  test('an unclosed fence runs to the end of the reply', () => {
    expect(extractProgram('Here it is:\n```python\nprint(45)\n', python)).toBe('print(45)')
  })

  test('keeps the indentation of the first line', () => {
    expect(extractProgram('```python\n\n    x = 1\n```', python)).toBe('    x = 1')
  })

  test('nothing to run is no answer', () => {
    expect(extractProgram('', python)).toBeUndefined()
    expect(extractProgram('  \n', python)).toBeUndefined()
    expect(extractProgram('<think>I cannot solve this</think>', python)).toBeUndefined()
    expect(extractProgram('```python\n```', python)).toBeUndefined()
  })
})
