/** Tokens a reply cost, as the provider counts them. */
export interface TokenUsage {
  prompt: number
  completion: number
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant'
  content: string
}

/** Request parameters; a provider ignores what it cannot express. */
export interface ChatParams {
  temperature?: number
  maxTokens?: number
  seed?: number
  topP?: number
  stop?: string[]
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
  signal?: AbortSignal
}

export interface ChatReply {
  text: string
  /** Reasoning/thinking text, where the provider returns it separately. */
  reasoning?: string
  tokens?: TokenUsage
  latencyMs: number
  /** How the model ended a whole reply, in the provider's words (`stop`, `length`, `end_turn`, `MAX_TOKENS`, `content_filter`…). */
  finishReason?: string
  /**
   * How a replayed answer must be read: a `completion` continues the prompt
   * (human-eval samples), a `solution` is a whole program (evalplus samples).
   */
  form?: 'reply' | 'completion' | 'solution'
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
