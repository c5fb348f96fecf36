import type { ChatMessage } from './model-adapter.ts'
import { textTurns, type TextTurn } from './text-turns.ts'

/** The system messages joined (for APIs that take the system prompt apart) and the conversation without them. */
export function splitSystem(messages: readonly ChatMessage[]): { system: string; conversation: Array<TextTurn & { role: 'user' | 'assistant' }> } {
  const system = messages.filter((message) => message.role === 'system').map((message) => message.content).join('\n\n')
  const conversation = textTurns(messages).flatMap((turn) => (turn.role === 'system' ? [] : [{ role: turn.role, content: turn.content }]))
  return { system, conversation }
}
