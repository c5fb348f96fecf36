import { expect, test } from 'vitest'
import type { ItemRecord } from '../../../harness/records/item-record.ts'
import { itemView } from '../../../harness/records/show-record.ts'
import { renderTrajectory, type TrajectoryTurn } from '../../../harness/conversation/trajectory.ts'

const turns: TrajectoryTurn[] = [
  {
    turn: 1,
    text: 'Writing it.\u001b[2J',
    reasoning: 'A sieve will do.',
    calls: [
      { id: 'a', name: 'write_file', arguments: '{"path":"main.py"}', result: 'Wrote main.py' },
      { id: 'b', name: 'list_files', arguments: '{}', ignored: 'only the first tool call of a turn is run' },
    ],
    tokens: { prompt: 120, completion: 30 },
    latencyMs: 812,
    finishReason: 'tool_calls',
  },
  {
    turn: 2,
    text: '',
    calls: [{ id: 'c', name: 'read_file', arguments: '{"path":"x"}', result: 'File not found: x', isError: true }],
    latencyMs: 3,
  },
]

test('the trajectory reads turn by turn: reasoning, text, each call and what it was answered, and how it ended', () => {
  expect(renderTrajectory(turns, { kind: 'no_tool_call', reason: 'Turn 3 made no tool call.' })).toBe(
    [
      '── turn 1 (812 ms, 120 + 30 tokens, tool_calls)',
      '[reasoning]\nA sieve will do.',
      'Writing it.\u001b[2J',
      '→ write_file {"path":"main.py"}',
      '← Wrote main.py',
      '→ list_files {}',
      '  (not run: only the first tool call of a turn is run)',
      '',
      '── turn 2 (3 ms)',
      '→ read_file {"path":"x"}',
      '← (error) File not found: x',
      '',
      '── end: Turn 3 made no tool call.',
    ].join('\n'),
  )
})

test('the UI and the html report show it as a text of its own, after the reasoning, control sequences removed', () => {
  const record: ItemRecord = {
    suite: 'euler',
    itemId: '0101',
    model: 'reference',
    provider: 'reference',
    sample: 0,
    prompt: 'p',
    trajectory: turns,
  }
  const view = itemView(record)
  expect(Object.keys(view)).toEqual(['scores', 'prompt', 'trajectory'])
  expect(view.trajectory).toContain('Writing it.\n→ write_file')
  expect(view.trajectory).not.toContain('\u001b')
})

test('tokens show the kinds the provider billed apart: cache reads and writes in the prompt, reasoning in the completion', () => {
  const billed: TrajectoryTurn = {
    turn: 1,
    text: 'Done.',
    calls: [],
    tokens: { prompt: 1200, completion: 300, reasoning: 200, cacheRead: 1000, cacheWrite: 150 },
    latencyMs: 5,
    finishReason: 'stop',
  }
  expect(renderTrajectory([billed])).toBe(
    '── turn 1 (5 ms, 1200 (1000 cached, 150 cache writes) + 300 (200 reasoning) tokens, stop)\nDone.',
  )
  const record: ItemRecord = {
    suite: 'demo',
    itemId: 'sum-2+3',
    model: 'openai:m',
    provider: 'openai',
    sample: 0,
    outcome: 'passed',
    tokens: { prompt: 14, completion: 30, reasoning: 12, cacheRead: 8 },
  }
  expect(itemView(record)).toMatchObject({ tokens: '14 (8 cached) prompt, 30 (12 reasoning) completion' })
  expect(itemView({ ...record, tokens: { prompt: 14, completion: 30 } }).tokens).toBe('14 prompt, 30 completion')
  expect(Object.keys(itemView({ ...record, tokens: undefined }))).not.toContain('tokens')
})
