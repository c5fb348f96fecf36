import OpenAI from 'openai'
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions'
import type { TokenUsage } from '../model-adapter.ts'
import type {
  ChatParams,
  ChatReply,
  ChatRequest,
  ModelAdapter,
  ModelDetails,
  ThinkSetting,
  ToolCall,
} from '../model-adapter.ts'
import { ProviderError } from '../model-adapter.ts'
import { askWithRetries, retryPolicy, type Transport } from '../requests/ask-with-retries.ts'
import type { Attempt } from '../requests/attempt.ts'
import { attemptFetch, throughAttempt } from '../requests/attempt-fetch.ts'
import { endpointSlots } from '../requests/endpoint-slots.ts'
import { providerConcurrency, thinkSetting, visionEnabled } from '../knobs.ts'
import { preflightFetch } from '../requests/preflight-fetch.ts'
import { openaiMessages, openaiTools } from './openai-messages.ts'
import { OpenAIReplyParts } from './openai-reply-parts.ts'
import { openaiUsage } from './openai-usage.ts'
import { StreamedError } from '../requests/streamed-error.ts'
import { openaiThinkFields, responsesThinkFields, type OpenAIThinkStyle } from '../think-fields.ts'
import { openaiApiFor, type OpenAIApi } from './openai-api-choice.ts'
import { askResponses, openaiResponsesBody } from './openai-responses.ts'
import { lastUserText } from '../completion-prompt.ts'
import { isConnectionFailure, statusOf, unreachable } from '../requests/provider-errors.ts'
import { apiKeyOf, baseUrlOf, missingKey, providerRow, type ProviderRow } from '../providers.ts'

/** Where an OpenAI-compatible endpoint is and how to reach it. */
export interface OpenAIEndpoint {
  provider: string
  /** As people know it in messages: `OpenAI`, `OpenRouter`. */
  name: string
  baseURL: string
  apiKey: string | undefined
  /** What to tell a user whose endpoint does not answer. */
  howToFix: string
  /** The official API wants `max_completion_tokens`; compatible servers know `max_tokens`. */
  officialApi: boolean
  /** Where TESTBENCH_THINK goes: the official API's `reasoning_effort`, OpenRouter's `reasoning`, or (the default) a local server's chat template. */
  thinkStyle?: OpenAIThinkStyle
  /** The provider's row in the table, for the variable a missing key names. */
  row: ProviderRow
}

export function openaiEndpoint(env: NodeJS.ProcessEnv = process.env): OpenAIEndpoint {
  const row = providerRow('openai')
  const baseURL = baseUrlOf(row, env)
  const officialApi = baseURL === row.defaultBaseUrl
  return {
    provider: row.prefix,
    name: officialApi ? row.name : 'The OpenAI-compatible server',
    baseURL,
    // Local servers (llama-server, vLLM, LM Studio) accept any key.
    apiKey: apiKeyOf(row, env) ?? (officialApi ? undefined : 'none'),
    howToFix: officialApi
      ? row.howToFix
      : 'Start the server (llama-server, vLLM, LM Studio…), or fix OPENAI_BASE_URL; it must end in /v1 for most servers.',
    officialApi,
    thinkStyle: officialApi ? 'reasoning_effort' : 'chat_template_kwargs',
    row,
  }
}

/**
 * Chat Completions or the Responses API (TESTBENCH_OPENAI_API, for `openai:` models; OpenRouter's are asked through
 * Chat Completions) over any OpenAI-compatible endpoint, streamed so long generations do not hit idle timeouts.
 */
export class OpenAIAdapter implements ModelAdapter {
  readonly provider: string
  readonly model: string
  readonly label: string
  readonly endpoint: OpenAIEndpoint
  /** Which API the model's conversations go through; raw completions (`mode: 'completion'`) always use `/v1/completions`. */
  readonly api: OpenAIApi
  /** TESTBENCH_VISION: whether images are sent. */
  readonly canSee: boolean
  /** TESTBENCH_THINK, for the one warning of what the model cannot honour. */
  private readonly think: ThinkSetting | undefined
  private readonly client: OpenAI
  private readonly transport: Transport
  /** The same endpoint and slots, its streams checked as the Responses API ends them. */
  private readonly responsesTransport: Transport

  constructor(model: string, endpoint: OpenAIEndpoint = openaiEndpoint(), env: NodeJS.ProcessEnv = process.env) {
    if (endpoint.apiKey === undefined) throw missingKey(endpoint.row)
    this.provider = endpoint.provider
    this.model = model
    this.label = `${endpoint.provider}:${model}`
    this.endpoint = endpoint
    this.api = endpoint.provider === 'openai' ? openaiApiFor(model, env) : 'chat'
    this.canSee = visionEnabled(env)
    this.think = thinkSetting(env)
    this.client = new OpenAI({
      apiKey: endpoint.apiKey,
      baseURL: endpoint.baseURL,
      maxRetries: 0,
      timeout: 2 ** 31 - 1,
      fetch: attemptFetch,
    })
    this.transport = {
      protocol: 'openai',
      name: endpoint.name,
      endpoint: endpoint.baseURL,
      howToFix: endpoint.howToFix,
      slots: endpointSlots(endpoint.baseURL, providerConcurrency(endpoint.provider, env)),
      policy: retryPolicy(env),
    }
    this.responsesTransport = { ...this.transport, protocol: 'openai-responses' }
  }

  async preflight(): Promise<ModelDetails> {
    const client = this.client.withOptions({ fetch: preflightFetch() })
    const caveat =
      this.think === undefined
        ? undefined
        : this.api === 'responses'
          ? responsesThinkFields(this.think, this.model).caveat
          : openaiThinkFields(this.think, this.endpoint.thinkStyle ?? 'chat_template_kwargs', this.model).caveat
    if (caveat !== undefined) console.warn(`testbench: ${caveat}`)
    try {
      const ids: string[] = []
      for await (const model of client.models.list()) ids.push(model.id)
      if (ids.length > 0 && !ids.includes(this.model)) {
        const shown = ids.slice(0, 20).join(', ') + (ids.length > 20 ? ', …' : '')
        throw new ProviderError(
          `${this.endpoint.name} at ${this.endpoint.baseURL} has no model "${this.model}". Models it lists: ${shown}.`,
        )
      }
      return this.abilities()
    } catch (error) {
      if (error instanceof ProviderError) throw error
      if (isConnectionFailure(error))
        throw unreachable(this.endpoint.name, this.endpoint.baseURL, error, this.endpoint.howToFix)
      const status = statusOf(error)
      if (status === 401 || status === 403) {
        throw new ProviderError(
          `${this.endpoint.name} at ${this.endpoint.baseURL} refused the API key (HTTP ${status}).`,
        )
      }
      return this.abilities() // Servers without a model list still answer chat requests.
    }
  }

  private abilities(): ModelDetails {
    return { vision: this.canSee ? 'yes' : 'no', api: this.api }
  }

  async chat(request: ChatRequest): Promise<ChatReply> {
    if (request.mode !== 'completion' && this.api === 'responses') {
      const body = openaiResponsesBody(this.model, request, this.canSee)
      return askWithRetries(this.responsesTransport, request.item.itemId, request.signal, (attempt) =>
        askResponses(this.client, body, attempt),
      )
    }
    return askWithRetries(this.transport, request.item.itemId, request.signal, (attempt) =>
      request.mode === 'completion' ? this.complete(request, attempt) : this.converse(request, attempt),
    )
  }

  private async converse(request: ChatRequest, attempt: Attempt): Promise<ChatReply> {
    const started = performance.now()
    const stream = await throughAttempt(attempt.fetch, () =>
      this.client.chat.completions.create(
        {
          ...openaiChatBody(this.model, request, this.endpoint, this.canSee),
          stream: true,
          stream_options: { include_usage: true },
        },
        { signal: attempt.signal },
      ),
    )
    const parts = new OpenAIReplyParts()
    try {
      for await (const chunk of stream) parts.add(chunk as unknown as Record<string, unknown>)
    } catch (error) {
      throw streamedErrorOf(error) ?? error
    }
    const toolCalls: ToolCall[] = parts.toolCalls()
    const sendBack = parts.sendBack()
    return {
      text: parts.text,
      latencyMs: performance.now() - started,
      ...(parts.tokens ? { tokens: parts.tokens } : {}),
      ...(parts.reasoning ? { reasoning: parts.reasoning } : {}),
      ...(sendBack ? { sendBack } : {}),
      ...(toolCalls.length > 0 ? { toolCalls } : {}),
    }
  }

  private async complete(request: ChatRequest, attempt: Attempt): Promise<ChatReply> {
    const started = performance.now()
    const { params } = request
    const stream = await throughAttempt(attempt.fetch, () =>
      this.client.completions.create(
        {
          model: this.model,
          prompt: lastUserText(request),
          stream: true,
          stream_options: { include_usage: true },
          ...samplingParams(params),
          ...(params.maxTokens === undefined ? {} : { max_tokens: params.maxTokens }),
        },
        { signal: attempt.signal },
      ),
    )
    let text = ''
    let tokens: TokenUsage | undefined
    for await (const chunk of stream) {
      text += chunk.choices[0]?.text ?? ''
      if (chunk.usage) tokens = openaiUsage(chunk.usage as unknown as Record<string, unknown>)
    }
    return { text, latencyMs: performance.now() - started, ...(tokens ? { tokens } : {}) }
  }
}

/** The body of a chat request, streamed or not (the Batch API carries it as is). */
export function openaiChatBody(
  model: string,
  request: ChatRequest,
  endpoint: Pick<OpenAIEndpoint, 'officialApi' | 'thinkStyle'>,
  canSee: boolean,
): ChatCompletionCreateParamsNonStreaming {
  const { params, tools = [] } = request
  return {
    model,
    messages: openaiMessages(request.messages, canSee),
    ...(tools.length === 0 ? {} : { tools: openaiTools(tools) }),
    ...samplingParams(params),
    ...(params.maxTokens === undefined
      ? {}
      : endpoint.officialApi
        ? { max_completion_tokens: params.maxTokens }
        : { max_tokens: params.maxTokens }),
    ...(params.think === undefined
      ? {}
      : openaiThinkFields(params.think, endpoint.thinkStyle ?? 'chat_template_kwargs', model).fields),
  }
}

/** The sampling parameters both endpoints share, in the wire names; a parameter not set is not sent. */
function samplingParams(params: ChatParams): { temperature?: number; seed?: number; top_p?: number; stop?: string[] } {
  return {
    ...(params.temperature === undefined ? {} : { temperature: params.temperature }),
    ...(params.seed === undefined ? {} : { seed: params.seed }),
    ...(params.topP === undefined ? {} : { top_p: params.topP }),
    ...(params.stop === undefined ? {} : { stop: params.stop }),
  }
}

/**
 * An error the server sent inside a stream it had begun with HTTP 200 (the SDK throws it without a status):
 * OpenRouter's chunk with a top-level `error`, Groq's `event: error`. Groq's `tool_use_failed` is a sampled
 * call its server rejected, so a new request can succeed; an error coded as a 4xx other than 408 and 429 is
 * the request's fault; any other is transient.
 */
function streamedErrorOf(error: unknown): StreamedError | undefined {
  if (!(error instanceof OpenAI.APIError) || error.status !== undefined) return undefined
  const details: Record<string, unknown> =
    typeof error.error === 'object' && error.error !== null ? (error.error as Record<string, unknown>) : {}
  const code = details.code
  const status =
    typeof code === 'number' ? code : typeof details.status_code === 'number' ? details.status_code : undefined
  const retryable =
    code === 'tool_use_failed' || status === undefined || status === 408 || status === 429 || status >= 500
  return new StreamedError(error.message, retryable)
}
