import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { csvLine, pythonRepr, toCsv } from '../../../suites/farel/python-csv.ts'
import { DEFAULT_TEMPLATE, generateQuizzes, PUBLISHED_SET } from '../../../suites/farel/quiz.ts'

/** The published set as `farel_bench.py -l 3 -n 50 -r 42 --shuffle` prints it. */
const PUBLISHED_MD5 = '0b08876d7a221c9b9812ea85d746449a'
const FIRST_LINE =
  `1,child,1,"Given the family relationships:\\n* Ralph is Anthony's parent.\\n* Albert is Ralph's parent.\\n` +
  `What is Anthony's relationship to Ralph?\\nSelect the correct answer:\\n1. Anthony is Ralph's child.\\n` +
  `2. Anthony is Ralph's parent.\\nEnclose the selected answer number in the <ANSWER> tag, for example: <ANSWER>1</ANSWER>."`

describe('the python-compat set is the published one, byte for byte', () => {
  const csv = toCsv(generateQuizzes(PUBLISHED_SET))

  test('450 lines, each ending in a line break, the first as published', () => {
    const lines = csv.split('\n')
    expect(lines.pop()).toBe('')
    expect(lines).toHaveLength(450)
    expect(lines[0]).toBe(FIRST_LINE)
  })

  test(`md5 of the whole file is ${PUBLISHED_MD5}`, () => {
    expect(createHash('md5').update(csv).digest('hex')).toBe(PUBLISHED_MD5)
  })

  test('a different seed or the seedrandom mode draws another set', () => {
    const md5 = (text: string) => createHash('md5').update(text).digest('hex')
    expect(md5(toCsv(generateQuizzes({ ...PUBLISHED_SET, seed: 43n })))).not.toBe(PUBLISHED_MD5)
    expect(md5(toCsv(generateQuizzes({ ...PUBLISHED_SET, mode: 'seedrandom' })))).not.toBe(PUBLISHED_MD5)
  })

  test('levels and classes run in the original order, 50 each', () => {
    const classes = [
      ...new Set(
        csv
          .trimEnd()
          .split('\n')
          .map((line) => line.split(',').slice(0, 2).join(',')),
      ),
    ]
    expect(classes).toEqual([
      '1,child',
      '1,parent',
      '2,grandchild',
      '2,sibling',
      '2,grandparent',
      '3,great grandchild',
      '3,niece or nephew',
      '3,aunt or uncle',
      '3,great grandparent',
    ])
  })
})

describe('pythonRepr is repr(str)', () => {
  const cases = JSON.parse(
    readFileSync(new URL('../../../fixtures/farel/python-repr.json', import.meta.url), 'utf8'),
  ) as Array<[string, string]>

  test.for(cases)('repr(%j)', ([text, repr]) => {
    expect(pythonRepr(text)).toBe(repr)
  })

  test('a CSV line is level,class,correct,repr', () => {
    const quiz = {
      length: 2,
      relation: 'sibling',
      rank: 1,
      index: 1,
      options: [],
      correct: 3,
      prompt: DEFAULT_TEMPLATE,
    }
    expect(csvLine(quiz)).toBe(`2,sibling,3,'${DEFAULT_TEMPLATE.replaceAll('\n', '\\n')}'`)
  })
})
