import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, onTestFinished, test, type TestContext } from 'vitest'
import { createAdapter } from '../../../adapters/models/create-adapter.ts'
import { parseModel } from '../../../adapters/models/model-spec.ts'
import { ProviderError, type ChatReply, type ChatRequest } from '../../../adapters/models/model-adapter.ts'
import { ReplyCache } from '../../../adapters/models/reply-cache.ts'
import { FAST_RETRIES, WORKSPACE_TOOLS } from '../../support/model-test-settings.ts'
import type { WireProtocol } from '../../../adapters/models/requests/wire-check.ts'
import { chatRequest } from '../../support/chat-request.ts'
import {
  clientEnv,
  FAULT_KINDS,
  startFaultyModelServer,
  type FaultKind,
  type FaultPlan,
} from '../../support/fault-injecting-server.ts'
import type { WireToolCall } from '../../support/wire-replies.ts'

const PROTOCOLS: WireProtocol[] = ['openai', 'openai-responses', 'ollama', 'anthropic', 'gemini']
const REQUESTS = 30

/** Two calls per reply, whose arguments (compact JSON, so that the wires that send objects give the same text back) depend on the prompt. */
function callsFor(prompt: string): WireToolCall[] {
  const content = `print(${JSON.stringify(prompt)})\n`.repeat(3)
  return [
    {
      id: `call_w_${prompt.length}`,
      name: 'write_file',
      arguments: JSON.stringify({ path: 'main.py', content }),
      signature: `sig-w-${prompt}`,
    },
    {
      id: `call_c_${prompt.length}`,
      name: 'syntax_check',
      arguments: JSON.stringify({ path: 'main.py' }),
      signature: `sig-c-${prompt}`,
    },
  ]
}
const textFor = (prompt: string): string => `I will write «${prompt}» and check it.`

const request = (index: number): ChatRequest => ({
  ...chatRequest(`task ${index}`),
  tools: WORKSPACE_TOOLS,
  item: { suite: 'test', itemId: `t${index}`, sample: 0 },
})

/** Concurrent tests must hand in their own `onTestFinished`. */
type Cleanup = TestContext['onTestFinished']

async function serve(cleanup: Cleanup, protocol: WireProtocol, faults?: FaultPlan) {
  const server = await startFaultyModelServer({
    protocol,
    model: 'fake',
    answer: textFor,
    toolCalls: callsFor,
    ...(faults ? { faults } : {}),
  })
  cleanup(() => server.close())
  return server
}

async function adapterFor(protocol: WireProtocol, url: string, env: Record<string, string> = {}) {
  const { MODEL, ...rest } = clientEnv(protocol, url, 'fake')
  return createAdapter(parseModel(MODEL!), { ...rest, ...FAST_RETRIES, ...env })
}

function cacheDirectory(cleanup: Cleanup): string {
  const directory = mkdtempSync(join(tmpdir(), 'tool-call-cache-'))
  cleanup(() => rmSync(directory, { recursive: true, force: true }))
  return directory
}

/** Every reply stored under the directory. */
function storedReplies(directory: string): ChatReply[] {
  return readdirSync(directory, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.json'))
    .map((file) => (JSON.parse(readFileSync(join(directory, file), 'utf8')) as { reply: ChatReply }).reply)
}

/** A reply as the test compares it: what reaches the caller, without the time it took. */
const essence = (reply: ChatReply) => ({
  text: reply.text,
  toolCalls: reply.toolCalls,
  finishReason: reply.finishReason,
})

describe.each(PROTOCOLS)('%s: a fault in the middle of a tool-call stream', (protocol) => {
  test.concurrent.for(FAULT_KINDS)(
    '%s at 40 percent: every reply and every cached reply equals the clean one, calls whole',
    async (kind: FaultKind, { onTestFinished: cleanup }) => {
      const clean = await serve(cleanup, protocol)
      const cleanAdapter = await adapterFor(protocol, clean.url)
      const expected = await Promise.all(
        Array.from({ length: REQUESTS }, (_, index) => cleanAdapter.chat(request(index))),
      )
      // The clean replies are what the scripted calls should read as.
      expect(expected[0]?.toolCalls?.map((call) => ({ name: call.name, arguments: call.arguments }))).toEqual(
        callsFor('task 0').map(({ name, arguments: text }) => ({ name, arguments: text })),
      )

      const faulty = await serve(cleanup, protocol, { rate: 0.4, kinds: [kind], seed: 11 })
      const directory = cacheDirectory(cleanup)
      const adapter = await adapterFor(protocol, faulty.url)
      const ask = new ReplyCache(directory, 'on').wrap(
        { provider: adapter.provider, model: adapter.model, details: {} },
        (each) => adapter.chat(each),
      )
      const replies = await Promise.all(Array.from({ length: REQUESTS }, (_, index) => ask(request(index))))
      expect(faulty.injected[kind]).toBeGreaterThan(0)
      // Faults that broke the stream once a call had begun to arrive: the case this file is about.
      if (!kind.startsWith('http')) expect(faulty.struckCalls).toBeGreaterThan(0)
      expect(replies.map(essence)).toEqual(expected.map(essence))
      const stored = storedReplies(directory)
      expect(stored).toHaveLength(REQUESTS)
      expect(stored.map(essence).sort(byText)).toEqual(expected.map(essence).sort(byText))
    },
  )

  test('a call cut short every time is never returned nor cached: the request ends in provider_error', async () => {
    const server = await serve(onTestFinished, protocol, {
      rate: 1,
      kinds: ['cut-short', 'reset', 'malformed'],
      seed: 3,
    })
    const directory = cacheDirectory(onTestFinished)
    const adapter = await adapterFor(protocol, server.url, { TESTBENCH_RETRIES: '3' })
    const ask = new ReplyCache(directory, 'on').wrap(
      { provider: adapter.provider, model: adapter.model, details: {} },
      (each) => adapter.chat(each),
    )
    await expect(ask(request(1))).rejects.toThrow(ProviderError)
    expect(storedReplies(directory)).toEqual([])
    expect(server.seen.filter((seen) => seen.method === 'POST')).toHaveLength(4)
  })
})

function byText(a: { text: string }, b: { text: string }): number {
  return a.text < b.text ? -1 : a.text > b.text ? 1 : 0
}
