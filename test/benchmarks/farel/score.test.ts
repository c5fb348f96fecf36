import { describe, expect, test } from 'vitest'
import type { ItemRecord } from '../../../harness/records/item-record.ts'
import type { Outcome } from '../../../adapters/outcome.ts'
import { farelRuns, macroAverage, scoreFarel, type FarelScoring } from '../../../suites/farel/score.ts'

const PUBLISHED = {
  maxLength: 2,
  system: 'none',
  template: 'default',
  set: 'python-compat seed 42, 50 per class, shuffled',
  published: true,
} as const

/** `n` records of one class with the given outcomes, as the suite writes them. */
function records(
  model: string,
  relation: string,
  length: number,
  rank: number,
  outcomes: Outcome[],
  run: Partial<FarelScoring> = {},
): ItemRecord[] {
  return outcomes.map((outcome, i) => {
    const scoring: FarelScoring = { relation, length, rank, correct: 1, options: length + 1, ...PUBLISHED, ...run }
    return {
      suite: 'farel',
      itemId: `${relation} #${i + 1}`,
      model,
      provider: 'test',
      sample: 0,
      outcome,
      scoring: { ...scoring },
    }
  })
}
const repeat = <T>(value: T, n: number): T[] => Array.from({ length: n }, () => value)

describe('the FaRel score', () => {
  // child 4/4, parent 2/4 (one missing), grandchild 1/4, sibling 0/4 (all missing), grandparent 3/4.
  const handMade = [
    ...records('m', 'grandparent', 2, 2, ['passed', 'passed', 'passed', 'wrong_answer']),
    ...records('m', 'child', 1, 0, repeat('passed', 4)),
    ...records('m', 'sibling', 2, 1, repeat('no_answer', 4)),
    ...records('m', 'parent', 1, 1, ['passed', 'wrong_answer', 'no_answer', 'passed']),
    ...records('m', 'grandchild', 2, 0, ['wrong_answer', 'passed', 'wrong_answer', 'wrong_answer']),
  ]

  test('is the mean of the per-class accuracies, not the overall accuracy', () => {
    // (100 + 50 + 25 + 0 + 75) / 5 = 50; the overall accuracy would be 10/20 too, so skew one class:
    const skewed = [...handMade, ...records('m', 'child', 1, 0, repeat('passed', 16))]
    const [score] = scoreFarel(skewed)
    expect(score).toMatchObject({
      suite: 'farel',
      model: 'm',
      name: 'FaRel-2',
      value: 50,
      display: '50.00',
      counted: { solved: 26, total: 36 },
    })
  })

  test('rounds to two decimals and lays the columns out as the original table, then the C/I/M counts', () => {
    const [score] = scoreFarel([...handMade, ...records('m', 'grandchild', 2, 0, ['passed', 'passed'])])
    // grandchild becomes 3/6 = 50: (100 + 50 + 50 + 0 + 75) / 5 = 55
    expect(score!.display).toBe('55.00')
    const [other] = scoreFarel(
      records('m', 'child', 1, 0, ['passed', 'passed', 'wrong_answer']).concat(
        records('m', 'parent', 1, 1, ['passed']),
      ),
    )
    // As farel-bench computes it: child's accuracy as its log prints it, 66.67, then
    // (66.67 + 100) / 2 = 83.335000…01, rounded by pandas to 83.34 (the exact mean 83.333… would give 83.33).
    expect(other!.columns!.child).toBe('66.67')
    expect(other!.value).toBe(83.34)
    expect(other!.display).toBe('83.34')
    expect(score!.columns).toEqual({
      Model: 'm',
      'FaRel-2': '55.00',
      child: '100.00',
      parent: '50.00',
      grandchild: '50.00',
      sibling: '0.00',
      grandparent: '75.00',
      'child C/I/M': '4/0/0',
      'parent C/I/M': '2/1/1',
      'grandchild C/I/M': '3/3/0',
      'sibling C/I/M': '0/0/4',
      'grandparent C/I/M': '3/1/0',
    })
    expect(Object.keys(score!.columns!).slice(0, 7)).toEqual([
      'Model',
      'FaRel-2',
      'child',
      'parent',
      'grandchild',
      'sibling',
      'grandparent',
    ])
  })

  test('provider and infra errors and unfinished items are left out, and listed', () => {
    const withErrors = [
      ...structuredClone(handMade),
      ...records('m', 'sibling', 2, 1, ['provider_error', 'infra_error']),
    ]
    delete withErrors[0]!.outcome
    const [score] = scoreFarel(withErrors)
    // grandparent loses one passed item: 2/3; sibling unchanged at 0/4.
    expect(score!.columns!.grandparent).toBe('66.67')
    expect(score!.columns!['sibling C/I/M']).toBe('0/0/4')
    expect(score!.excluded).toEqual([
      { itemId: 'grandparent #1', reason: 'unfinished' },
      { itemId: 'sibling #1', reason: 'provider_error' },
      { itemId: 'sibling #2', reason: 'infra_error' },
    ])
  })

  test('one score per model and run: -sys, -custom, and the quiz set when two runs would share a name', () => {
    const scores = scoreFarel([
      ...records('a', 'child', 1, 0, ['passed']),
      ...records('b', 'child', 1, 0, ['wrong_answer']),
      ...records('a', 'child', 1, 0, ['passed', 'no_answer'], { system: 'default' }),
      ...records('a', 'child', 1, 0, ['passed'], { system: 'custom' }),
      ...records('a', 'child', 1, 0, ['passed'], { template: 'custom' }),
      ...records('a', 'child', 1, 0, ['passed'], {
        set: 'seedrandom seed 7, 50 per class, shuffled',
        published: false,
      }),
      ...records('a', 'child', 3, 0, ['passed'], { maxLength: 3 }),
      { suite: 'euler', itemId: '1', model: 'a', provider: 'test', sample: 0, outcome: 'passed' },
    ])
    expect(scores.map((s) => [s.model, s.name, s.display, s.columns!.Model])).toEqual([
      ['a', 'FaRel-2', '100.00', 'a'],
      ['b', 'FaRel-2', '0.00', 'b'],
      ['a', 'FaRel-2-sys', '50.00', 'a-sys'],
      ['a', 'FaRel-2-sys-custom', '100.00', 'a-sys'],
      ['a', 'FaRel-2-custom', '100.00', 'a'],
      ['a', 'FaRel-2 (seedrandom seed 7, 50 per class, shuffled)', '100.00', 'a'],
      ['a', 'FaRel-3', '100.00', 'a'],
    ])
  })

  test('farelRuns gives the per-class tallies for a reporter', () => {
    const [run] = farelRuns(handMade)
    expect(run!.classes.map((c) => [c.relation, c.correct, c.incorrect, c.missing, c.accuracy])).toEqual([
      ['child', 4, 0, 0, 100],
      ['parent', 2, 1, 1, 50],
      ['grandchild', 1, 3, 0, 25],
      ['sibling', 0, 0, 4, 0],
      ['grandparent', 3, 1, 0, 75],
    ])
    expect(macroAverage(run!.classes)).toBe(50)
    expect(macroAverage([])).toBe(0)
  })

  test('the published README example: (100 + 100 + 96 + 22 + 72 + 46 + 46 + 18 + 68) / 9 = 63.11', () => {
    const classes: Array<[string, number, number, number]> = [
      ['child', 1, 0, 50],
      ['parent', 1, 1, 50],
      ['grandchild', 2, 0, 48],
      ['sibling', 2, 1, 11],
      ['grandparent', 2, 2, 36],
      ['great grandchild', 3, 0, 23],
      ['niece or nephew', 3, 1, 23],
      ['aunt or uncle', 3, 2, 9],
      ['great grandparent', 3, 3, 34],
    ]
    const all = classes.flatMap(([relation, length, rank, passed]) =>
      records(
        'm',
        relation,
        length,
        rank,
        [...repeat<Outcome>('passed', passed), ...repeat<Outcome>('wrong_answer', 50 - passed)],
        { maxLength: 3 },
      ),
    )
    const [score] = scoreFarel(all)
    expect(score!.name).toBe('FaRel-3')
    expect(score!.display).toBe('63.11')
  })
})

describe('records without scoring facts (a quiz that broke before recording them)', () => {
  const broken = (itemId: string, outcome: Outcome): ItemRecord => ({
    suite: 'farel',
    itemId,
    model: 'm',
    provider: 'test',
    sample: 0,
    outcome,
    reason: 'broke early',
  })

  test("are left out of the model's run, with their outcome, whichever comes first", () => {
    const [score] = scoreFarel([
      broken('q1', 'infra_error'),
      ...records('m', 'child', 1, 0, ['passed', 'wrong_answer']),
      broken('q2', 'provider_error'),
    ])
    expect(score).toMatchObject({ name: 'FaRel-2', value: 50 })
    expect(score?.excluded).toEqual([
      { itemId: 'q1', reason: 'infra_error' },
      { itemId: 'q2', reason: 'provider_error' },
    ])
  })

  test('alone give no score and no error', () => {
    expect(scoreFarel([broken('q1', 'infra_error')])).toEqual([])
  })
})
