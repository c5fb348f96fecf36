import { describe, expect, test } from 'vitest'
import { runLimits, wallBackstopSeconds } from '../../../harness/python-tasks/io/driver-run.ts'
import { inputCount } from '../../../harness/python-tasks/io/evalplus-oracle.ts'
import type { JudgeVerdict } from '../../../harness/python-tasks/io/judge-process.ts'
import { driverStarted, inputLimitsSeconds, outcomeOf } from '../../../harness/python-tasks/io/run-io-check.ts'

const capture = (text: string, truncated = false) => ({ text, truncated, bytes: text.length })

function verdict(failure: JudgeVerdict['failure']): JudgeVerdict {
  return {
    passed: failure === null,
    basePassed: failure === null,
    inputs: 3,
    base: 1,
    checked: 3,
    cpuMs: 1,
    wallMs: 1,
    failure,
  }
}

describe('per-input limits', () => {
  test("max(floor, factor × the canonical CPU time), EvalPlus's rule, in CPU seconds", () => {
    expect(inputLimitsSeconds({ canonicalCpuMs: [0.2, 300, 2500] }, { inputFloorMs: 1000, factor: 4 })).toEqual([
      1, 1.2, 10,
    ])
  })

  test('a wall backstop far above the CPU limit, and a whole-run cap', () => {
    expect(wallBackstopSeconds(1)).toBe(15)
    expect(runLimits({ cpuLimits: [1, 1, 1] }, { memoryBytes: 1, setupCpuSeconds: 10, totalCpuSeconds: 60 })).toEqual({
      cpuSeconds: 13,
      wallMs: 49_000,
    })
    expect(
      runLimits(
        { cpuLimits: new Array<number>(1000).fill(1) },
        { memoryBytes: 1, setupCpuSeconds: 10, totalCpuSeconds: 60 },
      ).cpuSeconds,
    ).toBe(70)
  })

  test('inputs are counted without parsing their values (big ints stay text)', () => {
    expect(inputCount('[[1,[2,3]],[{"T":[1]}],["a]\\"["],[123456789012345678901234567890]]')).toBe(4)
    expect(inputCount('[]')).toBe(0)
  })
})

describe('outcomeOf', () => {
  const ended = { outcome: 'passed' as const, reason: 'Exited 0.', stdout: capture('') }

  test('passed only when the judge passed every input and the program ended well', () => {
    expect(outcomeOf(verdict(null), ended).outcome).toBe('passed')
    expect(outcomeOf(verdict(null), { ...ended, outcome: 'timeout', reason: 'CPU limit' }).outcome).toBe('timeout')
  })

  test("the judge's failure names the outcome; a program that ended early takes the sandbox's reason", () => {
    expect(outcomeOf(verdict({ index: 2, status: 'wrong', detail: 'Input 2' }), ended)).toEqual({
      outcome: 'wrong_answer',
      reason: 'Input 2 (input 2 of 3)',
    })
    expect(outcomeOf(verdict({ index: 0, status: 'timeout', detail: 'slow' }), ended).outcome).toBe('timeout')
    expect(outcomeOf(verdict({ index: 0, status: 'error', detail: 'ValueError' }), ended)).toEqual({
      outcome: 'runtime_error',
      reason: 'ValueError (input 0 of 3, a base input)',
    })
    expect(
      outcomeOf(verdict({ index: 1, status: 'missing', detail: 'Ended.' }), {
        ...ended,
        outcome: 'memory',
        reason: 'Out of memory.',
      }).outcome,
    ).toBe('memory')
    expect(outcomeOf(verdict({ index: null, status: 'malformed', detail: 'forged' }), ended).outcome).toBe(
      'wrong_answer',
    )
  })

  test("a breakdown claimed after the driver started is the program's failure, not an infra_error", () => {
    expect(driverStarted('{"driver":"started"}\n{"setup":"ok"}\n')).toBe(true)
    expect(driverStarted('{"setup":"ok"}\n')).toBe(false)
    expect(
      outcomeOf(verdict({ index: null, status: 'missing', detail: 'Ended.' }), {
        outcome: 'infra_error',
        reason: 'testbench fork server: …',
        stdout: capture('{"driver":"started"}\n'),
      }).outcome,
    ).toBe('runtime_error')
  })
})
