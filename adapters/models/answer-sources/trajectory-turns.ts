import type { ChatMessage, ChatReply, ToolCall } from '../model-adapter.ts'
import { ProviderError } from '../model-adapter.ts'

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

/**
 * The turn a conversation asks for next: one after each assistant message it already holds; or, where the
 * trajectory says where each turn was asked (`askedAt`, a mini-swe-agent trajectory, whose turned-away replies
 * leave no assistant message), the turn asked with as many messages as the conversation holds.
 */
export function nextTurn(
  turns: readonly ChatReply[],
  messages: readonly ChatMessage[],
  what: string,
  askedAt?: readonly number[],
): ChatReply {
  if (askedAt !== undefined) return turnAskedAt(turns, askedAt, messages.length, what)
  const index = messages.filter((message) => message.role === 'assistant').length
  const turn = turns[index]
  if (turn === undefined) {
    throw new ProviderError(
      `${what} has ${turns.length} turns, and the conversation asks for turn ${index + 1}: add turns, or end the trajectory with a turn that ends the conversation.`,
    )
  }
  return turn
}

function turnAskedAt(turns: readonly ChatReply[], askedAt: readonly number[], length: number, what: string): ChatReply {
  const turn = turns[askedAt.indexOf(length)]
  if (turn !== undefined) return turn
  const last = askedAt.at(-1) ?? 0
  if (length > last)
    throw new ProviderError(
      `${what} ends after ${turns.length} replies, and the replayed conversation asks for another (${length} messages): the run that made it stopped there, and this one goes on.`,
    )
  throw new ProviderError(
    `${what} asked for its replies with ${askedAt.join(', ')} messages, and the replayed conversation asks with ${length}: it went another way than the run that made the trajectory.`,
  )
}
