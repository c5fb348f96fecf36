import type { ChatMessage } from './model-adapter.ts'
import { ProviderError } from './model-adapter.ts'

/** A message as a plain text turn, for wires that are given neither tools nor images. */
export interface TextTurn {
  role: 'system' | 'user' | 'assistant'
  content: string
}

/** The conversation as text turns; a tool result has no text-only form, so it is refused. */
export function textTurns(messages: readonly ChatMessage[]): TextTurn[] {
  return messages.map((message) => {
    if (message.role === 'tool') throw new ProviderError(`This provider's adapter cannot send tool results yet (the result of call ${message.callId}).`)
    return { role: message.role, content: message.content }
  })
}
