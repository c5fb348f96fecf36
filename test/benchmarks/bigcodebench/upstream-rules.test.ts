/**
 * The official evaluation's rules, each shown by replaying a sample file in the form
 * `bigcodebench.generate` writes (`{task_id, solution}`, sanitized and calibrated) through the suite,
 * over made-up tasks served as a release of their own (fixtures/bigcodebench/make-tasks.py writes
 * upstream-rules.jsonl; the samples are upstream-rules--bigcodebench-complete--sanitized-calibrated.jsonl).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeEach, describe, expect, test } from 'vitest'
import { readJsonLines } from '../../../harness/datasets/dataset-file.ts'
import type { ItemRecord } from '../../../harness/records/item-record.ts'
import { scoreBigCodeBench } from '../../../suites/bigcodebench/score.ts'
import { runSuiteForRecords } from '../../support/run-vitest.ts'
import { writeStringParquet } from '../../support/parquet-fixture.ts'
import { skipWithoutSandbox } from '../../support/sandbox-available.ts'

const FIXTURES = new URL('../../../fixtures/bigcodebench/', import.meta.url)
const SAMPLES = fileURLToPath(new URL('upstream-rules--bigcodebench-complete--sanitized-calibrated.jsonl', FIXTURES))
const VERSION = 'v0.9.9'

describe('BigCodeBench as bigcodebench.evaluate scores a calibrated sample file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bigcodebench-rules-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const runs = new Map<string, Promise<{ records: ItemRecord[]; output: string; failures: string[] }>>()

  /** The sample file through the suite, the made-up tasks served as release v0.9.9; once per set of knobs. */
  function replay(
    knobs: Record<string, string> = {},
  ): Promise<{ records: ItemRecord[]; output: string; failures: string[] }> {
    const key = JSON.stringify(knobs)
    let run = runs.get(key)
    if (run === undefined) {
      run = (async () => {
        const rows = await readJsonLines(fileURLToPath(new URL('upstream-rules.jsonl', FIXTURES)))
        const sha256 = await writeStringParquet(
          join(dir, 'data', 'bigcodebench', `BigCodeBench-${VERSION}.parquet`),
          rows,
        )
        const { records, output, results } = await runSuiteForRecords('bigcodebench', {
          TESTBENCH_DATA_DIR: join(dir, 'data'),
          TESTBENCH_BIGCODEBENCH_VERSION: VERSION,
          TESTBENCH_BIGCODEBENCH_SHA256: sha256,
          MODEL: `replay:${SAMPLES}`,
          SAMPLES: '2',
          ...knobs,
        })
        // What Vitest prints for each failed item: its assertion message.
        const failures = results.flatMap((result) => (result as { failureMessages?: string[] }).failureMessages ?? [])
        return { records, output, failures }
      })()
      runs.set(key, run)
    }
    return run
  }
  const outcomes = (records: readonly ItemRecord[], task: number): string[] =>
    records
      .filter((record) => record.itemId === `BigCodeBench/${task}`)
      .sort((a, b) => a.sample - b.sample)
      .map((record) => record.outcome ?? 'none')

  beforeEach(async (context) => {
    await skipWithoutSandbox(context)
  })

  test('the code prompt goes before a calibrated sample: one that leans on its imports passes; without --calibrated it fails', async () => {
    const { records, output } = await replay()
    expect(outcomes(records, 9101), output.slice(-2000)).toEqual(['passed', 'passed'])
    const uncalibrated = await replay({
      TESTBENCH_BIGCODEBENCH_CALIBRATED: 'off',
      TESTBENCH_BIGCODEBENCH_TASKS: '9101',
    })
    expect(outcomes(uncalibrated.records, 9101)).toEqual(['runtime_error', 'runtime_error'])
    expect(uncalibrated.records[0]?.output).toContain("NameError: name 'math' is not defined")
  }, 900_000)

  test("upstream's 240 s: a sample that takes 11 s passes; each task is reported as it ends", async () => {
    const { records } = await replay()
    expect(outcomes(records, 9102)).toEqual(['passed', 'wrong_answer'])
    const slow = records.find((record) => record.itemId === 'BigCodeBench/9102' && record.sample === 0)
    expect(slow?.scoring).toMatchObject({ timeLimitMs: 241_000 })
    expect(slow?.durationMs).toBeGreaterThanOrEqual(11_000)
    // A program per sandbox run: the fast task does not wait for the slow one.
    for (const fast of records.filter((record) => record.itemId === 'BigCodeBench/9103'))
      expect(fast.durationMs).toBeLessThan(slow?.durationMs ?? 0)
  }, 900_000)

  test('a task whose canonical solution fails here is excluded, and counts as failed in the score over all tasks', async () => {
    const { records } = await replay()
    expect(records.some((record) => record.itemId === 'BigCodeBench/9105')).toBe(false)
    expect(outcomes(records, 9104)).toEqual(['wrong_answer', 'wrong_answer'])
    expect(outcomes(records, 9110)).toEqual(['passed', 'passed'])
    // As bigcodebench.evaluate: pass@k per task from n = 2 samples and c passed, averaged over tasks.
    // c by task: 9101 2, 9102 1, 9103 2, 9104 0, 9110 2, 9107 0; 9105 (excluded here) 0.
    const scores = new Map(scoreBigCodeBench(records).map((score) => [score.name, score]))
    const name = `BigCodeBench-Complete ${VERSION}`
    expect(scores.get(`${name} pass@1`)?.value).toBeCloseTo((1 + 0.5 + 1 + 0 + 1 + 0) / 6, 12)
    expect(scores.get(`${name} pass@1 over all tasks`)?.value).toBeCloseTo((1 + 0.5 + 1 + 0 + 1 + 0 + 0) / 7, 12)
    expect(scores.get(`${name} pass@2`)?.value).toBeCloseTo(4 / 6, 12)
    expect(scores.get(`${name} pass@2 over all tasks`)?.value).toBeCloseTo(4 / 7, 12)
    expect(scores.get(`${name} pass@1`)?.excluded).toEqual([{ itemId: 'BigCodeBench/9105', reason: 'missing library' }])
  }, 900_000)

  test('forty failing methods that print 12 KB each: the record and the failure log stay small', async () => {
    const { records, failures } = await replay()
    const noisy = records.filter((record) => record.itemId === 'BigCodeBench/9107')
    expect(noisy.map((record) => record.outcome)).toEqual(['wrong_answer', 'wrong_answer'])
    for (const record of noisy) expect(record.output?.length).toBeLessThan(24_000)
    const messages = failures.filter((message) => message.includes('BigCodeBench/9107:'))
    expect(messages).toHaveLength(2)
    for (const message of messages) expect(message.split('\n')[0]?.length).toBeLessThan(1000)
  }, 900_000)

  test('the sample file is the one upstream would score: {task_id, solution} lines, two per task', () => {
    const lines = readFileSync(SAMPLES, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines.every((line) => Object.keys(line).sort().join() === 'solution,task_id')).toBe(true)
    expect(lines).toHaveLength(14)
  })
})
