import { describe, expect, test } from 'vitest'
import type { ItemRecord } from '../../../harness/records/item-record.ts'
import type { Outcome } from '../../../adapters/outcome.ts'
import { scoreMbpp } from '../../../suites/mbpp/score.ts'

function record(itemId: string, variant: string, outcome: Outcome, basePassed?: boolean): ItemRecord {
  return {
    suite: 'mbpp',
    itemId,
    model: 'm',
    provider: 'ollama',
    sample: 0,
    outcome,
    variant,
    ...(basePassed === undefined ? {} : { scoring: { mode: 'chat', basePassed } }),
  }
}

describe('scoreMbpp', () => {
  test('names each variant as the benchmark does, with the MBPP+ version', () => {
    const records = ['mbpp', 'mbpp-sanitized', 'mbpp+', 'mbpp+v0.1.0'].map((variant) =>
      record('Mbpp/11', variant, 'passed'),
    )
    expect(scoreMbpp(records).map((score) => score.name)).toEqual([
      'MBPP pass@1',
      'MBPP sanitized pass@1',
      'MBPP+ v0.2.0 pass@1',
      'MBPP+ v0.1.0 pass@1',
    ])
  })

  test("EvalPlus's base column: the base inputs alone, from the same records; infra errors stay out of both", () => {
    const records = [
      record('Mbpp/2', 'mbpp+', 'passed', true),
      record('Mbpp/3', 'mbpp+', 'wrong_answer', true),
      record('Mbpp/4', 'mbpp+', 'timeout', false),
      record('Mbpp/5', 'mbpp+', 'infra_error', false),
    ]
    const scores = Object.fromEntries(
      scoreMbpp(records).map((score) => [score.name, [score.value, score.counted?.total]]),
    )
    expect(scores).toEqual({
      'MBPP+ v0.2.0 pass@1': [1 / 3, 3],
      'MBPP (base tests of MBPP+ v0.2.0) pass@1': [2 / 3, 3],
    })
  })
})

describe('records without scoring facts (a task that broke before recording them)', () => {
  test('are left out as infra or provider errors, and alone give no score and no error', () => {
    const scores = scoreMbpp([
      record('Mbpp/2', 'mbpp+', 'infra_error'),
      record('Mbpp/3', 'mbpp+', 'passed', true),
      record('Mbpp/4', 'mbpp+', 'provider_error'),
    ])
    expect(scores.map((score) => [score.name, score.value, score.counted])).toEqual([
      ['MBPP+ v0.2.0 pass@1', 1, { solved: 1, total: 1 }],
      ['MBPP (base tests of MBPP+ v0.2.0) pass@1', 1, { solved: 1, total: 1 }],
    ])
    expect(scoreMbpp([record('Mbpp/2', 'mbpp', 'infra_error')])).toEqual([])
  })
})
