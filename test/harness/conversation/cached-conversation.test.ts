import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import type { ChatReply, ChatRequest } from '../../../adapters/models/model-adapter.ts'
import { ReplyCache } from '../../../adapters/models/reply-cache.ts'
import { converse, type ConversationRequest, type TurnAsker } from '../../../harness/conversation/converse.ts'
import { toolSucceeded, type ConversationTool } from '../../../harness/conversation/tool.ts'

const model = { provider: 'openai', model: 'agent', details: {} }
const item = { suite: 'demo', itemId: 'one', sample: 0 }

/** A model that counts what it is asked: it writes a note four times, then finishes; `failAt` breaks that turn, as a crash would. */
function countingModel(failAt?: number) {
  const asked: ChatRequest[] = []
  const ask = async (request: ChatRequest): Promise<ChatReply> => {
    asked.push(request)
    const turn = request.messages.filter((message) => message.role === 'assistant').length + 1
    if (turn === failAt) throw new Error(`killed at turn ${turn}`)
    const name = turn <= 4 ? 'note' : 'finish'
    return {
      text: `turn ${turn}`,
      toolCalls: [{ id: `c${turn}`, name, arguments: JSON.stringify({ text: `n${turn}` }) }],
      latencyMs: 5,
    }
  }
  return { asked, ask }
}

const finish: ConversationTool = {
  definition: { name: 'finish', description: 'Ends.', parameters: { type: 'object', properties: {} } },
  run: async () => toolSucceeded('finished', true),
}
const tools: ConversationTool[] = [
  {
    definition: {
      name: 'note',
      description: 'Keeps a note.',
      parameters: { type: 'object', properties: { text: { type: 'string' } } },
    },
    run: async (args) => toolSucceeded(`noted ${String(args.text)}`),
  },
  finish,
]
const conversation: ConversationRequest = {
  messages: [{ role: 'user', content: 'take notes' }],
  tools,
  limits: { turns: 10, callsPerTool: 10 },
  params: { temperature: 0, think: 'off' },
}

function through(ask: (request: ChatRequest) => Promise<ChatReply>): TurnAsker {
  return (messages, offered, params) => ask({ messages, tools: offered, params, item })
}

const directories: string[] = []
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true })
})
function cacheDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), 'conversation-cache-'))
  directories.push(directory)
  return directory
}

describe('a conversation through the reply cache', () => {
  test('a rerun sends no request and reproduces the trajectory', async () => {
    const cache = new ReplyCache(cacheDirectory(), 'on')
    const first = countingModel()
    const done = await converse(through(cache.wrap(model, first.ask)), conversation)
    expect(first.asked).toHaveLength(5)
    const again = countingModel()
    const replayed = await converse(through(cache.wrap(model, again.ask)), conversation)
    expect(again.asked).toHaveLength(0)
    expect(replayed.trajectory).toEqual(done.trajectory)
    expect(replayed.end).toEqual(done.end)
  })

  test('a run stopped in the middle resumes at the turn where it stopped', async () => {
    const cache = new ReplyCache(cacheDirectory(), 'on')
    const crashed = countingModel(3)
    await expect(converse(through(cache.wrap(model, crashed.ask)), conversation)).rejects.toThrow('killed at turn 3')
    const resumed = countingModel()
    const result = await converse(through(cache.wrap(model, resumed.ask)), conversation)
    // Turns 1 and 2 come from the cache; the model is asked from turn 3 on.
    expect(
      resumed.asked.map((request) => request.messages.filter((message) => message.role === 'assistant').length + 1),
    ).toEqual([3, 4, 5])
    expect(result.end.kind).toBe('tool')
  })

  test('the tools offered, the thinking switch and the sample are in the key of every turn', async () => {
    const cache = new ReplyCache(cacheDirectory(), 'on')
    await converse(through(cache.wrap(model, countingModel().ask)), conversation)
    for (const changed of [
      {
        ...conversation,
        tools: [
          ...tools.slice(0, 1),
          { ...finish, definition: { ...finish.definition, description: 'Ends the task.' } },
        ],
      },
      { ...conversation, params: { temperature: 0, think: 'on' as const } },
    ]) {
      const counting = countingModel()
      await converse(through(cache.wrap(model, counting.ask)), changed)
      expect(counting.asked).toHaveLength(5)
    }
    const otherSample = countingModel()
    await converse(
      (messages, offered, params) =>
        cache.wrap(model, otherSample.ask)({ messages, tools: offered, params, item: { ...item, sample: 1 } }),
      conversation,
    )
    expect(otherSample.asked).toHaveLength(5)
  })

  test('a request without tools keeps the key it had before tools existed', () => {
    const cache = new ReplyCache(cacheDirectory(), 'on')
    const request: ChatRequest = { messages: [{ role: 'user', content: 'hi' }], params: {}, item }
    // The file name is the hash of the key as it was written before tools: a reply stored then is still found.
    const before = {
      provider: 'openai',
      model: 'agent',
      digest: null,
      mode: 'chat',
      params: {},
      messages: request.messages,
      sample: 0,
    }
    const hash = createHash('sha256').update(JSON.stringify(before)).digest('hex')
    expect(cache.fileFor(model, request).endsWith(`${hash}.json`)).toBe(true)
    expect(cache.fileFor(model, { ...request, tools: [finish.definition] }).endsWith(`${hash}.json`)).toBe(false)
  })
})
