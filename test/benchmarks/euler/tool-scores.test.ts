import { expect, test } from 'vitest'
import type { Outcome } from '../../../adapters/outcome.ts'
import type { ItemRecord } from '../../../harness/records/item-record.ts'
import { eulerResultsTable } from '../../../suites/euler/results-table.ts'
import { scoreEuler, type Thinking } from '../../../suites/euler/score.ts'

/** Problems 101-104 of the tool batch, worth 4, 2, 1 and 1 point. */
const POINTS: Record<string, number> = { '0101': 4, '0102': 2, '0103': 1, '0104': 1 }

function runOf(
  model: string,
  language: string,
  passed: readonly string[],
  facts: { mode?: 'tool'; thinking?: Thinking },
): ItemRecord[] {
  return Object.keys(POINTS).map((itemId) => ({
    suite: 'euler',
    itemId,
    model,
    provider: 'ollama',
    sample: 0,
    variant: language,
    outcome: (passed.includes(itemId) ? 'passed' : 'no_answer') satisfies Outcome,
    scoring: { points: POINTS[itemId] ?? 0, problem: Number(itemId), era: 'current', parameters: 8, bits: 4, ...facts },
  }))
}

test('tool mode scores over the whole batch, named after its highest problem as upstream keys it', () => {
  // Solved 0101 only: 4 / 4 problems = 1.00, though upstream would divide by the problems recorded so far.
  const scores = scoreEuler([
    ...runOf('ollama:qwen3', 'python', ['0101'], { mode: 'tool' }),
    ...runOf('ollama:qwen3', 'java', ['0101', '0102'], { mode: 'tool' }),
  ])
  expect(scores.map(({ name, display }) => [name, display])).toEqual([
    ['PE-Bench-Python-104-tool', '1.00'],
    ['PE-Bench-Java-104-tool', '1.50'],
    // (4 · 1.00 + 3 · 1.50) / 10
    ['PE-104-tool-Score', '0.85'],
  ])
})

test('one-shot and tool runs, thinking or not, are scored apart and land in their sections, each ranked on its own', () => {
  const records = [
    ...runOf('ollama:small', 'python', ['0103'], {}),
    ...runOf('ollama:qwen3', 'python', ['0101', '0102'], { thinking: 'think' }),
    ...runOf('ollama:qwen3', 'python', ['0102'], { thinking: 'no_think' }),
    ...runOf('ollama:qwen3', 'python', ['0101'], { mode: 'tool', thinking: 'think' }),
    ...runOf('ollama:qwen3', 'python', ['0101', '0102', '0103'], { mode: 'tool', thinking: 'no_think' }),
    ...runOf('ollama:small', 'python', ['0101', '0102', '0103', '0104'], { mode: 'tool' }),
  ]
  const rows = scoreEuler(records).flatMap((score) => (score.columns ? [score.columns] : []))
  const table = eulerResultsTable(rows).map((row) => [
    row.Section ?? '',
    row.Model,
    row['PE-4-Score'] ?? row['PE-104-tool-Score'],
    row['Best Model for Size (GB)'],
  ])
  expect(table).toEqual([
    ['', 'ollama:small', '0.10', '6.00'],
    ['Non-Thinking', 'ollama:qwen3-no_think', '0.20', '6.00'],
    ['Thinking', 'ollama:qwen3-think', '0.60', '6.00'],
    // The best first in each section, and Best Model for Size starts afresh in each.
    ['Non-Thinking Tool Usage', 'ollama:small', '0.80', '6.00'],
    ['Non-Thinking Tool Usage', 'ollama:qwen3-no_think', '0.70', '6.00'],
    ['Thinking Tool Usage', 'ollama:qwen3-think', '0.40', '6.00'],
  ])
})
