import { describe, expect, test } from 'vitest'
import { parsePythonStringList } from '../../../suites/bigcodebench/python-literal.ts'

describe('parsePythonStringList (the libs field)', () => {
  test('reads repr-style lists with either quote, spaces and a trailing comma', () => {
    expect(parsePythonStringList("['random', 'itertools']")).toEqual(['random', 'itertools'])
    expect(parsePythonStringList('["pandas","numpy",]')).toEqual(['pandas', 'numpy'])
    expect(parsePythonStringList("  [ 'a' ,\n 'b' ]  ")).toEqual(['a', 'b'])
    expect(parsePythonStringList('[]')).toEqual([])
    expect(parsePythonStringList("('sklearn',)")).toEqual(['sklearn'])
  })

  test('understands Python escapes, and raw strings keep them', () => {
    expect(parsePythonStringList(String.raw`['it\'s', "say \"hi\"", 'tab\there', '\x41\u00e9\101']`)).toEqual([
      "it's",
      'say "hi"',
      'tab\there',
      'AéA',
    ])
    expect(parsePythonStringList(String.raw`[r'\d+\n']`)).toEqual([String.raw`\d+\n`])
    expect(parsePythonStringList(String.raw`['\q']`)).toEqual([String.raw`\q`])
  })

  test('rejects what is not a list of strings, saying where', () => {
    expect(() => parsePythonStringList("'random'")).toThrow(/expected "\[" or "\(" to open the list at character 0/)
    expect(() => parsePythonStringList("['a' 'b']")).toThrow(/expected "," or "\]"/)
    expect(() => parsePythonStringList("['a', 3]")).toThrow(/expected a string literal at character 6/)
    expect(() => parsePythonStringList("['a")).toThrow(/unterminated string literal/)
    expect(() => parsePythonStringList("['a'] x")).toThrow(/expected the end after the list/)
    expect(() => parsePythonStringList(String.raw`['\x4']`)).toThrow(/bad \\x escape/)
  })
})
