import type { ChatRequest } from './model-adapter.ts'
import { ProviderError } from './model-adapter.ts'

/** The raw prompt a completion request continues (`mode: 'completion'`): its last message. */
export function lastUserText(request: ChatRequest): string {
  const last = request.messages.at(-1)
  if (!last) throw new ProviderError(`item ${request.item.itemId}: a completion request needs a prompt`)
  return last.content
}
