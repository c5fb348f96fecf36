import type { JsonValue } from './model-adapter.ts'

/**
 * A call's arguments as the object the wires that take objects want back (Anthropic's `input`, Gemini's
 * `args`, Ollama's `arguments`). Arguments the model wrote that are not a JSON object cannot be sent back
 * as they were; they go as `{}`, which is what the model's call amounted to (it got a tool error for it).
 */
export function argumentsObject(text: string): { [key: string]: JsonValue } {
  try {
    const value: unknown = JSON.parse(text)
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return value as { [key: string]: JsonValue }
  } catch {
    // Not JSON: the caller already saw the text as it was.
  }
  return {}
}

/** Arguments that arrive as an object (Ollama, Gemini) as the JSON text the contract carries; a string is kept as written. */
export function argumentsText(value: unknown): string {
  if (typeof value === 'string') return value
  return JSON.stringify(value ?? {})
}
