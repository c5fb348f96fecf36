import { describe, expect, expectTypeOf, test } from 'vitest'
import type { ItemRecord } from '../../../harness/records/item-record.ts'
import { optional, scoringFacts, type FactsOf } from '../../../harness/scoring/scoring-facts.ts'

const facts = scoringFacts('toy', { points: 'number', system: ['none', 'default'], note: optional('string') })

function record(scoring: ItemRecord['scoring']): ItemRecord {
  return {
    suite: 'toy',
    itemId: 'a',
    model: 'm',
    provider: 'test',
    sample: 0,
    ...(scoring === undefined ? {} : { scoring }),
  }
}

describe('scoringFacts', () => {
  test('reads facts that fit, typed', () => {
    const read = facts.read(record({ points: 2.5, system: 'none' }))
    expect(read).toEqual({ points: 2.5, system: 'none' })
    expectTypeOf(read).toEqualTypeOf<FactsOf<typeof facts>>()
    expectTypeOf(read.system).toEqualTypeOf<'none' | 'default'>()
    expectTypeOf(read.note).toEqualTypeOf<string | undefined>()
  })

  test.each([
    [undefined, /there are no scoring facts/],
    [{ system: 'none' }, /scoring\.points is missing/],
    [{ points: '3', system: 'none' }, /scoring\.points is "3", not a number/],
    [{ points: 1, system: 'custom' }, /scoring\.system is "custom", not one of none, default/],
    [{ points: 1, system: 'none', extra: true }, /scoring\.extra is not a toy fact/],
  ])('refuses %j, naming the item and what is wrong', (scoring, message) => {
    expect(() => facts.read(record(scoring))).toThrow(message)
    expect(() => facts.read(record(scoring))).toThrow(/toy record of m for item a/)
  })

  test('facts read once are read again without a second check; facts of the same shape are still each checked', () => {
    const good = { points: 1, system: 'none' }
    expect(facts.read(record(good))).toBe(good)
    expect(facts.read({ ...record(good), itemId: 'a copy drawn twice' })).toBe(good)
    expect(() => facts.read(record({ points: 1, system: 'custom' }))).toThrow(/scoring\.system is "custom"/)
  })
})
