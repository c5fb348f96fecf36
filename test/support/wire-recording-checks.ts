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
