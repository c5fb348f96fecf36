import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import type { ItemRecord } from '../../../harness/records/item-record.ts'
import type { Outcome } from '../../../adapters/outcome.ts'
import { leaderboard, leaderboardMarkdown, type SavedRun } from '../../../reporters/leaderboard/leaderboard.ts'
import { buildRunReport, type RunFacts } from '../../../reporters/run-report.ts'
import { REPO_ROOT } from '../../support/run-vitest.ts'

function run(model: string, outcomes: Outcome[], endedAt: string, facts: Partial<RunFacts> = {}): SavedRun {
  const items: ItemRecord[] = outcomes.map((outcome, index) => ({
    suite: 'demo',
    itemId: `sum-${index}`,
    model,
    provider: 'replay',
    sample: 0,
    outcome,
  }))
  // The saved scores are stale on purpose: the leaderboard scores the items again.
  const report = buildRunReport(items, [], { complete: true, endedAt: new Date(endedAt), ...facts })
  return { file: `${endedAt}__${model}.json`, report }
}

const runs = [
  run('old-model', ['passed', 'wrong_answer'], '2026-01-01T10:00:00Z'),
  run('old-model', ['passed', 'passed'], '2026-01-02T10:00:00Z'),
  run('new-model', ['passed', 'wrong_answer', 'wrong_answer', 'passed'], '2026-01-03T10:00:00Z'),
  run('crashed-model', ['passed'], '2026-01-04T10:00:00Z', { complete: false }),
  run('sharded-model', ['passed'], '2026-01-05T10:00:00Z', { shard: { index: 1, count: 2 } }),
]

test("the leaderboard ranks each model's latest complete run, in the suite's own columns, scored again from the items", () => {
  expect(leaderboardMarkdown('demo', runs)).toBe(
    [
      '# demo leaderboard',
      '',
      'The latest complete run of each model, best first: 5 saved run(s) read, 2 left out (interrupted, or one shard of a split run).',
      '',
      '| Model | demo pass rate | Run |',
      '| --- | --- | --- |',
      '| old-model | 100.00% | 2026-01-02 10:00 |',
      '| new-model | 50.00% | 2026-01-03 10:00 |',
      '',
    ].join('\n'),
  )
})

test('one command writes LEADERBOARD.md beside the saved reports of every suite', () => {
  const directory = mkdtempSync(join(tmpdir(), 'leaderboard-'))
  mkdirSync(join(directory, 'demo'))
  for (const { file, report } of runs) writeFileSync(join(directory, 'demo', file), JSON.stringify(report))
  writeFileSync(join(directory, 'demo', 'not-a-report.json'), '{}')
  const output = execFileSync(process.execPath, ['scripts/leaderboard.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, TESTBENCH_REPORT_DIR: directory },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const written = readFileSync(join(directory, 'demo', 'LEADERBOARD.md'), 'utf8')
  expect(written).toContain('| old-model | 100.00% | 2026-01-02 10:00 |')
  expect(output).toContain(written)
})

test('a run whose headline score judged no item is unranked, after every ranked run, with its reason, never as 0', () => {
  const board = leaderboard('demo', [
    run('left-out-model', ['provider_error', 'provider_error'], '2026-01-01T10:00:00Z'),
    run('weak-model', ['wrong_answer', 'wrong_answer'], '2026-01-02T10:00:00Z'),
    run('good-model', ['passed', 'wrong_answer'], '2026-01-03T10:00:00Z'),
  ])
  expect(board.entries.map((entry) => entry.run.report.model.label)).toEqual([
    'good-model',
    'weak-model',
    'left-out-model',
  ])
  expect(board.ranked).toBe(2)
  expect(board.entries[2]?.unranked).toMatch(/^2 provider_error/)
  expect(board.rows.map((row) => [row['Model'], row['demo pass rate'], row['Unranked']])).toEqual([
    ['good-model', '50.00%', undefined],
    ['weak-model', '0.00%', undefined],
    ['left-out-model', 'no items were judged', expect.stringMatching(/^2 provider_error \(not the model's fault/)],
  ])
  expect(board.note).toMatch(/, then 1 unranked: no items were judged\.$/)
})
