import { describe, expect, test } from 'vitest'
import type { ItemRecord } from '../../../harness/records/item-record.ts'
import { scoreBigCodeBench } from '../../../suites/bigcodebench/score.ts'
import { formatExclusions, parseExclusions, scoreName, variantName } from '../../../suites/bigcodebench/variant.ts'

describe('variants and score names', () => {
  test('the split, "-Hard" for the hard subset, and the version', () => {
    expect(variantName('complete', 'full')).toBe('complete')
    expect(variantName('instruct', 'hard')).toBe('instruct-hard')
    expect(scoreName('complete')).toBe('BigCodeBench-Complete v0.1.0')
    expect(scoreName('instruct-hard')).toBe('BigCodeBench-Instruct-Hard v0.1.0')
  })

  test('exclusions round-trip through the short form records carry', () => {
    const text = formatExclusions(
      new Map([
        ['missing library', ['BigCodeBench/12', 'BigCodeBench/400']],
        ['network', ['BigCodeBench/3']],
      ]),
    )
    expect(text).toBe('missing library: 12 400; network: 3')
    expect(parseExclusions(text)).toEqual([
      { itemId: 'BigCodeBench/12', reason: 'missing library' },
      { itemId: 'BigCodeBench/400', reason: 'missing library' },
      { itemId: 'BigCodeBench/3', reason: 'network' },
    ])
    expect(parseExclusions('')).toEqual([])
  })
})

describe('scoreBigCodeBench', () => {
  const record = (itemId: string, variant: string, outcome: ItemRecord['outcome'], sample = 0): ItemRecord => ({
    suite: 'bigcodebench',
    itemId,
    model: 'm',
    provider: 'p',
    sample,
    variant,
    outcome,
    scoring: {
      split: 'complete',
      subset: 'full',
      version: 'v0.1.0',
      mode: 'chat',
      calibrated: true,
      excluded: 'network: 7',
    },
  })

  test('pass@1 over the scored tasks, with the excluded ones listed and the outcomes counted', () => {
    const records = [
      record('BigCodeBench/1', 'complete-hard', 'passed'),
      record('BigCodeBench/2', 'complete-hard', 'wrong_answer'),
      record('BigCodeBench/3', 'complete-hard', 'timeout'),
      record('BigCodeBench/4', 'complete-hard', 'passed'),
      record('BigCodeBench/5', 'complete-hard', 'infra_error'),
      { ...record('HumanEval/1', 'x', 'passed'), suite: 'humaneval' },
    ]
    const [score, overAll, ...others] = scoreBigCodeBench(records)
    expect(others).toEqual([])
    expect(score).toMatchObject({
      suite: 'bigcodebench',
      name: 'BigCodeBench-Complete-Hard v0.1.0 pass@1',
      value: 0.5,
      counted: { solved: 2, total: 4 },
      excluded: [{ itemId: 'BigCodeBench/7', reason: 'network' }],
    })
    expect(score?.display).toBe('50.0%')
    expect(score?.interval?.method).toBe('Wilson')
    expect(score?.columns?.['BigCodeBench-Complete-Hard v0.1.0 pass@1']).toMatch(/^50\.0% \(\d+\.\d–\d+\.\d\)$/)
    // Over all tasks, as the leaderboard counts them: the excluded task counts as failed (2 of 5).
    expect(overAll).toMatchObject({
      name: 'BigCodeBench-Complete-Hard v0.1.0 pass@1 over all tasks',
      value: 0.4,
      counted: { solved: 2, total: 5 },
    })
    expect(overAll?.excluded).toBeUndefined()
    expect(score?.columns?.['BigCodeBench-Complete-Hard v0.1.0 outcomes']).toBe(
      'passed 2, wrong_answer 1, timeout 1, infra_error 1',
    )
  })

  test('pass@k with samples, one score set per variant', () => {
    const records = [
      record('BigCodeBench/1', 'complete', 'passed', 0),
      record('BigCodeBench/1', 'complete', 'wrong_answer', 1),
      record('BigCodeBench/1', 'instruct', 'wrong_answer', 0),
      record('BigCodeBench/1', 'instruct', 'wrong_answer', 1),
    ]
    expect(scoreBigCodeBench(records).map((score) => [score.name, score.value])).toEqual([
      ['BigCodeBench-Complete v0.1.0 pass@1', 0.5],
      ['BigCodeBench-Complete v0.1.0 pass@1 over all tasks', 0.25],
      ['BigCodeBench-Complete v0.1.0 pass@2', 1],
      ['BigCodeBench-Complete v0.1.0 pass@2 over all tasks', 0.5],
      ['BigCodeBench-Complete v0.1.0 pass^2', 0],
      ['BigCodeBench-Instruct v0.1.0 pass@1', 0],
      ['BigCodeBench-Instruct v0.1.0 pass@1 over all tasks', 0],
      ['BigCodeBench-Instruct v0.1.0 pass@2', 0],
      ['BigCodeBench-Instruct v0.1.0 pass@2 over all tasks', 0],
      ['BigCodeBench-Instruct v0.1.0 pass^2', 0],
    ])
  })

  test('records of different part files each carry their exclusions: the score takes all of them, once', () => {
    const first = record('BigCodeBench/1', 'complete', 'passed')
    const second = {
      ...record('BigCodeBench/2', 'complete', 'passed'),
      scoring: { ...first.scoring, excluded: 'network: 7; missing library: 9' },
    }
    const [score, overAll] = scoreBigCodeBench([first, second])
    expect(score?.excluded).toEqual([
      { itemId: 'BigCodeBench/7', reason: 'network' },
      { itemId: 'BigCodeBench/9', reason: 'missing library' },
    ])
    expect(overAll?.value).toBe(0.5)
  })

  test('the score is named after the version the records were run under, whatever this process reads', () => {
    const records = (['passed', 'wrong_answer'] as const).map((outcome, index) => {
      const base = record(`BigCodeBench/${index}`, 'instruct', outcome)
      return { ...base, scoring: { ...base.scoring, excluded: '', version: 'v0.1.4' } }
    })
    expect(scoreBigCodeBench(records).map((score) => score.name)).toContain('BigCodeBench-Instruct v0.1.4 pass@1')
  })
})

describe('records without scoring facts (a task that broke before recording them)', () => {
  const broken = (itemId: string, outcome: ItemRecord['outcome']): ItemRecord => ({
    suite: 'bigcodebench',
    itemId,
    model: 'm',
    provider: 'p',
    sample: 0,
    variant: 'complete',
    outcome,
    reason: 'broke early',
  })
  const scored: ItemRecord = {
    ...broken('BigCodeBench/1', 'passed'),
    scoring: { split: 'complete', subset: 'full', version: 'v0.1.0', mode: 'chat', calibrated: true, excluded: '' },
  }

  test('are left out as infra or provider errors, beside records that have them, whichever comes first', () => {
    const [score] = scoreBigCodeBench([
      broken('BigCodeBench/2', 'infra_error'),
      scored,
      broken('BigCodeBench/3', 'provider_error'),
    ])
    expect(score).toMatchObject({
      name: 'BigCodeBench-Complete v0.1.0 pass@1',
      value: 1,
      counted: { solved: 1, total: 1 },
    })
    expect(score?.columns?.['BigCodeBench-Complete v0.1.0 outcomes']).toBe('passed 1, provider_error 1, infra_error 1')
  })

  test('alone give no score and no error', () => {
    expect(
      scoreBigCodeBench([broken('BigCodeBench/2', 'infra_error'), broken('BigCodeBench/3', 'provider_error')]),
    ).toEqual([])
  })
})
