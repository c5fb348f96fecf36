import { createHash } from 'node:crypto'

/**
 * An id for a tool call the provider gave none (Ollama, Gemini, some OpenAI-compatible servers): made from
 * the reply's own content and the call's place in it, so the same reply always gets the same ids and a
 * conversation's cache key stays the same from one run to the next.
 */
export function madeUpCallId(replyText: string, index: number, name: string, argumentsText: string): string {
  const hash = createHash('sha256')
    .update(JSON.stringify([replyText, index, name, argumentsText]))
    .digest('hex')
  return `call_${hash.slice(0, 24)}`
}
