import { describe, expect, test } from 'vitest'
import { PROBLEMS } from '../../../suites/euler/knobs.ts'
import { eulerOptions } from '../../../suites/euler/options.ts'

describe('eulerOptions', () => {
  test('defaults: the four PE-Bench languages, problems 1-100, the current era, nothing overwritten, answer-in-code off', () => {
    const options = eulerOptions({})
    expect(options.languages).toEqual(['python', 'java', 'rust', 'clojure'])
    expect(options.problems).toEqual(Array.from({ length: 100 }, (_, i) => i + 1))
    expect(options).toMatchObject({
      era: 'current',
      overwrite: false,
      answerInCode: false,
      scrapeDelayMs: 1000,
      runTimeoutMs: 10_000,
      parameters: undefined,
      bits: undefined,
    })
  })

  test("tool mode's default batch is upstream's: problems 101-200", () => {
    expect(eulerOptions({ TESTBENCH_EULER_MODE: 'tool' }).problems).toEqual(
      Array.from({ length: 100 }, (_, i) => i + 101),
    )
    expect(eulerOptions({ TESTBENCH_EULER_MODE: 'tool', TESTBENCH_EULER_PROBLEMS: '1-3' }).problems).toEqual([1, 2, 3])
  })

  test('reads every TESTBENCH_EULER_ knob', () => {
    const options = eulerOptions({
      TESTBENCH_EULER_LANGUAGES: 'Rust, python,go,rust',
      TESTBENCH_EULER_PROBLEMS: '1-3,22,2',
      TESTBENCH_EULER_ERA: 'pe100',
      TESTBENCH_EULER_OVERWRITE: '1',
      TESTBENCH_EULER_ANSWER_IN_CODE: 'true',
      TESTBENCH_EULER_SCRAPE_DELAY_MS: '250',
      TESTBENCH_EULER_RUN_TIMEOUT_MS: '2000',
      TESTBENCH_EULER_PARAMETERS: '30.7',
      TESTBENCH_EULER_BITS: '4',
      TESTBENCH_EULER_MODE: 'Tool',
    })
    expect(options).toEqual({
      mode: 'tool',
      languages: ['rust', 'python', 'go'],
      problems: [1, 2, 3, 22],
      era: 'pe100',
      overwrite: true,
      answerInCode: true,
      scrapeDelayMs: 250,
      runTimeoutMs: 2000,
      parameters: 30.7,
      bits: 4,
    })
  })

  test.for([
    [
      { TESTBENCH_EULER_LANGUAGES: 'python,cobol' },
      /TESTBENCH_EULER_LANGUAGES=python,cobol is not accepted: use a comma list of python, java, rust, clojure, javascript, go, c and cpp/,
    ],
    [{ TESTBENCH_EULER_PROBLEMS: '100-1' }, /the range "100-1" runs backwards/],
    [{ TESTBENCH_EULER_PROBLEMS: '0' }, /numbers start at 1, not 0/],
    [
      { TESTBENCH_EULER_ERA: '2024' },
      /TESTBENCH_EULER_ERA=2024 is not accepted: use current or pe100, or unset it for current\./,
    ],
    [
      { TESTBENCH_EULER_MODE: 'agent' },
      /TESTBENCH_EULER_MODE=agent is not accepted: use oneshot or tool, or unset it for oneshot\./,
    ],
    [{ TESTBENCH_EULER_OVERWRITE: 'yes please' }, /TESTBENCH_EULER_OVERWRITE=yes please is not accepted/],
    [{ TESTBENCH_EULER_RUN_TIMEOUT_MS: '0' }, /TESTBENCH_EULER_RUN_TIMEOUT_MS=0/],
    [
      { TESTBENCH_EULER_PARAMETERS: '7b' },
      /TESTBENCH_EULER_PARAMETERS=7b is not accepted: use billions of parameters, a number above 0/,
    ],
    [
      { TESTBENCH_EULER_BITS: '4.5' },
      /TESTBENCH_EULER_BITS=4.5 is not accepted: use bits per weight, a whole number ≥ 1/,
    ],
  ] as const)('refuses %o', ([env, message]) => {
    expect(() => eulerOptions(env)).toThrow(message)
  })
})

test('parseProblems: 1-200 is two hundred problems', () => {
  expect(PROBLEMS.read({ TESTBENCH_EULER_PROBLEMS: '1-200' })).toHaveLength(200)
})
