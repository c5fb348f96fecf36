import { describe, expect, test } from 'vitest'
import { parseAnswer } from '../../../suites/farel/answer.ts'

describe('parseAnswer: the first <ANSWER> tag on one line, trimmed', () => {
  test.for([
    ['<ANSWER>2</ANSWER>', '2'],
    ['Thinking... so <ANSWER>3</ANSWER>. Wait, no: <ANSWER>1</ANSWER>', '3'],
    ['<ANSWER> 2 </ANSWER>', '2'],
    ['<ANSWER>\t4\t</ANSWER>.', '4'],
    ['The answer is 2.', undefined],
    ['', undefined],
    ['<ANSWER>\n2\n</ANSWER>', undefined],
    ['<ANSWER>\n2</ANSWER> then <ANSWER>3</ANSWER>', '3'],
    ['<ANSWER>2\r\n</ANSWER>', undefined],
    ['<ANSWER></ANSWER>', ''],
    ["<ANSWER>2. Anthony is Ralph's child</ANSWER>", "2. Anthony is Ralph's child"],
    ['<answer>2</answer>', undefined],
    ['<think>maybe <ANSWER>1</ANSWER>?</think>No: <ANSWER>2</ANSWER>', '2'],
  ] as const)('%j → %j', ([reply, expected]) => {
    expect(parseAnswer(reply)).toBe(expected)
  })
})

describe('parseAnswer with TESTBENCH_FAREL_PARSE=tag-or-boxed: the last <ANSWER>N</ANSWER>, else the last \\boxed{N}', () => {
  test.for([
    ['<ANSWER>2</ANSWER>', '2'],
    ['Put it in <ANSWER> tags, like <ANSWER>1</ANSWER>. So: <ANSWER>3</ANSWER>', '3'],
    ['<ANSWER></ANSWER> then <ANSWER> 2 </ANSWER>', '2'],
    ['<ANSWER>2. a child</ANSWER>', undefined],
    ['**Final Answer**\n\n\\[ \\boxed{3} \\]', '3'],
    ['\\boxed{1} or \\boxed{2}', '2'],
    ['\\boxed{ 4 }', '4'],
    ['\\boxed{\\text{2}}', undefined],
    ['\\boxed{\\text{None of the above}}', undefined],
    ['<ANSWER>1</ANSWER> and \\boxed{2}', '1'],
    ['<think>\\boxed{1}</think>\\boxed{2}', '2'],
    ['The answer is 2.', undefined],
  ] as const)('%j → %j', ([reply, expected]) => {
    expect(parseAnswer(reply, 'tag-or-boxed')).toBe(expected)
  })
})

test('a reasoning section is dropped before the tag is read (farel-bench reads the whole reply: a deviation no published log shows)', () => {
  expect(parseAnswer('<think>Option 1? <ANSWER>1</ANSWER></think>Option 2. <ANSWER>2</ANSWER>')).toBe('2')
})
