import { describe, expect, test } from 'vitest'
import type { ItemRecord } from '../../../harness/records/item-record.ts'
import type { Outcome } from '../../../adapters/outcome.ts'
import { scoreHumanEval } from '../../../suites/humaneval/score.ts'
import { formatInterval } from '../../../reporters/statistics/score-interval.ts'

function record(itemId: string, sample: number, outcome: Outcome, variant = 'humaneval', model = 'm'): ItemRecord {
  return { suite: 'humaneval', itemId, model, provider: 'ollama', sample, outcome, variant }
}

describe('scoreHumanEval', () => {
  test('pass@1 … pass@n per variant with the 95% interval and the outcomes', () => {
    // Task 0: 2 of 3 samples pass; task 1: none. pass@1 = (2/3 + 0)/2; pass@2 = (1 + 0)/2; pass@3 = (1 + 0)/2.
    const records = [
      record('HumanEval/0', 0, 'passed'),
      record('HumanEval/0', 1, 'wrong_answer'),
      record('HumanEval/0', 2, 'passed'),
      record('HumanEval/1', 0, 'timeout'),
      record('HumanEval/1', 1, 'compile_error'),
      record('HumanEval/1', 2, 'wrong_answer'),
      record('HumanEval/0', 0, 'passed', 'humaneval+'),
    ]
    const scores = scoreHumanEval(records)
    expect(scores.map((score) => [score.name, score.value])).toEqual([
      ['HumanEval pass@1', 1 / 3],
      ['HumanEval pass@2', 0.5],
      ['HumanEval pass^2', 1 / 6],
      ['HumanEval pass@3', 0.5],
      ['HumanEval pass^3', 0],
      ['HumanEval+ pass@1', 1],
    ])
    expect(scores[0]?.display).toBe('33.3%')
    expect(scores[0]?.counted).toEqual({ solved: 1, total: 2 })
    // pass^2 of task 0: C(2,2)/C(3,2) = 1/3; no task passes all three samples.
    expect(scores[2]?.counted).toEqual({ solved: 0, total: 2 })
    const cell = (index: number) => `${scores[index]?.display} (${formatInterval(scores[index]!)?.replace('%', '')})`
    expect(scores[0]?.columns).toEqual({
      Model: 'm',
      'HumanEval pass@1': cell(0),
      'HumanEval pass@2': cell(1),
      'HumanEval pass^2': cell(2),
      'HumanEval pass@3': cell(3),
      'HumanEval pass^3': cell(4),
      'HumanEval outcomes': 'passed 2, wrong_answer 2, compile_error 1, timeout 1',
    })
    for (const score of scores) {
      expect(score.interval!.low).toBeLessThanOrEqual(score.value)
      expect(score.interval!.high).toBeGreaterThanOrEqual(score.value)
      expect(score.interval!.high).toBeGreaterThan(score.interval!.low)
    }
  })

  test("provider and infra errors are not the model's answers: left out of pass@k, shown in the outcomes", () => {
    const scores = scoreHumanEval([
      record('HumanEval/0', 0, 'passed'),
      record('HumanEval/1', 0, 'provider_error'),
      record('HumanEval/2', 0, 'infra_error'),
    ])
    expect(scores[0]).toMatchObject({ name: 'HumanEval pass@1', value: 1, counted: { solved: 1, total: 1 } })
    expect(scores[0]?.columns?.['HumanEval outcomes']).toBe('passed 1, provider_error 1, infra_error 1')
  })

  test('models are scored apart; other suites are ignored', () => {
    const scores = scoreHumanEval([
      record('HumanEval/0', 0, 'passed', 'humaneval', 'a'),
      record('HumanEval/0', 0, 'wrong_answer', 'humaneval', 'b'),
      { ...record('x', 0, 'passed'), suite: 'mbpp' },
    ])
    expect(scores.map((score) => [score.model, score.value])).toEqual([
      ['a', 1],
      ['b', 0],
    ])
  })
})

describe('records without scoring facts (a task that broke before recording them)', () => {
  test('are left out as infra or provider errors, and alone give no score and no error', () => {
    const broken = (itemId: string, outcome: Outcome, variant: string): ItemRecord => ({
      ...record(itemId, 0, outcome, variant),
      reason: 'broke early',
    })
    const scores = scoreHumanEval([
      broken('HumanEval/0', 'infra_error', 'humaneval+'),
      record('HumanEval/1', 0, 'passed', 'humaneval+'),
      broken('HumanEval/2', 'provider_error', 'humaneval+'),
    ])
    expect(scores.map((score) => [score.name, score.value, score.counted])).toEqual([
      ['HumanEval+ pass@1', 1, { solved: 1, total: 1 }],
    ])
    expect(scoreHumanEval([broken('HumanEval/0', 'infra_error', 'humaneval')])).toEqual([])
  })
})
