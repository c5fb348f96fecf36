import type { ChatMessage } from '../../adapters/models/model-adapter.ts'

/** The prompt as a person reads it: one message, as is; several, each under its role. */
export function renderMessages(messages: readonly ChatMessage[]): string {
  const [only] = messages
  if (messages.length === 1 && only !== undefined) return only.content
  return messages.map((message) => `[${message.role}]\n${message.content}`).join('\n\n')
}
