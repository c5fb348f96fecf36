import { GoogleGenAI } from '@google/genai'
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

const ROW = providerRow('google')

/** Gemini through @google/genai's generateContentStream (server-sent events). */
export class GoogleAdapter implements ModelAdapter {
  readonly provider = 'google'
  readonly model: string
  readonly label: string
  readonly baseUrl: string
  private readonly apiKey: string
  private readonly transport: Transport

  constructor(model: string, env: NodeJS.ProcessEnv = process.env) {
    const apiKey = requireApiKey(ROW, env)
    this.model = model
    this.label = `google:${model}`
    this.apiKey = apiKey
    this.baseUrl = baseUrlOf(ROW, env)
    this.transport = {
      protocol: 'gemini',
      name: 'Gemini',
      endpoint: this.baseUrl,
      howToFix: ROW.howToFix,
      slots: endpointSlots(this.baseUrl, providerConcurrency('google', env)),
      policy: retryPolicy(env),
    }
  }

  private clientWith(fetch: typeof globalThis.fetch): GoogleGenAI {
    return new GoogleGenAI({ apiKey: this.apiKey, httpOptions: { baseUrl: this.baseUrl, fetch, retryOptions: { attempts: 1 } } })
  }

  async preflight(): Promise<ModelDetails> {
    try {
      const info = await this.clientWith(preflightFetch()).models.get({ model: this.model })
      return info.version ? { version: info.version } : {}
    } catch (error) {
      if (isConnectionFailure(error)) throw unreachable('Gemini', this.baseUrl, error, ROW.howToFix)
      if (statusOf(error) === 404) throw new ProviderError(`Gemini has no model "${this.model}" (HTTP 404 from ${this.baseUrl}).`)
      throw requestFailed('Gemini', 'the model check', error)
    }
  }

  async chat(request: ChatRequest): Promise<ChatReply> {
    if (request.mode === 'completion') {
      throw new ProviderError('Gemini has no raw completion endpoint: use the chat prompt mode with google: models.')
    }
    return askWithRetries(this.transport, request.item.itemId, request.signal, (attempt) => this.attempt(request, attempt))
  }

  private async attempt(request: ChatRequest, attempt: Attempt): Promise<ChatReply> {
    const started = performance.now()
    const { system, conversation } = splitSystem(request.messages)
    const contents = conversation.map((message) => ({ role: message.role === 'assistant' ? 'model' : 'user', parts: [{ text: message.content }] }))
    const { params } = request
    const stream = await this.clientWith(attempt.fetch).models.generateContentStream({
      model: this.model,
      contents,
      config: {
        ...(system ? { systemInstruction: system } : {}),
        ...(params.temperature === undefined ? {} : { temperature: params.temperature }),
        ...(params.seed === undefined ? {} : { seed: params.seed }),
        ...(params.topP === undefined ? {} : { topP: params.topP }),
        ...(params.stop === undefined ? {} : { stopSequences: params.stop }),
        ...(params.maxTokens === undefined ? {} : { maxOutputTokens: params.maxTokens }),
        abortSignal: attempt.signal,
      },
    })
    let text = ''
    let reasoning = ''
    let tokens: TokenUsage | undefined
    for await (const chunk of stream) {
      for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
        if (part.thought) reasoning += part.text ?? ''
        else text += part.text ?? ''
      }
      const usage = chunk.usageMetadata
      if (usage) tokens = { prompt: usage.promptTokenCount ?? 0, completion: usage.candidatesTokenCount ?? 0 }
    }
    return { text, latencyMs: performance.now() - started, ...(tokens ? { tokens } : {}), ...(reasoning ? { reasoning } : {}) }
  }
}
