import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import type { ChatMessage, ChatRequest } from '../../../../adapters/models/model-adapter.ts'
import { ReferenceAdapter } from '../../../../adapters/models/answer-sources/reference.ts'
import { ReplayAdapter } from '../../../../adapters/models/answer-sources/replay.ts'
import { parseTurns } from '../../../../adapters/models/answer-sources/trajectory-turns.ts'

const TURNS = [
  {
    content: 'Writing.',
    reasoning: 'Short.',
    tool_calls: [{ name: 'write_file', arguments: { path: 'a.py', content: 'print(1)' } }],
  },
  { content: '', tool_calls: [{ id: 'mine', name: 'deliver_code', arguments: '{"path": "a.py"}' }] },
]
const tool = { name: 'write_file', description: 'Writes.', parameters: { type: 'object' } }

function conversationAt(turn: number): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: 'user', content: 'go' }]
  for (let index = 1; index < turn; index++)
    messages.push(
      { role: 'assistant', content: '' },
      { role: 'tool', callId: 'x', toolName: 'write_file', content: 'ok' },
    )
  return messages
}

function request(turn: number, item: Partial<ChatRequest['item']> = {}): ChatRequest {
  return {
    messages: conversationAt(turn),
    params: {},
    tools: [tool],
    item: { suite: 'euler', itemId: '0101', variant: 'python', sample: 0, ...item },
  }
}

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('trajectories as data', () => {
  test('turns become replies: arguments as JSON text, made-up ids where none is given', () => {
    expect(parseTurns(TURNS, 'file:1')).toEqual([
      {
        text: 'Writing.',
        reasoning: 'Short.',
        toolCalls: [{ id: 'call_1_1', name: 'write_file', arguments: '{"path":"a.py","content":"print(1)"}' }],
        latencyMs: 0,
      },
      { text: '', toolCalls: [{ id: 'mine', name: 'deliver_code', arguments: '{"path": "a.py"}' }], latencyMs: 0 },
    ])
    expect(() => parseTurns([{ tool_calls: [{ arguments: '{}' }] }], 'file:3')).toThrow(
      'file:3 turn 1 call 1 has no "name".',
    )
    expect(() => parseTurns('none', 'file:4')).toThrow('file:4: "turns" must be a list of assistant turns.')
  })

  test('replay: answers one turn after another, and says so when the trajectory runs out', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'replay-turns-'))
    dirs.push(dir)
    const file = join(dir, 'trajectories.jsonl')
    writeFileSync(file, `${JSON.stringify({ id: '0101', variant: 'python', turns: TURNS })}\n`)
    const replay = new ReplayAdapter(file)
    expect((await replay.chat(request(1))).toolCalls?.[0]?.name).toBe('write_file')
    expect((await replay.chat(request(2))).toolCalls?.[0]?.name).toBe('deliver_code')
    await expect(replay.chat(request(3))).rejects.toThrow('has 2 turns, and the conversation asks for turn 3')
  })

  test('reference: a request with tools is answered from the trajectory in the reference', async () => {
    const reference = new ReferenceAdapter()
    const item = { reference: JSON.stringify({ turns: TURNS }) }
    expect((await reference.chat(request(2, item))).toolCalls?.[0]?.id).toBe('mine')
    await expect(reference.chat(request(1, { reference: 'print(1)' }))).rejects.toThrow(
      'its reference is not a trajectory',
    )
    expect((await reference.chat({ ...request(1, { reference: 'print(1)' }), tools: undefined })).text).toBe('print(1)')
  })
})
