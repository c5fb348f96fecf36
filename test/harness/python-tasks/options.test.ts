import { describe, expect, test } from 'vitest'
import { HUMANEVAL_KNOBS } from '../../../suites/humaneval/knobs.ts'
import { codeSuiteOptions } from '../../../harness/python-tasks/options.ts'

const options = (env: NodeJS.ProcessEnv, samples = 1) => codeSuiteOptions(HUMANEVAL_KNOBS, samples, env)

describe('codeSuiteOptions', () => {
  test('defaults: both variants, chat, 3 s floor, factor 4, 4 GiB, temperature 0', () => {
    expect(options({})).toEqual({
      variants: ['humaneval', 'humaneval+'],
      mode: 'chat',
      timeFloorMs: 3000,
      inputTimeFloorMs: 1000,
      timeFactor: 4,
      memoryBytes: 4096 * 1024 * 1024,
      temperature: 0,
    })
  })

  test('several samples default to a temperature that varies them', () => {
    expect(options({}, 5).temperature).toBe(0.8)
    expect(options({ TESTBENCH_HUMANEVAL_TEMPERATURE: '0.2' }, 5).temperature).toBe(0.2)
  })

  test('variants are chosen by a comma list', () => {
    expect(options({ TESTBENCH_HUMANEVAL_VARIANTS: 'HumanEval+ , humaneval+' }).variants).toEqual(['humaneval+'])
    expect(() => options({ TESTBENCH_HUMANEVAL_VARIANTS: 'humaneval,mbpp' })).toThrow(
      'TESTBENCH_HUMANEVAL_VARIANTS=humaneval,mbpp is not accepted: use a comma list of humaneval and humaneval+, or unset it for humaneval,humaneval+.',
    )
  })

  test("the suite's own prompt mode wins over the global one", () => {
    expect(options({ TESTBENCH_PROMPT_MODE: 'completion' }).mode).toBe('completion')
    expect(options({ TESTBENCH_PROMPT_MODE: 'completion', TESTBENCH_HUMANEVAL_PROMPT_MODE: 'chat' }).mode).toBe('chat')
    expect(() => options({ TESTBENCH_HUMANEVAL_PROMPT_MODE: 'fim' })).toThrow(
      /TESTBENCH_HUMANEVAL_PROMPT_MODE=fim is not accepted: use chat or completion, or unset it for TESTBENCH_PROMPT_MODE\./,
    )
  })

  test('time limit knobs', () => {
    expect(
      options({
        TESTBENCH_HUMANEVAL_TIME_FLOOR: '1.5',
        TESTBENCH_HUMANEVAL_TIME_FACTOR: '2',
        TESTBENCH_HUMANEVAL_INPUT_TIME_FLOOR: '4',
      }),
    ).toMatchObject({ timeFloorMs: 1500, inputTimeFloorMs: 4000, timeFactor: 2 })
    expect(() => options({ TESTBENCH_HUMANEVAL_TIME_FLOOR: 'soon' })).toThrow(
      'TESTBENCH_HUMANEVAL_TIME_FLOOR=soon is not accepted: use seconds, a number above 0, or unset it for 3.',
    )
    expect(() => options({ TESTBENCH_HUMANEVAL_TIME_FACTOR: '0' })).toThrow(
      'TESTBENCH_HUMANEVAL_TIME_FACTOR=0 is not accepted: use a number above 0, or unset it for 4.',
    )
  })
})
