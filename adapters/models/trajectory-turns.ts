import type { ChatMessage, ChatReply, ToolCall } from './model-adapter.ts'
import { ProviderError } from './model-adapter.ts'

/**
 * A conversation's assistant turns written as data, for `replay:` files and reference trajectories:
 * `[{ "content": "…", "reasoning"?: "…", "tool_calls"?: [{ "id"?: "…", "name": "…", "arguments": "<JSON text>" | {…} }] }]`.
 * Arguments given as an object are serialized; a call without an id gets `call_<turn>_<index>`.
 */
export function parseTurns(value: unknown, where: string): ChatReply[] {
  if (!Array.isArray(value)) throw new ProviderError(`${where}: "turns" must be a list of assistant turns.`)
  return value.map((turn, index) => parseTurn(turn, `${where} turn ${index + 1}`, index + 1))
}

function parseTurn(value: unknown, where: string, number: number): ChatReply {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ProviderError(`${where} is not a JSON object.`)
  const turn = value as Record<string, unknown>
  const content = turn.content ?? ''
  if (typeof content !== 'string') throw new ProviderError(`${where}: "content" must be a string.`)
  const rawCalls = turn.tool_calls ?? []
  if (!Array.isArray(rawCalls)) throw new ProviderError(`${where}: "tool_calls" must be a list.`)
  const toolCalls = rawCalls.map((call, index) =>
    parseCall(call, `${where} call ${index + 1}`, `call_${number}_${index + 1}`),
  )
  return {
    text: content,
    ...(typeof turn.reasoning === 'string' ? { reasoning: turn.reasoning } : {}),
    ...(toolCalls.length === 0 ? {} : { toolCalls }),
    latencyMs: 0,
  }
}

function parseCall(value: unknown, where: string, madeUpId: string): ToolCall {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ProviderError(`${where} is not a JSON object.`)
  const call = value as Record<string, unknown>
  if (typeof call.name !== 'string' || call.name === '') throw new ProviderError(`${where} has no "name".`)
  const args = call.arguments ?? ''
  return {
    id: typeof call.id === 'string' && call.id !== '' ? call.id : madeUpId,
    name: call.name,
    arguments: typeof args === 'string' ? args : JSON.stringify(args),
  }
}

/** The turn a conversation asks for next: one after each assistant message it already holds. */
export function nextTurn(turns: readonly ChatReply[], messages: readonly ChatMessage[], what: string): ChatReply {
  const index = messages.filter((message) => message.role === 'assistant').length
  const turn = turns[index]
  if (turn === undefined) {
    throw new ProviderError(
      `${what} has ${turns.length} turns, and the conversation asks for turn ${index + 1}: add turns, or end the trajectory with a turn that ends the conversation.`,
    )
  }
  return turn
}
