import type { ChatMessage } from './model-adapter.ts'

/** The system messages joined, for APIs that take the system prompt apart from the conversation (Anthropic, Gemini). */
export function systemPrompt(messages: readonly ChatMessage[]): string {
  return messages.flatMap((message) => (message.role === 'system' ? [message.content] : [])).join('\n\n')
}
