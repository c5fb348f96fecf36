/**
 * A score over no item is no score: a run whose items were all left out (not asked for the cost limit, provider
 * errors) says "no items were judged" and why in its summary, its JSON report, `compare` and the gate, never
 * `0.00 (solved 0/0)`.
 */
import { describe, expect, test } from 'vitest'
import type { Outcome } from '../../adapters/outcome.ts'
import type { ItemRecord } from '../../harness/records/item-record.ts'
import { compareReports, comparisonMarkdown } from '../../reporters/saved-reports/compare.ts'
import { evaluateGate, gateText } from '../../reporters/gate/gate.ts'
import { buildRunReport, summaryText } from '../../reporters/run-report.ts'
import { withIntervals } from '../../reporters/statistics/score-interval.ts'
import { scorerFor } from '../../reporters/scorers.ts'

function records(outcome: Outcome, count: number, notAsked = false): ItemRecord[] {
  return Array.from({ length: count }, (_, index) => ({
    suite: 'demo',
    itemId: `item-${index}`,
    model: 'openai:fake',
    provider: 'openai',
    sample: 0,
    outcome,
    ...(notAsked ? { notAsked: 'cost_limit' as const } : {}),
  }))
}

/** As the score reporter builds it at the end of a run: each score with its 95% interval. */
function reportOf(items: ItemRecord[]) {
  const scores = withIntervals(scorerFor('demo')(items), items, scorerFor('demo'))
  return buildRunReport(items, scores, { complete: true, endedAt: new Date(0) })
}

describe('a score over no item', () => {
  const leftOut = records('provider_error', 45, true)

  test('the summary and the JSON report say no items were judged, and why', () => {
    const report = reportOf(leftOut)
    const text = summaryText(report)
    expect(text).toMatch(/no items were judged: 45 not asked \(the cost limit was reached: raise TESTBENCH_COST_LIMIT/)
    expect(text).not.toMatch(/solved 0\/0|= 0\.00|0\.00%/)
    const [score] = JSON.parse(JSON.stringify(report)).scores as Array<Record<string, unknown>>
    expect(score).toMatchObject({ display: 'no items were judged', noItems: expect.stringMatching(/45 not asked/) })
    expect(score).not.toHaveProperty('counted')
    expect(score).not.toHaveProperty('interval')
  })

  test('provider errors are a reason too; a run with a judged item keeps its score', () => {
    expect(summaryText(reportOf(records('provider_error', 3)))).toMatch(/no items were judged: 3 provider_error/)
    const some = [
      ...records('passed', 1),
      ...records('provider_error', 2).map((each) => ({ ...each, itemId: `x${each.itemId}` })),
    ]
    expect(summaryText(reportOf(some))).toMatch(/= 100\.00% \(solved 1\/1\)/)
  })

  test('compare shows no difference to a score over no item, and says why', () => {
    const a = { file: 'a.json', report: reportOf(leftOut) }
    const b = { file: 'b.json', report: reportOf(records('passed', 45)) }
    const comparison = compareReports(a, b)
    const [delta] = comparison.scores
    expect(delta?.difference).toBeUndefined()
    expect(delta?.a?.display).toMatch(/^no items were judged \(45 not asked/)
    expect(comparisonMarkdown(comparison)).toMatch(/\| demo pass rate \| no items were judged \(45 not asked/)
  })

  test('the gate: a minimum is not met by a score over no item, and the verdict says why', () => {
    const verdict = evaluateGate({
      config: {
        file: 'testbench.gate.json',
        alpha: 0.05,
        suites: { demo: { minimum: { 'demo pass rate': 0 }, models: {} } },
      },
      records: leftOut,
      problems: [],
    })
    expect(verdict.passed).toBe(false)
    expect(gateText(verdict)).toMatch(/demo pass rate = no items were judged \(45 not asked/)
  })
})
