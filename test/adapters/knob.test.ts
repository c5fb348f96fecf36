/** One parser per kind of knob, one message shape for every bad value, choices in any case. */
import { describe, expect, it } from 'vitest'
import {
  booleanKnob,
  choiceKnob,
  listKnob,
  numberKnob,
  pathKnob,
  textKnob,
  wholeNumberKnob,
} from '../../adapters/knob.ts'

const WARM = booleanKnob({ name: 'TESTBENCH_X_WARM', default: true, readme: 'x' })

describe('boolean knobs', () => {
  it.for([
    ['1', true],
    ['on', true],
    ['TRUE', true],
    ['yes', true],
    ['0', false],
    ['off', false],
    ['false', false],
    ['No', false],
  ] as const)('%s reads as %s', ([raw, expected]) => {
    expect(WARM.read({ TESTBENCH_X_WARM: raw })).toBe(expected)
  })

  it('unset or empty gives the default; a word it does not know is the one message shape', () => {
    expect(WARM.read({})).toBe(true)
    expect(WARM.read({ TESTBENCH_X_WARM: ' ' })).toBe(true)
    expect(() => WARM.read({ TESTBENCH_X_WARM: 'maybe' })).toThrow(
      'TESTBENCH_X_WARM=maybe is not accepted: use 1/on/true or 0/off/false, or unset it for on.',
    )
  })
})

describe('number knobs', () => {
  const LENGTH = wholeNumberKnob({ name: 'TESTBENCH_X_LENGTH', default: 3, min: 1, max: 12, readme: 'x' })
  const DELAY = numberKnob({ name: 'TESTBENCH_X_DELAY', default: 0.5, unit: 'seconds', readme: 'x' })
  const FACTOR = numberKnob({ name: 'TESTBENCH_X_FACTOR', default: 4, above: true, readme: 'x' })

  it('read as their kind, within their bounds', () => {
    expect(LENGTH.read({ TESTBENCH_X_LENGTH: ' 12 ' })).toBe(12)
    expect(DELAY.read({ TESTBENCH_X_DELAY: '0' })).toBe(0)
    expect(FACTOR.read({ TESTBENCH_X_FACTOR: '1.5' })).toBe(1.5)
  })

  it.for([
    [LENGTH, '13', 'TESTBENCH_X_LENGTH=13 is not accepted: use a whole number from 1 to 12, or unset it for 3.'],
    [LENGTH, '2.5', 'TESTBENCH_X_LENGTH=2.5 is not accepted: use a whole number from 1 to 12, or unset it for 3.'],
    [DELAY, '-1', 'TESTBENCH_X_DELAY=-1 is not accepted: use seconds, a number ≥ 0, or unset it for 0.5.'],
    [FACTOR, '0', 'TESTBENCH_X_FACTOR=0 is not accepted: use a number above 0, or unset it for 4.'],
    [FACTOR, 'soon', 'TESTBENCH_X_FACTOR=soon is not accepted: use a number above 0, or unset it for 4.'],
  ] as const)('%s: %s is refused in the one shape', ([knob, raw, message]) => {
    expect(() => knob.read({ [knob.name]: raw })).toThrow(message)
  })
})

describe('choice and list knobs', () => {
  const MODE = choiceKnob({
    name: 'TESTBENCH_X_MODE',
    choices: ['python-compat', 'seedrandom'],
    default: 'python-compat',
    readme: 'x',
  })
  const LANGUAGES = listKnob({
    name: 'TESTBENCH_X_LANGUAGES',
    choices: ['python', 'java', 'rust'],
    default: ['python'],
    readme: 'x',
  })

  it('take any case, and give the declared spelling', () => {
    expect(MODE.read({ TESTBENCH_X_MODE: 'Seedrandom' })).toBe('seedrandom')
    expect(LANGUAGES.read({ TESTBENCH_X_LANGUAGES: 'Java, python ,JAVA' })).toEqual(['java', 'python'])
  })

  it('refuse what is none of the choices in the one shape', () => {
    expect(() => MODE.read({ TESTBENCH_X_MODE: 'mt' })).toThrow(
      'TESTBENCH_X_MODE=mt is not accepted: use python-compat or seedrandom, or unset it for python-compat.',
    )
    expect(() => LANGUAGES.read({ TESTBENCH_X_LANGUAGES: 'python,cobol' })).toThrow(
      'TESTBENCH_X_LANGUAGES=python,cobol is not accepted: use a comma list of python, java and rust, or unset it for python.',
    )
  })

  it('declare their default as the tables show it', () => {
    expect([MODE.default, LANGUAGES.default, WARM.default]).toEqual(['python-compat', 'python', 'on'])
  })
})

describe('text and path knobs', () => {
  const IMAGE = textKnob({
    name: 'TESTBENCH_X_IMAGE',
    default: 'a/{id}',
    pattern: /\{id\}/,
    accepted: 'an image name with `{id}`',
    readme: 'x',
  })
  const FILE = pathKnob({ name: 'TESTBENCH_X_FILE', accepted: 'a file', readme: 'x' })

  it('give the text, checked against its pattern; a knob without a default reads undefined when unset', () => {
    expect(IMAGE.read({ TESTBENCH_X_IMAGE: 'b/{id}:1' })).toBe('b/{id}:1')
    expect(() => IMAGE.read({ TESTBENCH_X_IMAGE: 'b' })).toThrow(
      'TESTBENCH_X_IMAGE=b is not accepted: use an image name with `{id}`, or unset it for a/{id}.',
    )
    expect(FILE.read({})).toBeUndefined()
    expect(FILE.default).toBe('—')
  })
})
