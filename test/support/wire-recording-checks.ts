import { createHash } from 'node:crypto'
import { expect } from 'vitest'
import type { ChatReply, JsonValue } from '../../adapters/models/model-adapter.ts'
import type { Digest, ExpectedReply } from './wire-recording-expectations.ts'
import type { WireCase } from './wire-recordings.ts'

/** A text as the expectations give it: its length in code points and the start of its SHA-256. */
export function digestOf(text: string | undefined): Digest {
  const value = text ?? ''
  return { chars: [...value].length, sha256: createHash('sha256').update(value).digest('hex').slice(0, 16) }
}

export /** The follow-up request carries the calls and their results back as each provider documents. */
function expectSentBack(
  wireCase: WireCase,
  reply: ChatReply,
  sent: Record<string, JsonValue>,
  expected: ExpectedReply | undefined,
): void {
  const calls = reply.toolCalls ?? []
  const expectedCalls =
    expected?.calls ?? calls.map((call) => ({ ...call, arguments: JSON.parse(call.arguments) as JsonValue }))
  switch (wireCase.protocol) {
    case 'openai': {
      const messages = sent.messages as Array<Record<string, JsonValue>>
      const assistant = messages.find((message) => message.role === 'assistant')
      expect(assistant?.tool_calls).toEqual(
        calls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: call.arguments },
        })),
      )
      expect(messages.filter((message) => message.role === 'tool').map((message) => message.tool_call_id)).toEqual(
        calls.map((call) => call.id),
      )
      if (wireCase.reasoning_back === 'reasoning_content')
        expect(digestOf(assistant?.reasoning_content as string), 'reasoning_content goes back').toEqual(
          expected?.reasoning,
        )
      if (wireCase.reasoning_back === 'reasoning_details')
        expect(assistant?.reasoning_details, 'reasoning_details go back unmodified').toEqual(
          wireCase.sent_back?.reasoning_details,
        )
      if (wireCase.reasoning_back === undefined) {
        expect(assistant).not.toHaveProperty('reasoning_details')
      }
      break
    }
    case 'openai-responses':
      expectResponsesSentBack(wireCase, calls, sent, expected)
      break
    case 'anthropic': {
      const messages = sent.messages as Array<{ role: string; content: Array<Record<string, JsonValue>> }>
      const assistant = messages.find((message) => message.role === 'assistant')
      const blocks = (assistant?.content ?? []).filter((block) => block.type !== 'text')
      const thinking = blocks.filter((block) => block.type === 'thinking' || block.type === 'redacted_thinking')
      expect(blocks.slice(0, thinking.length), 'thinking blocks come first').toEqual(thinking)
      expect(thinking.map((block) => [block.type, digestOf((block.signature ?? block.data) as string)])).toEqual(
        expected?.thinking ?? [],
      )
      if (wireCase.sent_back?.assistant)
        expect(blocks, 'as the Anthropic SDK sent it').toEqual(wireCase.sent_back.assistant)
      expect(blocks.filter((block) => block.type === 'tool_use')).toEqual(
        calls.map((call, index) => ({
          type: 'tool_use',
          id: call.id,
          name: call.name,
          input: expectedCalls[index]?.arguments,
        })),
      )
      const results = messages.at(-1)?.content ?? []
      expect(results.map((block) => [block.type, block.tool_use_id])).toEqual(
        calls.map((call) => ['tool_result', call.id]),
      )
      break
    }
    case 'gemini': {
      const contents = sent.contents as Array<{ role: string; parts: Array<Record<string, JsonValue>> }>
      const model = contents.find((content) => content.role === 'model')
      const callParts = (model?.parts ?? []).filter((part) => part.functionCall !== undefined)
      expect(
        callParts.map((part) => {
          const call = part.functionCall as Record<string, JsonValue>
          return {
            name: call.name,
            arguments: call.args,
            ...(part.thoughtSignature === undefined ? {} : { signature: digestOf(part.thoughtSignature as string) }),
          }
        }),
        'each call goes back with its own signature, only where it had one',
      ).toEqual(expectedCalls.map(({ id: _, ...call }) => call))
      const responses = contents.at(-1)?.parts ?? []
      expect(responses.map((part) => (part.functionResponse as Record<string, JsonValue>).name)).toEqual(
        calls.map((call) => call.name),
      )
      break
    }
    case 'ollama': {
      const messages = sent.messages as Array<Record<string, JsonValue>>
      const assistant = messages.find((message) => message.role === 'assistant')
      expect(assistant?.tool_calls).toEqual(
        expectedCalls.map((call) => ({ function: { name: call.name, arguments: call.arguments } })),
      )
      if (reply.reasoning) expect(assistant?.thinking).toBe(reply.reasoning)
      expect(messages.filter((message) => message.role === 'tool').map((message) => message.tool_name)).toEqual(
        calls.map((call) => call.name),
      )
      break
    }
  }
}

/**
 * The Responses API's next request, stateless as OpenAI's reference documents it: `store: false` with
 * `include: ["reasoning.encrypted_content"]`, the input after the user's message holding the reply's output items in
 * order (each reasoning item with its id, summary and `encrypted_content` from `response.output_item.done`, before
 * the function_call it led to), each call by its `call_id` (never the item's `fc_…` id), then a function_call_output
 * per call naming that `call_id`. Where the recorded client's next request is known (`sent_back`), its reasoning
 * items' encrypted_content and summary, its messages' text and phase, and its calls' names and arguments must be
 * what is sent (the calls the conversation carries on: a suite that runs one call a turn sends that one back).
 */
function expectResponsesSentBack(
  wireCase: WireCase,
  calls: ReadonlyArray<{ id: string; name: string; arguments: string }>,
  sent: Record<string, JsonValue>,
  expected: ExpectedReply | undefined,
): void {
  expect(sent.store, 'stateless').toBe(false)
  expect(sent.include, 'the reasoning asked back encrypted').toEqual(['reasoning.encrypted_content'])
  const input = sent.input as Array<Record<string, JsonValue>>
  expect(input[0]?.role, 'the user message first').toBe('user')
  const after = input.slice(1)
  const sentCalls = after.filter((item) => item.type === 'function_call')
  const expectedIds = (expected?.calls ?? []).slice(0, calls.length).map((call) => call.id)
  expect(
    sentCalls.map((item) => item.call_id),
    'each call by its call_id',
  ).toEqual(expected === undefined ? calls.map((call) => call.id) : expectedIds)
  expect(sentCalls.map((item) => [item.name, JSON.parse(item.arguments as string) as JsonValue])).toEqual(
    calls.map((call) => [call.name, JSON.parse(call.arguments) as JsonValue]),
  )
  const outputs = after.filter((item) => item.type === 'function_call_output')
  expect(outputs.map((item) => item.call_id)).toEqual(sentCalls.map((item) => item.call_id))
  const firstCall = after.findIndex((item) => item.type === 'function_call')
  const reasoning = after.filter((item) => item.type === 'reasoning')
  for (const item of reasoning) {
    expect(after.indexOf(item), 'a reasoning item goes before the call it led to').toBeLessThan(firstCall)
    expect(item.id, 'with its id').toMatch(/./)
  }
  const recorded = wireCase.sent_back?.input
  if (recorded === undefined) return
  const recordedReasoning = recorded.filter((item) => item.type === 'reasoning')
  expect(
    reasoning.map((item) => ({ summary: item.summary, encrypted_content: item.encrypted_content })),
    'the reasoning items as the recorded client sent them back',
  ).toEqual(recordedReasoning.map((item) => ({ summary: item.summary, encrypted_content: item.encrypted_content })))
  for (const [index, item] of recordedReasoning.entries())
    if (typeof item.id === 'string') expect(reasoning[index]?.id).toBe(item.id)
  // The cassette re-serialized the message's text (curly quotes as straight ones): its text is checked against the
  // reply's, its phase against the recorded client's.
  const messages = after.filter((item) => item.type === 'message')
  expect(
    messages.map((item) => item.phase ?? null),
    'the messages with their phase, as the recorded client sent them back',
  ).toEqual(recorded.filter((item) => item.type === 'message').map((item) => item.phase ?? null))
  if (expected !== undefined && messages.length > 0)
    expect(digestOf(messages.map((item) => textOf(item.content ?? null)).join('\n\n')), "the messages' text").toEqual(
      expected.text,
    )
  expect(
    sentCalls.map((item) => [item.name, item.arguments]),
    'the calls as the recorded client sent them back',
  ).toEqual(
    recorded
      .filter((item) => item.type === 'function_call')
      .slice(0, calls.length)
      .map((item) => [item.name, item.arguments]),
  )
  if (wireCase.sent_back?.store !== undefined) expect(sent.store).toBe(wireCase.sent_back.store)
  if (wireCase.sent_back?.include !== undefined) expect(sent.include).toEqual(wireCase.sent_back.include)
}

function textOf(content: JsonValue): string {
  if (!Array.isArray(content)) return typeof content === 'string' ? content : ''
  return content
    .map((part) => (typeof part === 'object' && part !== null && !Array.isArray(part) ? String(part.text ?? '') : ''))
    .join('')
}
