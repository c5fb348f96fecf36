import { describe, expect, test } from 'vitest'
import type { ItemRecord } from '../../../harness/records/item-record.ts'
import type { Outcome } from '../../../adapters/outcome.ts'
import type { GateConfig } from '../../../reporters/gate/gate-config.ts'
import { evaluateGate, gateMarkdown, gateText } from '../../../reporters/gate/gate.ts'
import { buildRunReport } from '../../../reporters/run-report.ts'

function records(outcomes: ReadonlyArray<Outcome | undefined>, model = 'candidate', suite = 'demo'): ItemRecord[] {
  return outcomes.map((outcome, index) => ({
    suite,
    itemId: `item-${index}`,
    model,
    provider: 'replay',
    sample: 0,
    ...(outcome ? { outcome } : {}),
  }))
}

function configWith(gate: Partial<GateConfig['suites'][string]>, model?: string): GateConfig {
  return {
    file: 'testbench.gate.json',
    alpha: 0.05,
    suites: { demo: { minimum: {}, models: {}, ...gate } },
    ...(model ? { model } : {}),
  }
}

function baselineOf(items: ItemRecord[]): NonNullable<GateConfig['suites'][string]['baseline']> {
  return { file: 'baselines/demo.json', report: buildRunReport(items, [], { complete: true, endedAt: new Date(0) }) }
}

const passed = (n: number): Outcome[] => Array.from({ length: n }, () => 'passed')
const wrong = (n: number): Outcome[] => Array.from({ length: n }, () => 'wrong_answer')

describe('minimums', () => {
  test('a score at or above its minimum passes, below fails', () => {
    const run = records([...passed(6), ...wrong(4)])
    expect(
      evaluateGate({ config: configWith({ minimum: { 'demo pass rate': 0.6 } }), records: run, problems: [] }).passed,
    ).toBe(true)
    const verdict = evaluateGate({
      config: configWith({ minimum: { 'demo pass rate': 0.61 } }),
      records: run,
      problems: [],
    })
    expect(verdict.passed).toBe(false)
    expect(gateText(verdict)).toContain('✗ demo pass rate = 60.00% < minimum 0.61')
  })

  test('a minimum on a score the suite does not have fails and says so', () => {
    const verdict = evaluateGate({
      config: configWith({ minimum: { 'pass@1': 0.5 } }),
      records: records(passed(3)),
      problems: [],
    })
    expect(verdict.passed).toBe(false)
    expect(gateText(verdict)).toContain('pass@1: the suite has no score of that name')
  })
})

describe('baseline', () => {
  const before = records([...passed(30), ...wrong(10)], 'current')

  test('ten items that flip from pass to fail fail the gate, and are listed', () => {
    const now = records([...wrong(10), ...passed(20), ...wrong(10)])
    const verdict = evaluateGate({ config: configWith({ baseline: baselineOf(before) }), records: now, problems: [] })
    expect(verdict.passed).toBe(false)
    const check = verdict.groups[0]?.baseline
    expect(check).toMatchObject({ compared: 40, failToPass: [], pValue: 2 / 1024, baselineModel: 'current' })
    expect(check?.passToFail).toEqual(Array.from({ length: 10 }, (_, index) => `item-${index}`))
    const text = gateText(verdict)
    expect(text).toContain(
      '40 items compared, −25.0 points (95 % interval −40.2 to −14.0), p = 0.0020, 10 items pass → fail, 0 fail → pass; exact McNemar p < α = 0.05: significantly worse',
    )
    expect(text).toContain('pass → fail (10):\n        item-0\n        item-1')
    expect(gateMarkdown(verdict)).toContain('  - pass → fail (10): `item-0`, `item-1`, `item-2`')
    expect(gateMarkdown(verdict)).toContain('  - fail → pass (0): none')
  })

  test('baseline items that did not run fail the gate, and are listed: a run of 30 of its 40 items proves nothing about the other 10', () => {
    const now = records([...passed(30)])
    const verdict = evaluateGate({ config: configWith({ baseline: baselineOf(before) }), records: now, problems: [] })
    expect(verdict.passed).toBe(false)
    const missing = Array.from({ length: 10 }, (_, index) => `item-${30 + index}`)
    expect(verdict.groups[0]?.baseline).toMatchObject({ compared: 30, passToFail: [], failToPass: [], missing })
    expect(gateText(verdict)).toContain(
      `✗ 10 item(s) of the baseline did not run, so the run cannot be compared with it (filtered out, or a shard not merged):\n        item-30\n`,
    )
    expect(gateMarkdown(verdict)).toContain(
      '❌ 10 item(s) of the baseline did not run, so the run cannot be compared with it (filtered out, or a shard not merged): `item-30`, `item-31`',
    )
  })

  test('maxDrop puts the verdict on the paired interval: a drop of more than N points with 95% confidence fails', () => {
    const now = records([...wrong(10), ...passed(20), ...wrong(10)])
    const judged = (maxDrop: number) =>
      evaluateGate({ config: configWith({ baseline: baselineOf(before), maxDrop }), records: now, problems: [] })
    // −25 points, 95% interval −40.2 to −14.0: more than 10 points lost for sure, not more than 20.
    const strict = judged(10)
    expect(strict.passed).toBe(false)
    expect(strict.groups[0]?.baseline?.difference).toMatchObject({ points: -25, designEffect: 1 })
    expect(strict.groups[0]?.baseline?.difference?.high).toBeCloseTo(-14.0, 1)
    expect(gateText(strict)).toContain(
      'the whole interval is below −10 points: dropped by more than maxDrop = 10 points',
    )
    const tolerant = judged(20)
    expect(tolerant.passed).toBe(true)
    expect(gateText(tolerant)).toContain('not a drop of more than maxDrop = 20 points (the interval reaches above −20)')
    // One flip in 40 is significant neither way; with maxDrop 0 it still passes: the interval reaches above 0.
    const oneFlip = records([...wrong(1), ...passed(29), ...wrong(10)])
    expect(
      evaluateGate({ config: configWith({ baseline: baselineOf(before), maxDrop: 0 }), records: oneFlip, problems: [] })
        .passed,
    ).toBe(true)
  })

  test('one flip is not significant, although the score is lower', () => {
    const now = records([...wrong(1), ...passed(29), ...wrong(10)])
    const verdict = evaluateGate({ config: configWith({ baseline: baselineOf(before) }), records: now, problems: [] })
    expect(verdict.passed).toBe(true)
    expect(verdict.groups[0]?.baseline).toMatchObject({ passToFail: ['item-0'], failToPass: [], pValue: 1 })
  })

  test('flips both ways cancel out: only the balance of flips counts', () => {
    const now = records([...wrong(10), ...passed(20), ...passed(10)])
    const verdict = evaluateGate({ config: configWith({ baseline: baselineOf(before) }), records: now, problems: [] })
    expect(verdict.passed).toBe(true)
    expect(verdict.groups[0]?.baseline?.passToFail).toHaveLength(10)
    expect(verdict.groups[0]?.baseline?.failToPass).toHaveLength(10)
    expect(verdict.groups[0]?.baseline?.pValue).toBe(1)
  })

  test('items are paired by id, variant and sample; items the baseline lacks are counted apart', () => {
    const withVariant = before.map((record) => ({ ...record, variant: 'python' }))
    const now = [...withVariant.slice(0, 20), { ...withVariant[0]!, sample: 1, outcome: 'wrong_answer' as const }]
    const check = evaluateGate({
      config: configWith({ baseline: baselineOf(withVariant) }),
      records: now,
      problems: [],
    }).groups[0]?.baseline
    expect(check).toMatchObject({ compared: 20, notInBaseline: 1, passToFail: [] })
  })

  test('a baseline that shares no item with the run fails: it was made with other options', () => {
    const verdict = evaluateGate({
      config: configWith({ baseline: baselineOf(before) }),
      records: records(passed(3), 'candidate', 'demo').map((record) => ({
        ...record,
        itemId: `other-${record.itemId}`,
      })),
      problems: [],
    })
    expect(verdict.passed).toBe(false)
    expect(gateText(verdict)).toContain('shares no judged item with this run')
  })
})

describe('what always fails the gate', () => {
  test('provider and infrastructure errors, even with every minimum met; they are not paired as failures', () => {
    const run = records([...passed(9), 'provider_error'])
    const verdict = evaluateGate({
      config: configWith({ minimum: { 'demo pass rate': 0.5 }, baseline: baselineOf(records(passed(10), 'current')) }),
      records: run,
      problems: [],
    })
    expect(verdict.passed).toBe(false)
    expect(verdict.groups[0]?.baseline?.passToFail).toEqual([])
    expect(verdict.groups[0]?.errors).toEqual([{ itemId: 'item-9', outcome: 'provider_error' }])
    expect(gateText(verdict)).toContain("1 item(s) hit an error that is not the model's fault")
  })

  test('items that never finished', () => {
    const verdict = evaluateGate({
      config: configWith({ minimum: { 'demo pass rate': 0.1 } }),
      records: records([...passed(3), undefined]),
      problems: [],
    })
    expect(verdict.passed).toBe(false)
    expect(verdict.groups[0]?.unfinished).toEqual(['item-3'])
  })

  test('an empty run', () => {
    const verdict = evaluateGate({
      config: configWith({ minimum: { 'demo pass rate': 0.1 } }),
      records: [],
      problems: [],
    })
    expect(verdict.passed).toBe(false)
    expect(verdict.problems).toContain('no benchmark item ran: an empty run proves nothing about the model.')
  })

  test('a gated suite that did not run, and a gated model that did not run', () => {
    const config = { ...configWith({ minimum: { 'demo pass rate': 0.1 } }, 'openai:new') }
    config.suites.farel = { minimum: { 'FaRel-3': 1 }, models: {} }
    const verdict = evaluateGate({ config, records: records(passed(2)), problems: [] })
    expect(verdict.passed).toBe(false)
    expect(verdict.problems).toEqual([
      'suite farel is gated in testbench.gate.json but did not run: run it too, or take it out of the config.',
      'the gate is for model openai:new (testbench.gate.json), which did not run: set MODEL=openai:new.',
    ])
  })

  test('problems the reporter found in the run (unhandled errors, files that did not load…)', () => {
    const verdict = evaluateGate({
      config: configWith({ minimum: { 'demo pass rate': 0.1 } }),
      records: records(passed(2)),
      problems: ['1 unhandled error(s), the first: Error: boom'],
    })
    expect(verdict.passed).toBe(false)
    expect(gateText(verdict)).toContain('✗ 1 unhandled error(s), the first: Error: boom')
  })
})
