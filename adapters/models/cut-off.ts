/**
 * Whether a reply ended because it reached its token limit, in any protocol's words: OpenAI's and Ollama's
 * `length`, Anthropic's `max_tokens` and `model_context_window_exceeded`, Gemini's `MAX_TOKENS`, OpenAI Responses' `max_output_tokens`.
 */
export function isCutOffAtTokenLimit(finishReason: string | undefined): boolean {
  return finishReason !== undefined && TOKEN_LIMIT_WORDS.has(finishReason.trim().toLowerCase())
}

const TOKEN_LIMIT_WORDS: ReadonlySet<string> = new Set([
  'length',
  'max_tokens',
  'model_context_window_exceeded',
  'max_output_tokens',
])
