import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { ItemRecord } from '../../../harness/records/item-record.ts'
import type { Comparison } from '../../../reporters/saved-reports/compare.ts'
import { readSavedReport } from '../../../reporters/saved-reports/saved-report.ts'
import { tangoInterval } from '../../../reporters/statistics/paired-difference.ts'
import { openaiChatHandler } from '../../support/fake-openai.ts'
import { startLoopbackServer } from '../../support/loopback-server.ts'
import { REPO_ROOT, startVitestRun } from '../../support/run-vitest.ts'

/**
 * Two FaRel runs from a fake OpenAI server: model-a always answers option 1, model-b always option 2,
 * so an item passes for A exactly when its correct option is 1 and for B when it is 2. Every number
 * `compare` prints is checked against what follows from the quizzes' correct options, counted here.
 */

let server: Awaited<ReturnType<typeof startLoopbackServer>>
let reports: string
const PER_CLASS = 4

beforeAll(async () => {
  server = await startLoopbackServer(
    openaiChatHandler(['model-a', 'model-b'], (request) =>
      JSON.parse(request.body).model === 'model-a' ? 'Thinking… <ANSWER>1</ANSWER>' : '<ANSWER>2</ANSWER>',
    ),
  )
  reports = join(mkdtempSync(join(tmpdir(), 'compare-')), 'reports')
  const env = {
    OPENAI_BASE_URL: `${server.url}/v1`,
    TESTBENCH_CACHE: 'off',
    TESTBENCH_FAREL_PER_CLASS: String(PER_CLASS),
    TESTBENCH_GATE_CONFIG: 'off',
    TESTBENCH_REPORT_DIR: reports,
  }
  const both = await startVitestRun(['--project', 'suites', 'suites/farel'], {
    ...env,
    MODEL: 'openai:model-a,openai:model-b',
  }).done
  expect(reportFiles(), both.output).toHaveLength(2)
  // A later run of model-b on the "child" quizzes only: a partial report.
  const childOnly = await startVitestRun(['--project', 'suites', 'suites/farel', '-t', 'child'], {
    ...env,
    MODEL: 'openai:model-b',
  }).done
  expect(reportFiles(), childOnly.output).toHaveLength(3)
}, 120_000)

afterAll(() => server?.close())

function reportFiles(): string[] {
  return readdirSync(join(reports, 'farel'))
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => join(reports, 'farel', name))
}

function compare(a: string, b: string, ...flags: string[]): string {
  return execFileSync(process.execPath, ['scripts/compare.ts', a, b, ...flags], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  })
}

function signed(points: number): string {
  return `${points < 0 ? '−' : '+'}${Math.abs(points).toFixed(1)}`
}

function correctOption(record: ItemRecord): number {
  const correct = record.scoring?.['correct']
  if (typeof correct !== 'number') throw new Error(`${record.itemId} has no correct option`)
  return correct
}

/** The two-sided exact McNemar p-value, from binomial coefficients in whole numbers: min(1, 2 · Σ_{i ≤ min(b, c)} C(b + c, i) / 2^(b + c)). */
function mcnemarByHand(b: number, c: number): number {
  const n = b + c
  let choose = 1n
  let tail = 0n
  for (let i = 0; i <= Math.min(b, c); i++) {
    tail += choose
    choose = (choose * BigInt(n - i)) / BigInt(i + 1)
  }
  return Math.min(1, (2 * Number(tail)) / 2 ** n)
}

describe('npm run compare on two FaRel runs', () => {
  test('scores, intervals, the exact McNemar test, both flip lists and the per-relation deltas agree with the quizzes', () => {
    const pick = (model: string) =>
      reportFiles().find((file) => readSavedReport(file).model.label === model && readSavedReport(file).complete) ?? ''
    const a = pick('openai:model-a')
    const b = pick('openai:model-b')
    expect([a, b]).not.toContain('')
    const items = readSavedReport(a).items
    const passToFail = items.filter((record) => correctOption(record) === 1).map((record) => record.itemId)
    const failToPass = items.filter((record) => correctOption(record) === 2).map((record) => record.itemId)
    // The quiz set is the published one (seeded): 9 classes × 4 quizzes, 8 with option 1 correct, 14 with option 2.
    expect(items).toHaveLength(9 * PER_CLASS)
    expect([passToFail.length, failToPass.length]).toEqual([8, 14])

    const comparison = JSON.parse(compare(a, b, '--json')) as Comparison
    expect(comparison.paired.compared).toBe(36)
    expect(comparison.paired.passToFail.sort()).toEqual([...passToFail].sort())
    expect(comparison.paired.failToPass.sort()).toEqual([...failToPass].sort())
    expect(comparison.paired.bothFailed).toBe(36 - 8 - 14)
    expect(comparison.paired.bothPassed).toBe(0)
    // By hand: 2 · Σ_{i≤8} C(22, i) / 2^22 = 2 · 600370 / 4194304 = 0.286278…
    expect(comparison.paired.pValue).toBeCloseTo(mcnemarByHand(8, 14), 12)
    expect(comparison.paired.pValue).toBeCloseTo((2 * 600_370) / 4_194_304, 12)
    // B − A on the 36 paired items, with Tango's paired interval of (14 − 8) / 36.
    const tango = tangoInterval(14, 8, 36)
    expect(comparison.paired.difference).toEqual({
      points: (100 * 6) / 36,
      low: 100 * tango.low,
      high: 100 * tango.high,
      designEffect: 1,
    })

    // Per relation: A's accuracy is the share of the class's quizzes whose correct option is 1, B's of those with 2.
    const relations = [...new Set(items.map((record) => String(record.scoring?.['relation'])))]
    expect(relations).toHaveLength(9)
    for (const relation of relations) {
      const ofClass = items.filter((record) => record.scoring?.['relation'] === relation)
      const ones = ofClass.filter((record) => correctOption(record) === 1).length
      const twos = ofClass.filter((record) => correctOption(record) === 2).length
      const group = comparison.groups.find((candidate) => candidate.by === 'relation' && candidate.value === relation)
      expect(group, relation).toEqual({
        by: 'relation',
        value: relation,
        a: { passed: ones, judged: PER_CLASS },
        b: { passed: twos, judged: PER_CLASS },
        difference: (100 * twos) / PER_CLASS - (100 * ones) / PER_CLASS,
      })
    }
    // FaRel-3 is the mean of the class accuracies, as the scorer prints it: A 8/36 spread over the classes, B 14/36.
    const farel = comparison.scores.find((score) => score.name === 'FaRel-3')
    const meanAccuracy = (option: number) =>
      relations.reduce(
        (sum, relation) =>
          sum +
          (100 *
            items.filter((record) => record.scoring?.['relation'] === relation && correctOption(record) === option)
              .length) /
            PER_CLASS,
        0,
      ) / relations.length
    expect(farel?.a?.value).toBeCloseTo(meanAccuracy(1), 2)
    expect(farel?.b?.value).toBeCloseTo(meanAccuracy(2), 2)
    expect(farel?.difference).toBeCloseTo(meanAccuracy(2) - meanAccuracy(1), 2)
    for (const side of [farel?.a, farel?.b]) {
      expect(side?.interval?.low).toBeLessThanOrEqual(side?.value ?? Number.NaN)
      expect(side?.interval?.high).toBeGreaterThanOrEqual(side?.value ?? Number.NaN)
      expect(side?.intervalDisplay).toMatch(/^\d+\.\d\d–\d+\.\d\d$/)
      expect(side?.interval?.method).toBe('stratified Wilson')
    }
    expect(comparison.outcomes).toEqual([
      { outcome: 'passed', a: 8, b: 14, difference: 6 },
      { outcome: 'wrong_answer', a: 28, b: 22, difference: -6 },
    ])
    expect(comparison.onlyInA).toEqual([])
    expect(comparison.b.tokens).toEqual({
      prompt: 36 * 11,
      completion: 36 * 7,
      completionPerSecond: expect.any(Number),
    })

    const markdown = compare(a, b)
    expect(markdown).toContain(
      `B − A: +16.7 points (95 % interval ${signed(100 * tango.low)} to ${signed(100 * tango.high)}), p = 0.2863, 8 items pass → fail, 14 fail → pass`,
    )
    expect(markdown).toContain(
      `8 pass → fail, 14 fail → pass. Exact McNemar test on the 22 that flipped: p = 0.2863 (two-sided).`,
    )
    for (const item of passToFail) expect(markdown).toContain(`- ${item}\n`)
    expect(markdown).toMatch(/\| relation = child \| \d+\.\d\d% \(\d\/4\) \| \d+\.\d\d% \(\d\/4\) \| [+−]\d+\.\d\d \|/)
  })

  test('items only one report has are listed, never dropped, and a partial run says so', () => {
    const a = reportFiles().find((file) => readSavedReport(file).model.label === 'openai:model-a') ?? ''
    const partial = reportFiles().find((file) => readSavedReport(file).partial !== undefined) ?? ''
    const comparison = JSON.parse(compare(a, partial, '--json')) as Comparison
    const children = readSavedReport(a)
      .items.filter((record) => record.scoring?.['relation'] === 'child')
      .map((record) => record.itemId)
    expect(comparison.paired.compared).toBe(PER_CLASS)
    expect(comparison.onlyInA).toHaveLength(9 * PER_CLASS - PER_CLASS)
    expect(comparison.onlyInA).not.toContain(children[0])
    expect(comparison.onlyInB).toEqual([])
    expect(comparison.b.coverage).toBe(`partial: ${PER_CLASS} of ${9 * PER_CLASS} items (filtered with -t child)`)
    expect(compare(a, partial)).toContain(`- only in A (${8 * PER_CLASS}): `)
  })

  test('two reports of different suites, or a file that is no report, are one clear error', () => {
    const a = reportFiles()[0] ?? ''
    expect(() => compare(a, join(REPO_ROOT, 'package.json'))).toThrow(
      /package\.json is not a report the score reporter wrote/,
    )
  })
})
