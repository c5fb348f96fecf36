import { describe, expect, test } from 'vitest'
import type { ChatMessage, ChatReply, ToolCall, ToolDefinition } from '../../../adapters/models/model-adapter.ts'
import { converse, type ConversationRequest, type TurnAsker } from '../../../harness/conversation/converse.ts'
import { toolFailed, toolSucceeded, type ConversationTool } from '../../../harness/conversation/tool.ts'

/** A scripted model: each turn answers with the next reply, and remembers what it was offered and sent. */
function scripted(replies: Array<Partial<ChatReply>>) {
  const offered: string[][] = []
  const sent: ChatMessage[][] = []
  const ask: TurnAsker = async (messages, tools) => {
    offered.push(tools.map((tool) => tool.name))
    sent.push(messages)
    const reply = replies[sent.length - 1] ?? replies[replies.length - 1]
    return { text: '', latencyMs: 1, ...reply }
  }
  return { ask, offered, sent }
}

function call(name: string, args: unknown, id = `call-${name}`): ToolCall {
  return { id, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) }
}

const echoDefinition: ToolDefinition = {
  name: 'echo',
  description: 'Says the text back.',
  parameters: {
    type: 'object',
    properties: { text: { type: 'string' }, times: { type: 'integer' } },
    required: ['text'],
  },
}
const echo: ConversationTool = {
  definition: echoDefinition,
  run: async (args) => toolSucceeded(String(args.text).repeat(typeof args.times === 'number' ? args.times : 1)),
}
const finish: ConversationTool = {
  definition: { name: 'finish', description: 'Ends.', parameters: { type: 'object', properties: {} } },
  run: async () => toolSucceeded('done', true),
}

function request(overrides: Partial<ConversationRequest> = {}): ConversationRequest {
  return {
    messages: [{ role: 'user', content: 'go' }],
    tools: [echo, finish],
    limits: { turns: 10, callsPerTool: 3 },
    ...overrides,
  }
}

describe('converse', () => {
  test('runs tool calls, sends their results back, and ends when a tool ends it', async () => {
    const model = scripted([
      { text: 'first', toolCalls: [call('echo', { text: 'hi' })] },
      { toolCalls: [call('finish', {})] },
    ])
    const result = await converse(model.ask, request())
    expect(result.end).toEqual({
      kind: 'tool',
      tool: 'finish',
      reason: 'Turn 2 called finish, which ended the conversation.',
    })
    expect(model.sent[1]?.slice(1)).toEqual([
      { role: 'assistant', content: 'first', toolCalls: [call('echo', { text: 'hi' })] },
      { role: 'tool', callId: 'call-echo', toolName: 'echo', content: 'hi' },
    ])
    expect(result.trajectory.map((turn) => turn.calls.map((made) => made.result))).toEqual([['hi'], ['done']])
    expect(result.messages).toHaveLength(5)
  })

  test('a turn without a tool call ends the conversation', async () => {
    const result = await converse(scripted([{ text: 'I am done.' }]).ask, request())
    expect(result.end).toEqual({ kind: 'no_tool_call', reason: 'Turn 1 made no tool call.' })
    expect(result.trajectory).toEqual([{ turn: 1, text: 'I am done.', calls: [], latencyMs: 1 }])
  })

  test("the model's bad input is a tool error, and the conversation goes on", async () => {
    const bad = [
      call('launch', {}),
      call('echo', '{"text": '),
      call('echo', '[1, 2]'),
      call('echo', { times: 2 }),
      call('echo', { text: 5 }),
      call('echo', { text: 'x', times: 1.5 }),
    ]
    const model = scripted([...bad.map((made) => ({ toolCalls: [made] })), { toolCalls: [call('finish', '')] }])
    const result = await converse(model.ask, request({ limits: { turns: 10, callsPerTool: 1 } }))
    expect(result.end.kind).toBe('tool')
    expect(
      result.trajectory.slice(0, bad.length).map((turn) => [turn.calls[0]?.result, turn.calls[0]?.isError]),
    ).toEqual([
      ['Error: Unsupported tool: launch', true],
      ['Error: Tool arguments are not valid JSON.', true],
      ['Error: Tool arguments must be a JSON object.', true],
      ['Error: Missing required argument: text.', true],
      ['Error: Argument text must be a string.', true],
      ['Error: Argument times must be an integer.', true],
    ])
    // None of them was a call of echo: its one call is still there.
    expect(model.offered.every((names) => names.includes('echo'))).toBe(true)
  })

  test('a tool past its calls leaves the list, and a call to it is answered with an error', async () => {
    const model = scripted([
      ...Array.from({ length: 3 }, () => ({ toolCalls: [call('echo', { text: 'a' })] })),
      { toolCalls: [call('finish', {})] },
    ])
    const result = await converse(model.ask, request({ limits: { turns: 10, callsPerTool: 2 } }))
    expect(model.offered).toEqual([['echo', 'finish'], ['echo', 'finish'], ['finish'], ['finish']])
    expect(result.trajectory[2]?.calls[0]).toMatchObject({
      result: 'Error: Tool echo is no longer available because it reached the call limit.',
      isError: true,
    })
    expect(result.end.kind).toBe('tool')
  })

  test('the turn limit ends the conversation with its own reason', async () => {
    const model = scripted([{ toolCalls: [call('echo', { text: 'a' })] }])
    const result = await converse(model.ask, request({ limits: { turns: 4, callsPerTool: 100 } }))
    expect(result.end).toEqual({
      kind: 'limit',
      limit: 'turns',
      reason: 'Reached the limit of 4 model turns before finishing.',
    })
    expect(model.sent).toHaveLength(4)
  })

  test('tokens, cost and wall time are limits too', async () => {
    const spend = { toolCalls: [call('echo', { text: 'a' })], tokens: { prompt: 100, completion: 50 } }
    const tokens = await converse(
      scripted([spend]).ask,
      request({ limits: { turns: 10, callsPerTool: 100, tokens: 400 } }),
    )
    expect(tokens.end).toMatchObject({
      kind: 'limit',
      limit: 'tokens',
      reason: 'Used 450 tokens in 3 turns, over the limit of 400.',
    })
    const cost = await converse(
      scripted([spend]).ask,
      request({ limits: { turns: 10, callsPerTool: 100, cost: 0.002 }, price: { input: 5, output: 10 } }),
    )
    // One turn costs 100 · 5 / 1e6 + 50 · 10 / 1e6 = 0.001.
    expect(cost.end).toMatchObject({ kind: 'limit', limit: 'cost' })
    expect(cost.trajectory).toHaveLength(3)
    expect(cost.cost).toBeCloseTo(0.003)
    const slow: TurnAsker = (_messages, _tools, _params, signal) =>
      new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(new Error('aborted'))))
    const wall = await converse(slow, request({ limits: { turns: 10, callsPerTool: 100, wallMs: 50 } }))
    expect(wall.end).toMatchObject({ kind: 'limit', limit: 'wallMs' })
  })

  test("the item's own abort is not a limit: it is thrown", async () => {
    const controller = new AbortController()
    const slow: TurnAsker = (_messages, _tools, _params, signal) =>
      new Promise((_resolve, reject) =>
        signal?.addEventListener('abort', () => reject(new Error('the test was aborted'))),
      )
    const running = converse(
      slow,
      request({ limits: { turns: 10, callsPerTool: 100, wallMs: 60_000 } }),
      controller.signal,
    )
    controller.abort()
    await expect(running).rejects.toThrow('the test was aborted')
  })

  test('a tool output past the cap is cut, and says so', async () => {
    const model = scripted([
      { toolCalls: [call('echo', { text: 'x', times: 100 })] },
      { toolCalls: [call('finish', {})] },
    ])
    const result = await converse(model.ask, request({ limits: { turns: 10, callsPerTool: 3, outputChars: 10 } }))
    expect(result.trajectory[0]?.calls[0]?.result).toBe('xxxxxxxxxx\n[output cut: 90 more characters not shown]')
  })

  test('with firstCallOnly, the other calls of a turn are neither run nor sent back, and are recorded as ignored', async () => {
    const ran: string[] = []
    const counting: ConversationTool = {
      definition: echoDefinition,
      run: async (args) => (ran.push(String(args.text)), toolSucceeded('ok')),
    }
    const model = scripted([
      { toolCalls: [call('echo', { text: 'one' }, 'a'), call('echo', { text: 'two' }, 'b')] },
      { toolCalls: [call('finish', {})] },
    ])
    const result = await converse(model.ask, request({ tools: [counting, finish], firstCallOnly: true }))
    expect(ran).toEqual(['one'])
    expect(model.sent[1]?.[1]).toEqual({
      role: 'assistant',
      content: '',
      toolCalls: [call('echo', { text: 'one' }, 'a')],
    })
    expect(result.trajectory[0]?.calls[1]).toMatchObject({
      id: 'b',
      ignored: 'only the first tool call of a turn is run',
    })
  })

  test('a failure of ours in a tool is thrown, and the trajectory keeps the turns before it', async () => {
    const broken: ConversationTool = {
      definition: echoDefinition,
      run: async () => Promise.reject(new Error('the sandbox broke')),
    }
    const trajectory: Parameters<typeof converse>[3] = []
    const model = scripted([{ text: 'try', toolCalls: [call('echo', { text: 'a' })] }])
    await expect(converse(model.ask, request({ tools: [broken] }), undefined, trajectory)).rejects.toThrow(
      'the sandbox broke',
    )
    expect(trajectory).toHaveLength(1)
  })

  test('formatResult writes what the model reads', async () => {
    const model = scripted([{ toolCalls: [call('echo', { text: 'hi' })] }, { toolCalls: [call('finish', {})] }])
    const result = await converse(
      model.ask,
      request({ formatResult: (tool, answer) => `${tool}:${answer.ok ? answer.output : answer.error}` }),
    )
    expect(result.trajectory.map((turn) => turn.calls[0]?.result)).toEqual(['echo:hi', 'finish:done'])
    expect(toolFailed('x')).toEqual({ ok: false, output: '', error: 'x' })
  })
})
