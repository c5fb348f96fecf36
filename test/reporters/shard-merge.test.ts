import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { itemsOfPart } from '../../harness/benchmark.ts'
import type { ItemRecord } from '../../harness/records/item-record.ts'
import type { RunReport } from '../../reporters/run-report.ts'
import { REPO_ROOT, startVitestRun } from '../support/run-vitest.ts'

/**
 * Three machines each run a shard (`--shard=i/3 --reporter=blob`), a fourth merges the blobs
 * (`--merge-reports`): the scores, the reports and the gate's verdict must be those of one run.
 */
test('three shards merged give the same scores, reports and gate verdict as one run', async () => {
  const work = mkdtempSync(join(tmpdir(), 'shard-merge-'))
  const replies = join(work, 'replies.jsonl')
  const demoReplies = ['sum-2+3:5', 'sum-17+25:41', 'sum-123+877:1000', 'sum--40+2:-38', 'sum-99999+1:7'].map(
    (pair) => {
      const [id, answer] = pair.split(':')
      return `${JSON.stringify({ id, reply: `<ANSWER>${answer}</ANSWER>` })}\n`
    },
  )
  writeFileSync(
    replies,
    readFileSync(join(REPO_ROOT, 'fixtures/gate/farel-candidate-10-worse.jsonl'), 'utf8') + demoReplies.join(''),
  )
  const env = (reports: string) => ({
    MODEL: `replay:${replies}`,
    TESTBENCH_FAREL_PER_CLASS: '5',
    TESTBENCH_GATE_CONFIG: 'fixtures/gate/testbench.gate.json',
    TESTBENCH_REPORT_DIR: join(work, reports),
  })
  const files = ['--project', 'suites', 'suites/demo', 'suites/farel']

  const [single, ...shards] = await Promise.all([
    startVitestRun(files, env('single')).done,
    ...[1, 2, 3].map(
      (index) =>
        startVitestRun(
          [
            ...files,
            `--shard=${index}/3`,
            '--reporter=blob',
            `--outputFile=${join(work, 'blobs', `blob-${index}.json`)}`,
            '--passWithNoTests',
          ],
          env(`shard-${index}`),
        ).done,
    ),
  ])
  for (const shard of shards) {
    expect(shard.output).toContain('Model gate (fixtures/gate/testbench.gate.json): deferred')
    expect(shard.code, shard.output).toBe(0)
  }
  const merged = await startVitestRun(['--merge-reports', join(work, 'blobs')], env('merged')).done

  expect(single.output).toContain('Model gate (fixtures/gate/testbench.gate.json): FAILED')
  expect(merged.code).toBe(single.code)
  expect(gateOutput(merged.output)).toBe(gateOutput(single.output))
  expect(scoresOutput(merged.output)).toBe(scoresOutput(single.output))
  const verdict = (dir: string) => ({
    ...JSON.parse(readFileSync(join(work, dir, 'gate.json'), 'utf8')),
    decidedAt: undefined,
  })
  expect(verdict('merged')).toEqual(verdict('single'))

  for (const suite of ['demo', 'farel']) {
    const singleReport = reportIn(join(work, 'single', suite))
    const mergedReport = reportIn(join(work, 'merged', suite))
    expect(mergedReport.report.complete).toBe(true)
    expect(withoutTimes(mergedReport.report)).toEqual(withoutTimes(singleReport.report))
    expect(mergedReport.lines).toEqual(singleReport.lines)
    expect(mergedReport.summary).toBe(singleReport.summary)
  }
  // Each shard's own reports say that they cover that shard only.
  const shardReports = [1, 2, 3].flatMap((index) =>
    ['demo', 'farel'].flatMap((suite) => shardReportsIn(join(work, `shard-${index}`, suite))),
  )
  expect(shardReports.length).toBeGreaterThan(0)
  for (const { file, report } of shardReports) {
    expect(file).toMatch(/__shard-[123]-of-3\.json$/)
    expect(report.shard?.count).toBe(3)
    // A shard that holds only some of a suite's items says so; one that holds all of them need not.
    if (report.items.length < (report.benchmark === 'farel' ? 45 : 5)) {
      expect(report.complete).toBe(false)
      expect(report.partial).toEqual({
        items: report.items.length,
        of: report.benchmark === 'farel' ? 45 : 5,
        reasons: [`shard ${report.shard?.index}/3`],
      })
    }
  }
  // …and together they cover the set: FaRel's 45 quizzes (5 per class) over its part files.
  const farelShards = shardReports.filter(({ report }) => report.benchmark === 'farel')
  expect(farelShards.map(({ report }) => report.partial?.of)).toEqual(farelShards.map(() => 45))
  expect(farelShards.reduce((total, { report }) => total + (report.partial?.items ?? 0), 0)).toBe(45)
}, 120_000)

test('a suite split into part files declares each item in exactly one part, the parts differing in size by one at most', () => {
  const items = Array.from({ length: 452 }, (_, index) => index)
  const parts = [1, 2, 3, 4].map((index) => itemsOfPart(items, { index, count: 4 }))
  expect(parts.flat()).toEqual(items)
  expect(parts.map((part) => part.length)).toEqual([113, 113, 113, 113])
  expect([1, 2, 3].map((index) => itemsOfPart(items.slice(0, 5), { index, count: 3 }))).toEqual([[0], [1, 2], [3, 4]])
  expect(itemsOfPart([], { index: 2, count: 2 })).toEqual([])
  expect(() => itemsOfPart(items, { index: 5, count: 4 })).toThrow(
    'benchmark part 5 of 4: the count must be a whole number of at least 1, and the index one from 1 to the count.',
  )
})

function reportIn(dir: string): { report: RunReport; lines: string[]; summary: string } {
  const [json] = readdirSync(dir).filter((name) => name.endsWith('.json'))
  if (!json) throw new Error(`no JSON report in ${dir}`)
  const base = join(dir, json.replace(/\.json$/, ''))
  const lines = readFileSync(`${base}.jsonl`, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.stringify(recordWithoutTimes(JSON.parse(line))))
    .sort()
  return {
    report: JSON.parse(readFileSync(`${base}.json`, 'utf8')),
    lines,
    summary: readFileSync(`${base}.txt`, 'utf8'),
  }
}

function shardReportsIn(dir: string): Array<{ file: string; report: RunReport }> {
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .map((name) => ({ file: name, report: JSON.parse(readFileSync(join(dir, name), 'utf8')) }))
  } catch {
    return []
  }
}

/** A report less what differs between any two runs: clock times and durations. */
function withoutTimes(report: RunReport): unknown {
  return { ...report, startedAt: undefined, endedAt: undefined, items: report.items.map(recordWithoutTimes) }
}

function recordWithoutTimes(record: ItemRecord): ItemRecord {
  const { startedAt: _started, durationMs: _duration, ...rest } = record
  return rest
}

/** The verdict, which here ends with farel's fail → pass line (Vitest's stderr may follow it at once). */
function gateOutput(output: string): string {
  const start = output.indexOf('Model gate (')
  return output.slice(start, output.indexOf('\n', output.indexOf('fail → pass (', start)))
}

function scoresOutput(output: string): string {
  return output.slice(output.indexOf('\ndemo: scores'), output.indexOf('\nreports: '))
}
