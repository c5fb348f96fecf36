import { describe, expect, onTestFinished, test } from 'vitest'
import { AnthropicAdapter } from '../../../adapters/models/anthropic/anthropic.ts'
import { GoogleAdapter } from '../../../adapters/models/google/google.ts'
import type {
  ChatMessage,
  ChatReply,
  JsonValue,
  ModelAdapter,
  ToolDefinition,
} from '../../../adapters/models/model-adapter.ts'
import { OllamaAdapter } from '../../../adapters/models/ollama/ollama.ts'
import { OpenAIAdapter, openaiEndpoint } from '../../../adapters/models/openai/openai.ts'
import { openrouterAdapter } from '../../../adapters/models/openrouter/openrouter.ts'
import { skipForMissing } from '../../support/required-tool.ts'
import { EXPECTED_REPLIES, type ExpectedReply } from '../../support/wire-recording-expectations.ts'
import { digestOf, expectSentBack } from '../../support/wire-recording-checks.ts'
import {
  serveRecordings,
  wireCases,
  WIRE_RECORDINGS_MISSING,
  WIRE_SHAPES_DIR,
  type WireCase,
  type WireCases,
} from '../../support/wire-recordings.ts'

/**
 * Every recorded provider response in ../shared/wire-recordings, served from 127.0.0.1 split at random places
 * (three seeds) and read through its adapter and the real SDK: the reply's text, reasoning, calls, tokens and
 * finish reason against EXPECTED_REPLIES (written from the providers' documented rules); for a tool call, what
 * the next request sends back; for a recorded failure, the error or the retry it calls for. A case added to
 * cases.json without an expectation must still read without error and give what its suite needs: a `demo` reply
 * some text or a finish reason, a `tool` reply a call with a name and JSON arguments.
 */
const SEEDS = ['a', 'b', 'c']
const loaded = wireCases()
const madeUp = wireCases(WIRE_SHAPES_DIR)

const TOOL: ToolDefinition = {
  name: 'lookup',
  description: 'Looks something up.',
  parameters: { type: 'object', properties: { query: { type: 'string' } } },
}

describe('made-up fixtures (fixtures/wire-shapes)', () => {
  if (madeUp === undefined) throw new Error(`${WIRE_SHAPES_DIR}/cases.json is missing`)
  describe.each(madeUp.cases.map((each) => [each.name, each] as const))('%s', (_, wireCase) => {
    test.each(SEEDS)('seed %s', (seed) => readsRight(madeUp, wireCase, seed))
  })
})

if (loaded === undefined) {
  test('the recorded provider responses read right', (context) => {
    skipForMissing(context, WIRE_RECORDINGS_MISSING, 'a missing folder of recordings')
  })
} else {
  const byName = new Map(loaded.cases.map((each) => [each.name, each]))
  describe.each(loaded.cases.map((each) => [each.name, each] as const))('%s', (_, wireCase) => {
    test.each(SEEDS)('seed %s', async (seed) => {
      if (wireCase.expect === undefined) await readsRight(loaded, wireCase, seed)
      else await failsRight(wireCase, byName, seed)
    })
  })
}

async function readsRight(cases: WireCases, wireCase: WireCase, seed: string): Promise<void> {
  const followup = cases.cases.find((each) => each.name === cases.followups[wireCase.protocol])
  const script = wireCase.suite === 'tool' && followup ? [wireCase, followup] : [wireCase]
  const server = await serveRecordings(script, `${wireCase.name}/${seed}`)
  onTestFinished(() => server.close())
  const adapter = adapterFor(wireCase, server.url)
  const messages: ChatMessage[] = [{ role: 'user', content: 'Go on.' }]
  const reply = await adapter.chat(request(wireCase, messages))
  const expected = EXPECTED_REPLIES[wireCase.name]
  if (expected === undefined) expectSuiteShape(wireCase, reply)
  else expectReply(wireCase, reply, expected)
  if (wireCase.suite !== 'tool' || followup === undefined) return

  const calls = reply.toolCalls ?? []
  const conversation: ChatMessage[] = [
    ...messages,
    {
      role: 'assistant',
      content: reply.text,
      ...(reply.reasoning === undefined ? {} : { reasoning: reply.reasoning }),
      ...(reply.reasoningSignature === undefined ? {} : { reasoningSignature: reply.reasoningSignature }),
      ...(reply.sendBack === undefined ? {} : { sendBack: reply.sendBack }),
      toolCalls: calls,
    },
    ...calls.map((call): ChatMessage => ({
      role: 'tool',
      callId: call.id,
      toolName: call.name,
      content: `result of ${call.id}`,
    })),
  ]
  await adapter.chat(request(wireCase, conversation))
  const sent = JSON.parse(server.seen.filter((each) => each.method === 'POST').at(-1)?.body ?? '{}') as Record<
    string,
    JsonValue
  >
  expectSentBack(wireCase, reply, sent, expected)
}

function request(wireCase: WireCase, messages: ChatMessage[]) {
  return {
    messages,
    params: {},
    item: { suite: 'wire-recordings', itemId: wireCase.name, sample: 0 },
    ...(wireCase.suite === 'tool' ? { tools: [TOOL] } : {}),
  }
}

function adapterFor(wireCase: WireCase, url: string): ModelAdapter {
  const env: NodeJS.ProcessEnv = {
    TESTBENCH_RETRIES: '2',
    TESTBENCH_RETRY_DELAY: '0.01',
    TESTBENCH_REQUEST_TIMEOUT: '30',
    TESTBENCH_IDLE_TIMEOUT: '20',
    OPENAI_BASE_URL: `${url}/v1`,
    OPENAI_API_KEY: 'k',
    OPENROUTER_BASE_URL: `${url}/v1`,
    OPENROUTER_API_KEY: 'k',
    ANTHROPIC_BASE_URL: url,
    ANTHROPIC_API_KEY: 'k',
    GOOGLE_GEMINI_BASE_URL: url,
    GEMINI_API_KEY: 'k',
    OLLAMA_HOST: url,
    ...(wireCase.protocol === 'openai-responses' ? { TESTBENCH_OPENAI_API: 'responses' } : {}),
  }
  switch (wireCase.provider) {
    case 'openrouter':
      return openrouterAdapter('recorded', env)
    case 'anthropic':
      return new AnthropicAdapter('recorded', env)
    case 'google':
      return new GoogleAdapter('recorded', env)
    case 'ollama':
      return new OllamaAdapter('recorded', env)
    default:
      return new OpenAIAdapter('recorded', openaiEndpoint(env), env)
  }
}

function expectReply(wireCase: WireCase, reply: ChatReply, expected: ExpectedReply): void {
  expect(digestOf(reply.text), 'text').toEqual(expected.text)
  expect(digestOf(reply.reasoning), 'reasoning').toEqual(expected.reasoning ?? digestOf(''))
  expect(reply.tokens, 'tokens').toEqual(expected.tokens)
  expect(reply.finishReason, 'finish reason').toBe(expected.finish)
  const calls = reply.toolCalls ?? []
  expect(
    calls.map((call) => ({
      ...(wireCase.protocol === 'gemini' || wireCase.protocol === 'ollama' ? {} : { id: call.id }),
      name: call.name,
      arguments: JSON.parse(call.arguments) as JsonValue,
      ...(call.signature === undefined ? {} : { signature: digestOf(call.signature) }),
    })),
    'tool calls',
  ).toEqual(expected.calls ?? [])
  for (const call of calls) expect(call.id, 'every call has an id').not.toBe('')
  expect(new Set(calls.map((call) => call.id)).size, 'call ids are distinct').toBe(calls.length)
  if (wireCase.protocol === 'gemini')
    expect(reply.reasoningSignature && digestOf(reply.reasoningSignature), 'signature').toEqual(expected.signature)
  if (wireCase.protocol === 'anthropic') {
    const blocks = (reply.sendBack?.thinking ?? []) as Array<Record<string, string>>
    expect(
      blocks.map((block) => [block.type, digestOf(block.type === 'thinking' ? block.signature : block.data)]),
      'thinking blocks',
    ).toEqual(expected.thinking ?? [])
  }
}

function expectSuiteShape(wireCase: WireCase, reply: ChatReply): void {
  if (wireCase.suite === 'tool') {
    expect(reply.toolCalls?.length ?? 0, 'a tool case makes a call').toBeGreaterThan(0)
    for (const call of reply.toolCalls ?? []) {
      expect(call.name).not.toBe('')
      expect(() => JSON.parse(call.arguments) as unknown).not.toThrow()
    }
  } else {
    expect(reply.text !== '' || reply.finishReason !== undefined, 'a demo case gives text or says why not').toBe(true)
  }
}

/** A recorded failure: the error it calls for (the provider's words in it), or a retry the `then` case answers. */
async function failsRight(wireCase: WireCase, byName: Map<string, WireCase>, seed: string): Promise<void> {
  const then = wireCase.then === undefined ? undefined : byName.get(wireCase.then)
  const server = await serveRecordings(then ? [wireCase, then] : [wireCase], `${wireCase.name}/${seed}`)
  onTestFinished(() => server.close())
  const adapter = adapterFor(wireCase, server.url)
  const asked = adapter.chat(request(wireCase, [{ role: 'user', content: 'Go on.' }]))
  if (wireCase.expect === 'error') {
    const error = await asked.then(
      () => undefined,
      (thrown: unknown) => thrown,
    )
    expect(error, 'the recorded failure is never taken for a reply').toBeInstanceOf(Error)
    if (wireCase.error_text !== undefined) expect((error as Error).message).toContain(wireCase.error_text)
    if (wireCase.attempts !== undefined) expect(server.generations).toBe(wireCase.attempts)
    return
  }
  if (wireCase.retry_after_s !== undefined) {
    // The wait asked for is longer than this test's deadline: the request gives up at once and says so.
    await expect(asked).rejects.toThrow(`retried in ${wireCase.retry_after_s.toFixed(1)} s`)
    expect(server.generations).toBe(1)
    return
  }
  const reply = await asked
  expect(server.generations, 'one retry').toBe(2)
  const expected = then && EXPECTED_REPLIES[then.name]
  if (then && expected) expectReply(then, reply, expected)
}
