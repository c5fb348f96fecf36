import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import type { Outcome } from '../../adapters/outcome.ts'
import type { ItemRecord } from '../../harness/records/item-record.ts'
import { compareReports } from '../../reporters/saved-reports/compare.ts'
import { flakyItems } from '../../reporters/statistics/flaky-items.ts'
import { buildRunReport, summaryText, type RunReport } from '../../reporters/run-report.ts'
import { savedScores } from '../../reporters/saved-reports/saved-scores.ts'
import { passRate } from '../../reporters/statistics/pass-rate.ts'
import { scorerFor } from '../../reporters/scorers.ts'
import { REPO_ROOT } from '../support/run-vitest.ts'

function samples(itemId: string, outcomes: Outcome[], model = 'm', suite = 'demo'): ItemRecord[] {
  return outcomes.map((outcome, sample) => ({ suite, itemId, model, provider: 'p', sample, outcome }))
}

test('a report written before the new intervals shows the interval it stored, marked as saved', () => {
  const records = [...samples('a', ['passed']), ...samples('b', ['passed']), ...samples('c', ['passed'])]
  const old: RunReport = {
    ...buildRunReport(records, passRate(records), { complete: true, endedAt: new Date(0) }),
    testbench: { version: '0.1.0' },
  }
  // As 0.1.0 saved it: a zero-width bootstrap interval, no method.
  old.scores = old.scores.map((score) => ({ ...score, interval: { low: 1, high: 1 } }))
  const [score] = savedScores(old)
  expect(score?.interval).toEqual({ low: 1, high: 1, asSaved: true })
  expect(summaryText({ ...old, scores: savedScores(old) })).toContain(
    'demo pass rate = 100.00% (solved 3/3), 95% interval 100.00–100.00% (interval as saved)',
  )
  // Written today: today's interval, not marked.
  const today = buildRunReport(records, passRate(records), { complete: true, endedAt: new Date(0) })
  expect(savedScores(today)[0]?.interval).toMatchObject({ method: 'Wilson', high: 1 })
  expect(savedScores(today)[0]?.interval?.low).toBeLessThan(0.5)
  expect(savedScores(today)[0]?.interval?.asSaved).toBeUndefined()
})

test('the gate fixture, a FaRel report saved before, keeps its stored interval or gets today’s', () => {
  const saved = JSON.parse(readFileSync(join(REPO_ROOT, 'fixtures/gate/farel-baseline.json'), 'utf8')) as RunReport
  const [score] = savedScores(saved)
  // It stored none: today's stratified Wilson.
  expect(score?.interval?.method).toBe('stratified Wilson')
  expect(score!.interval!.high).toBeGreaterThan(score!.interval!.low)
})

test('flaky items: samples that disagree, worst (the most even split) first, in the summary and the report', () => {
  const records = [
    ...samples('steady', ['passed', 'passed', 'passed', 'passed']),
    ...samples('mostly', ['passed', 'passed', 'passed', 'wrong_answer']),
    ...samples('split', ['passed', 'wrong_answer', 'timeout', 'passed']),
    ...samples('rarely', ['wrong_answer', 'passed', 'wrong_answer', 'wrong_answer']),
    ...samples('never', ['wrong_answer', 'wrong_answer', 'wrong_answer', 'provider_error']),
  ]
  expect(flakyItems(records)).toEqual([
    { item: 'split', passed: 2, samples: 4 },
    { item: 'rarely', passed: 1, samples: 4 },
    { item: 'mostly', passed: 3, samples: 4 },
  ])
  const report = buildRunReport(records, scorerFor('demo')(records), { complete: true, endedAt: new Date(0) })
  expect(report.flaky).toHaveLength(3)
  const text = summaryText(report)
  expect(text).toContain(
    'flaky: 3 item(s) whose samples disagree, worst first (passed/samples): split 2/4, rarely 1/4, mostly 3/4',
  )
  // pass^k beside the pass rate: pass^2 = mean of C(c,2)/C(n,2) = (1 + 1/2 + 1/6 + 0 + 0) / 5.
  const allOf = report.scores.find((score) => score.name === 'demo pass^2')
  expect(allOf?.value).toBeCloseTo((1 + 0.5 + 1 / 6) / 5, 12)
  expect(text).toMatch(/demo pass\^2 = 33\.3% \(solved 1\/5\), 95% interval \d+\.\d–\d+\.\d%/)
  // k up to the fewest judged samples of an item (a provider error is no sample of the model's).
  expect(report.scores.map((score) => score.name)).toEqual(['demo pass rate', 'demo pass^2', 'demo pass^3'])
  // One sample per item: no flaky list, no pass^k.
  const single = buildRunReport(samples('a', ['passed']), passRate(samples('a', ['passed'])), {
    complete: true,
    endedAt: new Date(0),
  })
  expect(single.flaky).toBeUndefined()
})

test('compare shows pass^k beside pass@k, and the paired difference clusters the samples of one item', () => {
  const run = (model: string, flip: boolean): RunReport => {
    const records = [
      ...samples('a', ['passed', 'passed'], model),
      ...samples('b', flip ? ['passed', 'passed'] : ['passed', 'wrong_answer'], model),
      ...samples('c', ['wrong_answer', 'wrong_answer'], model),
    ]
    return buildRunReport(records, scorerFor('demo')(records), { complete: true, endedAt: new Date(0) })
  }
  const comparison = compareReports(
    { file: 'a.json', report: run('A', false) },
    { file: 'b.json', report: run('B', true) },
  )
  const names = comparison.scores.map((score) => score.name)
  expect(names).toEqual(['demo pass rate', 'demo pass^2'])
  const allOf = comparison.scores.find((score) => score.name === 'demo pass^2')
  expect(allOf?.a?.value).toBeCloseTo(1 / 3, 12)
  expect(allOf?.b?.value).toBeCloseTo(2 / 3, 12)
  expect(comparison.paired.difference?.points).toBeCloseTo(100 / 6, 12)
  expect(comparison.paired.difference?.designEffect).toBeGreaterThan(1)
})
