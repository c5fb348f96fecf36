import Anthropic from '@anthropic-ai/sdk'
import type { TokenUsage } from './model-adapter.ts'
import type { ChatReply, ChatRequest, ModelAdapter, ModelDetails } from './model-adapter.ts'
import { ProviderError } from './model-adapter.ts'
import { askWithRetries, retryPolicy, type Transport } from './ask-with-retries.ts'
import type { Attempt } from './attempt.ts'
import { endpointSlots } from './endpoint-slots.ts'
import { providerConcurrency } from './knobs.ts'
import { baseUrlOf, providerRow, requireApiKey } from './providers.ts'
import { splitSystem } from './split-system.ts'
import { preflightFetch } from './preflight-fetch.ts'
import { isConnectionFailure, requestFailed, statusOf, unreachable } from './provider-errors.ts'

/** Anthropic requires max_tokens; this is what a request without one gets. */
const DEFAULT_MAX_TOKENS = 8192
const ROW = providerRow('anthropic')

export class AnthropicAdapter implements ModelAdapter {
  readonly provider = 'anthropic'
  readonly model: string
  readonly label: string
  readonly baseURL: string
  private readonly client: Anthropic
  private readonly transport: Transport

  constructor(model: string, env: NodeJS.ProcessEnv = process.env) {
    const apiKey = requireApiKey(ROW, env)
    this.model = model
    this.label = `anthropic:${model}`
    this.baseURL = baseUrlOf(ROW, env)
    this.client = new Anthropic({ apiKey, baseURL: this.baseURL, maxRetries: 0, timeout: 2 ** 31 - 1 })
    this.transport = {
      protocol: 'anthropic',
      name: 'Anthropic',
      endpoint: this.baseURL,
      howToFix: ROW.howToFix,
      slots: endpointSlots(this.baseURL, providerConcurrency('anthropic', env)),
      policy: retryPolicy(env),
    }
  }

  async preflight(): Promise<ModelDetails> {
    try {
      const info = await this.client.withOptions({ fetch: preflightFetch() }).models.retrieve(this.model)
      return { version: info.id }
    } catch (error) {
      if (isConnectionFailure(error)) throw unreachable('Anthropic', this.baseURL, error, ROW.howToFix)
      const status = statusOf(error)
      if (status === 404) throw new ProviderError(`Anthropic has no model "${this.model}" (HTTP 404 from ${this.baseURL}/v1/models).`)
      if (status === 401 || status === 403) throw new ProviderError(`Anthropic refused the API key (HTTP ${status}): check ANTHROPIC_API_KEY.`)
      throw requestFailed('Anthropic', 'the model check', error)
    }
  }

  async chat(request: ChatRequest): Promise<ChatReply> {
    if (request.mode === 'completion') {
      throw new ProviderError('Anthropic has no raw completion endpoint: use the chat prompt mode with anthropic: models.')
    }
    return askWithRetries(this.transport, request.item.itemId, request.signal, (attempt) => this.attempt(request, attempt))
  }

  private async attempt(request: ChatRequest, attempt: Attempt): Promise<ChatReply> {
    const started = performance.now()
    const { system, conversation: messages } = splitSystem(request.messages)
    const { params } = request
    const stream = this.client.withOptions({ fetch: attempt.fetch }).messages.stream(
      {
        model: this.model,
        max_tokens: params.maxTokens ?? DEFAULT_MAX_TOKENS,
        messages,
        ...(system ? { system } : {}),
        ...(params.temperature === undefined ? {} : { temperature: params.temperature }),
        ...(params.topP === undefined ? {} : { top_p: params.topP }),
        ...(params.stop === undefined ? {} : { stop_sequences: params.stop }),
      },
      { signal: attempt.signal },
    )
    const message = await stream.finalMessage()
    let text = ''
    let reasoning = ''
    for (const block of message.content) {
      if (block.type === 'text') text += block.text
      if (block.type === 'thinking') reasoning += block.thinking
    }
    const tokens: TokenUsage = { prompt: message.usage.input_tokens, completion: message.usage.output_tokens }
    return { text, tokens, latencyMs: performance.now() - started, ...(reasoning ? { reasoning } : {}) }
  }
}
