import { describe, expect, test } from 'vitest'
import { dropLanguageTagLine, fencedBlocks, largestBlock, stripReasoning } from '../../harness/extract-code.ts'

describe('stripReasoning', () => {
  test('drops a <think> section and keeps what follows it', () => {
    expect(stripReasoning('<think>try print(1)</think>\nThe program:\n```python\nprint(2)\n```')).toBe(
      '\nThe program:\n```python\nprint(2)\n```',
    )
  })

  test('drops everything up to the closing tag when the provider removed the opening one', () => {
    expect(stripReasoning('so 5 is wrong\n```python\nprint(5)\n```\n</think>\nanswer')).toBe('\nanswer')
  })

  test('drops up to the last closing tag of each kind, whatever the tag', () => {
    expect(stripReasoning('<thinking>a</thinking> b <reasoning>c</reasoning> d <think>e</think>f')).toBe('f')
  })

  test('keeps only the inside of <|begin_of_solution|>…<|end_of_solution|>', () => {
    expect(stripReasoning('thoughts <|begin_of_solution|>the code<|end_of_solution|> trailer')).toBe('the code')
  })

  test('an unclosed solution section runs to the end', () => {
    expect(stripReasoning('<|begin_of_solution|>code')).toBe('code')
  })

  test('a reply without reasoning is unchanged', () => {
    expect(stripReasoning('print(1)')).toBe('print(1)')
  })
})

describe('fencedBlocks', () => {
  test('finds several blocks in order, with their lower-cased language tags', () => {
    const reply = 'First:\n```Python\nx = 1\n```\ntext\n~~~rust\nfn main() {}\n~~~\nand\n```\nplain\n```'
    expect(fencedBlocks(reply)).toEqual([
      { language: 'python', code: 'x = 1' },
      { language: 'rust', code: 'fn main() {}' },
      { language: '', code: 'plain' },
    ])
  })

  test('a reply with no fence has no blocks', () => {
    expect(fencedBlocks('print(233168)\n')).toEqual([])
  })

  test('an unclosed fence runs to the end of the reply', () => {
    expect(fencedBlocks('Here:\n```python\nprint(1)\nprint(2)')).toEqual([
      { language: 'python', code: 'print(1)\nprint(2)' },
    ])
  })

  test('a shorter fence inside a longer one does not close it', () => {
    expect(fencedBlocks('````markdown\n```python\nprint(1)\n```\n````')).toEqual([
      { language: 'markdown', code: '```python\nprint(1)\n```' },
    ])
  })

  test('indented fences and CRLF line ends are understood', () => {
    expect(fencedBlocks('  ```js\r\nconsole.log(1)\r\n  ```\r\n')).toEqual([{ language: 'js', code: 'console.log(1)' }])
  })
})

describe('largestBlock', () => {
  test('takes the longest code of several blocks', () => {
    const blocks = fencedBlocks('```\nshort\n```\n```python\nthe longest one\n```\n```\nmiddle\n```')
    expect(largestBlock(blocks)).toBe('the longest one')
  })

  test('is undefined when there is no block', () => {
    expect(largestBlock([])).toBeUndefined()
  })

  test('the first of equally long blocks wins', () => {
    expect(
      largestBlock([
        { language: '', code: 'aaa' },
        { language: '', code: 'bbb' },
      ]),
    ).toBe('aaa')
  })
})

describe('dropLanguageTagLine', () => {
  test('drops a first line that is only a language tag', () => {
    expect(dropLanguageTagLine('python\nprint(1)', ['python', 'py'])).toBe('print(1)')
  })

  test('matches the tag whatever its case and surrounding space', () => {
    expect(dropLanguageTagLine('  Rust \nfn main() {}', ['rust'])).toBe('fn main() {}')
  })

  test('keeps a first line that is code', () => {
    expect(dropLanguageTagLine('print(1)\npython', ['python'])).toBe('print(1)\npython')
  })

  test('keeps a tag of another language', () => {
    expect(dropLanguageTagLine('java\nclass Main {}', ['python'])).toBe('java\nclass Main {}')
  })
})
