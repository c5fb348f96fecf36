import { describe, expect, test } from 'vitest'
import { TASKS } from '../../../suites/bigcodebench/knobs.ts'
import { bigCodeBenchOptions } from '../../../suites/bigcodebench/options.ts'

describe('bigCodeBenchOptions', () => {
  test('defaults: the complete split of the full set, chat, 4 GiB, the official 240 s and --calibrated', () => {
    expect(bigCodeBenchOptions(1, {})).toEqual({
      splits: ['complete'],
      subset: 'full',
      version: 'v0.1.0',
      mode: 'chat',
      memoryBytes: 4096 * 1024 * 1024,
      timeLimitSeconds: 240,
      calibrated: true,
      tasks: undefined,
      temperature: 0,
    })
    expect(bigCodeBenchOptions(5, {}).temperature).toBe(0.8)
  })

  test('every knob is TESTBENCH_BIGCODEBENCH_*', () => {
    const options = bigCodeBenchOptions(1, {
      TESTBENCH_BIGCODEBENCH_SPLIT: 'instruct, complete',
      TESTBENCH_BIGCODEBENCH_SUBSET: 'Hard',
      TESTBENCH_BIGCODEBENCH_VERSION: 'v0.1.4',
      TESTBENCH_BIGCODEBENCH_PROMPT_MODE: 'completion',
      TESTBENCH_BIGCODEBENCH_MEMORY_MB: '512',
      TESTBENCH_BIGCODEBENCH_TIME_LIMIT: '2.5',
      TESTBENCH_BIGCODEBENCH_CALIBRATED: 'off',
      TESTBENCH_BIGCODEBENCH_TASKS: '3,10-12',
      TESTBENCH_BIGCODEBENCH_TEMPERATURE: '0.2',
    })
    expect(options).toEqual({
      splits: ['instruct', 'complete'],
      subset: 'hard',
      version: 'v0.1.4',
      mode: 'completion',
      memoryBytes: 512 * 1024 * 1024,
      timeLimitSeconds: 2.5,
      calibrated: false,
      tasks: new Set([3, 10, 11, 12]),
      temperature: 0.2,
    })
  })

  test('wrong values say which knob and what to write', () => {
    expect(() => bigCodeBenchOptions(1, { TESTBENCH_BIGCODEBENCH_SPLIT: 'both' })).toThrow(
      /TESTBENCH_BIGCODEBENCH_SPLIT=both is not accepted: use a comma list of complete and instruct/,
    )
    expect(() => bigCodeBenchOptions(1, { TESTBENCH_BIGCODEBENCH_SUBSET: 'lite' })).toThrow(
      /use full \(1140 tasks\) or hard \(148\)/,
    )
    expect(() => bigCodeBenchOptions(1, { TESTBENCH_BIGCODEBENCH_MEMORY_MB: '0' })).toThrow(
      /TESTBENCH_BIGCODEBENCH_MEMORY_MB=0/,
    )
    expect(() => bigCodeBenchOptions(1, { TESTBENCH_BIGCODEBENCH_VERSION: '0.1.4' })).toThrow(
      /TESTBENCH_BIGCODEBENCH_VERSION=0\.1\.4 is not accepted: use a release as vX\.Y\.Z/,
    )
    expect(() => TASKS.read({ TESTBENCH_BIGCODEBENCH_TASKS: '5-2' })).toThrow(/runs backwards/)
    expect(() => TASKS.read({ TESTBENCH_BIGCODEBENCH_TASKS: 'x' })).toThrow(/"x" is not a number or a range/)
  })
})

test('TESTBENCH_PROMPT_MODE=completion applies to BigCodeBench unless its own knob says otherwise', () => {
  expect(bigCodeBenchOptions(1, { TESTBENCH_PROMPT_MODE: 'completion' }).mode).toBe('completion')
  expect(
    bigCodeBenchOptions(1, { TESTBENCH_PROMPT_MODE: 'completion', TESTBENCH_BIGCODEBENCH_PROMPT_MODE: 'chat' }).mode,
  ).toBe('chat')
  expect(() => bigCodeBenchOptions(1, { TESTBENCH_PROMPT_MODE: 'base' })).toThrow(
    /TESTBENCH_PROMPT_MODE=base is not accepted/,
  )
})
