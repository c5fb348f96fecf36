import { describe, expect, onTestFinished, test } from 'vitest'
import { createAdapter } from '../../../adapters/models/create-adapter.ts'
import { parseModel } from '../../../adapters/models/model-spec.ts'
import type { ChatMessage, ChatReply, ChatRequest } from '../../../adapters/models/model-adapter.ts'
import { WORKSPACE_TOOLS } from '../../support/model-test-settings.ts'
import type { WireProtocol } from '../../../adapters/models/requests/wire-check.ts'
import { clientEnv } from '../../support/fault-injecting-server.ts'
import type { SeenRequest } from '../../support/loopback-server.ts'
import { startScriptedModelServer } from '../../support/scripted-model-server.ts'
import type { WireToolCall } from '../../support/wire-replies.ts'

const WRITE: WireToolCall = {
  id: 'call_write',
  name: 'write_file',
  arguments: '{"path":"main.py","content":"print(1)\\n"}',
  signature: 'sig-write',
}
const CHECK: WireToolCall = {
  id: 'call_check',
  name: 'syntax_check',
  arguments: '{"path":"main.py"}',
  signature: 'sig-check',
}
const THINKING = { text: 'First write, then check.', signature: 'sig-thinking' }
const FIRST: ChatMessage[] = [
  { role: 'system', content: 'You write programs with tools.' },
  { role: 'user', content: 'Write a program that prints 1.' },
]

/** Each protocol's whole first request body, parsed. */
type Body = Record<string, unknown>

async function scripted(...options: Parameters<typeof startScriptedModelServer>) {
  const server = await startScriptedModelServer(...options)
  onTestFinished(() => server.close())
  return server
}

async function adapterFor(protocol: WireProtocol, url: string, env: Record<string, string> = {}) {
  const { MODEL, ...rest } = clientEnv(protocol, url, 'fake')
  return createAdapter(parseModel(MODEL!), { ...rest, TESTBENCH_RETRIES: '0', ...env })
}

const generations = (seen: SeenRequest[]): Body[] =>
  seen
    .filter((each) => each.method === 'POST' && each.path !== '/api/show')
    .map((each) => JSON.parse(each.body) as Body)

const request = (messages: ChatMessage[], extra: Partial<ChatRequest> = {}): ChatRequest => ({
  messages,
  params: { temperature: 0 },
  tools: WORKSPACE_TOOLS,
  item: { suite: 'test', itemId: 'tools-1', sample: 0 },
  ...extra,
})

/** The second turn: the first one's reply as the assistant's message, then a result for each call (the second an error). */
function secondTurn(reply: ChatReply): ChatMessage[] {
  const [write, check] = reply.toolCalls ?? []
  return [
    ...FIRST,
    {
      role: 'assistant',
      content: reply.text,
      ...(reply.reasoning === undefined ? {} : { reasoning: reply.reasoning }),
      ...(reply.reasoningSignature === undefined ? {} : { reasoningSignature: reply.reasoningSignature }),
      ...(reply.sendBack === undefined ? {} : { sendBack: reply.sendBack }),
      toolCalls: reply.toolCalls ?? [],
    },
    { role: 'tool', callId: write!.id, toolName: write!.name, content: '{"ok": true}' },
    { role: 'tool', callId: check!.id, toolName: check!.name, content: 'SyntaxError: line 1', isError: true },
  ]
}

/** What each protocol must have sent: the tools in its shape (first request), and the second request's history. */
const WIRE: Record<WireProtocol, { tools: (body: Body) => void; history: (body: Body, reply: ChatReply) => void }> = {
  openai: {
    tools: (body) =>
      expect(body.tools).toEqual(
        WORKSPACE_TOOLS.map((tool) => ({
          type: 'function',
          function: { name: tool.name, description: tool.description, parameters: tool.parameters },
        })),
      ),
    history: (body, reply) =>
      expect((body.messages as unknown[]).slice(2)).toEqual([
        {
          role: 'assistant',
          content: reply.text,
          tool_calls: [WRITE, CHECK].map((call) => ({
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: call.arguments },
          })),
        },
        { role: 'tool', tool_call_id: 'call_write', content: '{"ok": true}' },
        { role: 'tool', tool_call_id: 'call_check', content: 'SyntaxError: line 1' },
      ]),
  },
  // OpenAI's Responses API reference: function tools flat; stateless input carries the reasoning item (id and
  // encrypted_content as `response.output_item.done` gave them) before the message and the calls it led to, and
  // each result as a function_call_output naming its call_id.
  'openai-responses': {
    tools: (body) =>
      expect(body.tools).toEqual(
        WORKSPACE_TOOLS.map((tool) => ({
          type: 'function',
          name: tool.name,
          description: tool.description,
          parameters: tool.parameters,
          strict: false,
        })),
      ),
    history: (body, reply) => {
      expect(body).toMatchObject({ store: false, instructions: 'You write programs with tools.' })
      expect(body.input).toEqual([
        { role: 'user', content: 'Write a program that prints 1.' },
        {
          type: 'reasoning',
          id: 'rs_1',
          summary: [{ type: 'summary_text', text: THINKING.text }],
          encrypted_content: THINKING.signature,
        },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: reply.text }] },
        ...[WRITE, CHECK].map((call) => ({
          type: 'function_call',
          call_id: call.id,
          name: call.name,
          arguments: call.arguments,
        })),
        { type: 'function_call_output', call_id: 'call_write', output: '{"ok": true}' },
        { type: 'function_call_output', call_id: 'call_check', output: 'SyntaxError: line 1' },
      ])
    },
  },
  anthropic: {
    tools: (body) =>
      expect(body.tools).toEqual(
        WORKSPACE_TOOLS.map((tool) => ({
          name: tool.name,
          description: tool.description,
          input_schema: tool.parameters,
        })),
      ),
    history: (body, reply) =>
      expect((body.messages as unknown[]).slice(1)).toEqual([
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: THINKING.text, signature: THINKING.signature },
            { type: 'text', text: reply.text },
            { type: 'tool_use', id: 'call_write', name: 'write_file', input: JSON.parse(WRITE.arguments) },
            { type: 'tool_use', id: 'call_check', name: 'syntax_check', input: JSON.parse(CHECK.arguments) },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_write', content: '{"ok": true}' },
            { type: 'tool_result', tool_use_id: 'call_check', content: 'SyntaxError: line 1', is_error: true },
          ],
        },
      ]),
  },
  gemini: {
    tools: (body) =>
      expect(body.tools).toEqual([
        {
          functionDeclarations: WORKSPACE_TOOLS.map((tool) => ({
            name: tool.name,
            description: tool.description,
            parametersJsonSchema: tool.parameters,
          })),
        },
      ]),
    history: (body, reply) => {
      const ids = (reply.toolCalls ?? []).map((call) => call.id)
      expect((body.contents as unknown[]).slice(1)).toEqual([
        {
          role: 'model',
          parts: [
            { text: reply.text, thoughtSignature: THINKING.signature },
            {
              functionCall: { id: ids[0], name: 'write_file', args: JSON.parse(WRITE.arguments) },
              thoughtSignature: 'sig-write',
            },
            {
              functionCall: { id: ids[1], name: 'syntax_check', args: JSON.parse(CHECK.arguments) },
              thoughtSignature: 'sig-check',
            },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { id: ids[0], name: 'write_file', response: { output: '{"ok": true}' } } },
            { functionResponse: { id: ids[1], name: 'syntax_check', response: { error: 'SyntaxError: line 1' } } },
          ],
        },
      ])
    },
  },
  ollama: {
    tools: (body) =>
      expect(body.tools).toEqual(
        WORKSPACE_TOOLS.map((tool) => ({
          type: 'function',
          function: { name: tool.name, description: tool.description, parameters: tool.parameters },
        })),
      ),
    history: (body, reply) =>
      expect((body.messages as unknown[]).slice(2)).toEqual([
        {
          role: 'assistant',
          content: reply.text,
          tool_calls: [WRITE, CHECK].map((call) => ({
            function: { name: call.name, arguments: JSON.parse(call.arguments) },
          })),
        },
        { role: 'tool', content: '{"ok": true}', tool_name: 'write_file' },
        { role: 'tool', content: 'SyntaxError: line 1', tool_name: 'syntax_check' },
      ]),
  },
}

describe.each(['openai', 'openai-responses', 'anthropic', 'gemini', 'ollama'] as const)(
  '%s: a scripted two-turn tool conversation through the real SDK',
  (protocol) => {
    test('tools go in the wire shape, the calls come back whole, results and signatures go back in the wire shape', async () => {
      const withIds = protocol === 'openai' || protocol === 'openai-responses' || protocol === 'anthropic'
      const thinks = protocol === 'anthropic' || protocol === 'gemini' || protocol === 'openai-responses'
      const calls = withIds ? [WRITE, CHECK] : [WRITE, CHECK].map(({ id: _id, ...call }) => call)
      const server = await scripted(protocol, [
        {
          text: 'I write it, then check it.',
          toolCalls: calls,
          ...(thinks ? { thinking: THINKING } : {}),
        },
        { text: 'Delivered.' },
      ])
      const adapter = await adapterFor(protocol, server.url)
      const first = await adapter.chat(request(FIRST))
      expect(first.text).toBe('I write it, then check it.')
      expect(first.toolCalls?.map(({ name, arguments: text }) => ({ name, arguments: text }))).toEqual(
        [WRITE, CHECK].map(({ name, arguments: text }) => ({ name, arguments: text })),
      )
      if (withIds) expect(first.toolCalls?.map((call) => call.id)).toEqual(['call_write', 'call_check'])
      else {
        // Made up, distinct, and the same when the same reply comes again.
        const ids = first.toolCalls?.map((call) => call.id) ?? []
        expect(new Set(ids).size).toBe(2)
        expect(ids.every((id) => /^call_[0-9a-f]{24}$/.test(id))).toBe(true)
      }
      if (protocol === 'gemini')
        expect(first.toolCalls?.map((call) => call.signature)).toEqual(['sig-write', 'sig-check'])
      if (protocol === 'anthropic' || protocol === 'gemini')
        expect(first).toMatchObject({ reasoning: THINKING.text, reasoningSignature: THINKING.signature })
      if (protocol === 'openai-responses') expect(first.reasoning).toBe(THINKING.text)

      const second = await adapter.chat(request(secondTurn(first)))
      expect(second.text).toBe('Delivered.')
      expect(second.toolCalls).toBeUndefined()
      const [sentFirst, sentSecond] = generations(server.seen)
      WIRE[protocol].tools(sentFirst!)
      WIRE[protocol].history(sentSecond!, first)
    })

    test('made-up or given, the ids of one reply are the same when it is asked again', async () => {
      const server = await scripted(protocol, [
        { text: 'Again.', toolCalls: [WRITE, CHECK].map(({ id: _id, ...call }) => call) },
      ])
      const adapter = await adapterFor(protocol, server.url)
      const [once, twice] = [await adapter.chat(request(FIRST)), await adapter.chat(request(FIRST))]
      expect(once.toolCalls).toHaveLength(2)
      expect(twice.toolCalls).toEqual(once.toolCalls)
    })
  },
)

describe.each(['openai', 'anthropic'] as const)('%s: arguments that are not valid JSON', (protocol) => {
  test('reach the caller as written, and the conversation can go on', async () => {
    const broken = { id: 'call_broken', name: 'write_file', arguments: '{"path": "main.py", "content": "unterminated' }
    const server = await scripted(protocol, [{ text: '', toolCalls: [broken] }, { text: 'Sorry.' }])
    const adapter = await adapterFor(protocol, server.url)
    const first = await adapter.chat(request(FIRST))
    expect(first.toolCalls).toEqual([broken])
    const next: ChatMessage[] = [
      ...FIRST,
      { role: 'assistant', content: '', toolCalls: first.toolCalls ?? [] },
      {
        role: 'tool',
        callId: 'call_broken',
        toolName: 'write_file',
        content: 'the arguments are not JSON',
        isError: true,
      },
    ]
    expect((await adapter.chat(request(next))).text).toBe('Sorry.')
    const sent = generations(server.seen)[1]!
    const assistant = (sent.messages as Array<Record<string, unknown>>).find((message) => message.role === 'assistant')
    // OpenAI takes the text back as it was; Anthropic takes an object, and gets the nothing the call amounted to.
    if (protocol === 'openai')
      expect(assistant?.tool_calls).toEqual([
        { id: 'call_broken', type: 'function', function: { name: 'write_file', arguments: broken.arguments } },
      ])
    else expect(assistant?.content).toEqual([{ type: 'tool_use', id: 'call_broken', name: 'write_file', input: {} }])
  })
})

describe('openai: fragments', () => {
  test('fragments of two calls that interleave are joined by index, and the usage-only last chunk still counts', async () => {
    const long = {
      id: 'call_long',
      name: 'write_file',
      arguments: JSON.stringify({ path: 'a.py', content: 'x = 1\n'.repeat(20) }),
    }
    const short = { id: 'call_short', name: 'syntax_check', arguments: '{"path":"a.py"}' }
    const server = await scripted('openai', [{ text: 'Both.', toolCalls: [long, short] }])
    const reply = await (await adapterFor('openai', server.url)).chat(request(FIRST))
    expect(reply.toolCalls).toEqual([long, short])
    expect(reply).toMatchObject({ finishReason: 'tool_calls', tokens: { prompt: 11, completion: 7 } })
  })
})
