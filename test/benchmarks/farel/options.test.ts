import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { describeSet, farelOptions, isPublishedSet } from '../../../suites/farel/options.ts'
import { DEFAULT_SYSTEM_PROMPT, DEFAULT_TEMPLATE, generateQuizzes } from '../../../suites/farel/quiz.ts'

const dir = mkdtempSync(join(tmpdir(), 'farel-options-'))
function file(name: string, text: string): string {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

describe('farelOptions', () => {
  test('the defaults draw the published set, without a system prompt', () => {
    const options = farelOptions({})
    expect(options).toEqual({
      length: 3,
      perClass: 50,
      seed: 42n,
      mode: 'python-compat',
      shuffle: true,
      template: DEFAULT_TEMPLATE,
      templateSource: 'default',
      systemSource: 'none',
      parse: 'tag',
    })
    expect(isPublishedSet(options)).toBe(true)
    expect(describeSet(options)).toBe('python-compat seed 42, 50 per class, shuffled')
  })

  test('every knob is read', () => {
    const options = farelOptions({
      TESTBENCH_FAREL_LENGTH: '5',
      TESTBENCH_FAREL_PER_CLASS: '7',
      TESTBENCH_FAREL_SEED: '-12345678901234567890',
      TESTBENCH_FAREL_MODE: 'seedrandom',
      TESTBENCH_FAREL_SHUFFLE: 'off',
      TESTBENCH_FAREL_SYSTEM: 'on',
      TESTBENCH_FAREL_PARSE: 'tag-or-boxed',
    })
    expect(options).toMatchObject({
      length: 5,
      perClass: 7,
      seed: -12345678901234567890n,
      mode: 'seedrandom',
      shuffle: false,
      parse: 'tag-or-boxed',
    })
    expect(options.system).toBe(DEFAULT_SYSTEM_PROMPT)
    expect(options.systemSource).toBe('default')
    expect(isPublishedSet(options)).toBe(false)
  })

  test('a template file and a system prompt file', () => {
    const template = file(
      'template.txt',
      'Family:\n$QUIZ_RELATIONS\nQ: $QUIZ_QUESTION\n$QUIZ_ANSWERS\nAnswer in <ANSWER></ANSWER>.\n',
    )
    const system = file('system.txt', 'Be careful.\n')
    const options = farelOptions({
      TESTBENCH_FAREL_TEMPLATE: template,
      TESTBENCH_FAREL_SYSTEM_FILE: system,
      TESTBENCH_FAREL_PER_CLASS: '1',
    })
    expect(options.template.endsWith('Answer in <ANSWER></ANSWER>.')).toBe(true)
    expect(options.templateSource).toBe('custom')
    expect(options).toMatchObject({ system: 'Be careful.', systemSource: 'custom' })
    const [quiz] = generateQuizzes(options)
    expect(quiz!.prompt).toMatch(
      /^Family:\n\* \w+ is \w+'s? parent\.\n\* .*\nQ: What is .*\?\n1\. .*\n2\. .*\nAnswer in <ANSWER><\/ANSWER>\.$/,
    )
  })

  test.for([
    [
      { TESTBENCH_FAREL_LENGTH: '0' },
      /TESTBENCH_FAREL_LENGTH=0 is not accepted: use a whole number from 1 to 12, or unset it for 3\./,
    ],
    [{ TESTBENCH_FAREL_LENGTH: '13' }, /TESTBENCH_FAREL_LENGTH=13 is not accepted: use a whole number from 1 to 12/],
    [{ TESTBENCH_FAREL_LENGTH: 'three' }, /TESTBENCH_FAREL_LENGTH=three is not accepted/],
    [{ TESTBENCH_FAREL_PER_CLASS: '2.5' }, /TESTBENCH_FAREL_PER_CLASS=2.5 is not accepted: use a whole number from 1/],
    [
      { TESTBENCH_FAREL_SEED: 'abc' },
      /TESTBENCH_FAREL_SEED=abc is not accepted: use a whole number, or unset it for 42\./,
    ],
    [
      { TESTBENCH_FAREL_MODE: 'python' },
      /TESTBENCH_FAREL_MODE=python is not accepted: use python-compat .* or seedrandom/,
    ],
    [
      { TESTBENCH_FAREL_SHUFFLE: 'maybe' },
      /TESTBENCH_FAREL_SHUFFLE=maybe is not accepted: use 1\/on\/true or 0\/off\/false, or unset it for on\./,
    ],
    [
      { TESTBENCH_FAREL_SYSTEM: '2' },
      /TESTBENCH_FAREL_SYSTEM=2 is not accepted: use 1\/on\/true or 0\/off\/false, or unset it for off\./,
    ],
    [
      { TESTBENCH_FAREL_PARSE: 'boxed' },
      /TESTBENCH_FAREL_PARSE=boxed is not accepted: use tag or tag-or-boxed, or unset it for tag\./,
    ],
    [
      { TESTBENCH_FAREL_TEMPLATE: '/nonexistent/farel.txt' },
      /TESTBENCH_FAREL_TEMPLATE=\/nonexistent\/farel.txt cannot be read .*: give the path of a UTF-8 text file/,
    ],
  ] as const)('%j is refused with what is accepted', ([env, message]) => {
    expect(() => farelOptions(env)).toThrow(message)
  })

  test('a template without the placeholders, an empty system prompt file, or a file with the system prompt off are refused', () => {
    const template = file('no-answers.txt', '$QUIZ_RELATIONS\n$QUIZ_QUESTION\n')
    expect(() => farelOptions({ TESTBENCH_FAREL_TEMPLATE: template })).toThrow(
      /lacks \$QUIZ_ANSWERS: a template must place/,
    )
    const empty = file('empty.txt', '\n')
    expect(() => farelOptions({ TESTBENCH_FAREL_SYSTEM_FILE: empty })).toThrow(/is empty/)
    const system = file('system2.txt', 'Think.')
    expect(() => farelOptions({ TESTBENCH_FAREL_SYSTEM_FILE: system, TESTBENCH_FAREL_SYSTEM: 'off' })).toThrow(
      /drop one of the two/,
    )
  })
})
