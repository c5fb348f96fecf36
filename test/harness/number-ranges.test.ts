import { describe, expect, test } from 'vitest'
import { parseNumberRanges } from '../../harness/number-ranges.ts'

describe('parseNumberRanges', () => {
  test('reads numbers and ranges, ascending, each once', () => {
    expect(parseNumberRanges('X', '10-12, 3,11')).toEqual([3, 10, 11, 12])
  })

  test.each([
    ['5-2', /X=5-2: the range "5-2" runs backwards/],
    ['x', /X=x: "x" is not a number or a range/],
    ['1,,2', /"" is not a number or a range/],
    ['0-3', /numbers start at 1, not 0/],
  ])('%s is refused with what is wrong', (value, message) => {
    expect(() => parseNumberRanges('X', value, 1)).toThrow(message)
  })
})
