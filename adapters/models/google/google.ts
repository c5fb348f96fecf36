import {
  GoogleGenAI,
  ThinkingLevel,
  type GenerateContentResponse,
  type GenerateContentResponseUsageMetadata,
  type Content,
  type GenerateContentConfig,
  type ThinkingConfig,
} from '@google/genai'
import type {
  ChatReply,
  ChatRequest,
  ModelAdapter,
  ModelDetails,
  ThinkSetting,
  TokenUsage,
  ToolCall,
} from '../model-adapter.ts'
import { ProviderError } from '../model-adapter.ts'
import { askWithRetries, retryPolicy, type Transport } from '../requests/ask-with-retries.ts'
import type { Attempt } from '../requests/attempt.ts'
import { endpointSlots } from '../requests/endpoint-slots.ts'
import { providerConcurrency, thinkSetting, visionEnabled } from '../knobs.ts'
import { baseUrlOf, providerRow, requireApiKey } from '../providers.ts'
import { systemPrompt } from '../split-system.ts'
import { geminiContents, geminiTools } from './gemini-contents.ts'
import { geminiThinkFields } from '../think-fields.ts'
import { madeUpCallId } from '../made-up-call-id.ts'
import { argumentsText } from '../tool-arguments.ts'
import { preflightFetch } from '../requests/preflight-fetch.ts'
import { isConnectionFailure, requestFailed, statusOf, unreachable } from '../requests/provider-errors.ts'

const ROW = providerRow('google')

/** Gemini through @google/genai's generateContentStream (server-sent events). */
export class GoogleAdapter implements ModelAdapter {
  readonly provider = 'google'
  readonly model: string
  readonly label: string
  readonly baseUrl: string
  /** TESTBENCH_VISION: whether images are sent. */
  readonly canSee: boolean
  private readonly apiKey: string
  private readonly transport: Transport
  private readonly think: ThinkSetting | undefined

  constructor(model: string, env: NodeJS.ProcessEnv = process.env) {
    const apiKey = requireApiKey(ROW, env)
    this.model = model
    this.label = `google:${model}`
    this.apiKey = apiKey
    this.baseUrl = baseUrlOf(ROW, env)
    this.canSee = visionEnabled(env)
    this.think = thinkSetting(env)
    this.transport = {
      protocol: 'gemini',
      name: 'Gemini',
      endpoint: this.baseUrl,
      howToFix: ROW.howToFix,
      slots: endpointSlots(this.baseUrl, providerConcurrency('google', env)),
      policy: retryPolicy(env),
    }
  }

  /** A client per attempt costs about 0.02 ms of CPU (measured): unlike the OpenAI SDK's, its constructor makes little. */
  private clientWith(fetch: typeof globalThis.fetch): GoogleGenAI {
    return new GoogleGenAI({
      apiKey: this.apiKey,
      httpOptions: { baseUrl: this.baseUrl, fetch, retryOptions: { attempts: 1 } },
    })
  }

  async preflight(): Promise<ModelDetails> {
    try {
      const info = await this.clientWith(preflightFetch()).models.get({ model: this.model })
      const caveat = this.think === undefined ? undefined : geminiThinkFields(this.think, this.model).caveat
      if (caveat !== undefined) console.warn(`testbench: ${caveat}`)
      return {
        ...(info.version ? { version: info.version } : {}),
        vision: this.canSee ? 'yes' : 'no',
        ...(info.thinking === undefined ? {} : { thinks: info.thinking ? 'yes' : 'no' }),
      }
    } catch (error) {
      if (isConnectionFailure(error)) throw unreachable('Gemini', this.baseUrl, error, ROW.howToFix)
      if (statusOf(error) === 404)
        throw new ProviderError(`Gemini has no model "${this.model}" (HTTP 404 from ${this.baseUrl}).`)
      throw requestFailed('Gemini', 'the model check', error)
    }
  }

  async chat(request: ChatRequest): Promise<ChatReply> {
    if (request.mode === 'completion') {
      throw new ProviderError('Gemini has no raw completion endpoint: use the chat prompt mode with google: models.')
    }
    return askWithRetries(this.transport, request.item.itemId, request.signal, (attempt) =>
      this.attempt(request, attempt),
    )
  }

  private async attempt(request: ChatRequest, attempt: Attempt): Promise<ChatReply> {
    const started = performance.now()
    const body = geminiRequest(this.model, request, this.canSee)
    const stream = await this.clientWith(attempt.fetch).models.generateContentStream({
      ...body,
      config: { ...body.config, abortSignal: attempt.signal },
    })
    const parts = new GeminiReplyParts()
    for await (const chunk of stream) parts.add(chunk)
    return parts.reply(performance.now() - started)
  }
}

/** A generateContent reply joined from its responses: the chunks of a stream, or one whole response (batch mode). */
export class GeminiReplyParts {
  private text = ''
  private reasoning = ''
  private reasoningSignature: string | undefined
  private readonly calls: Array<Omit<ToolCall, 'id'> & { id?: string }> = []
  private tokens: TokenUsage | undefined
  private finishReason: string | undefined

  add(response: GenerateContentResponse): void {
    const candidate = response.candidates?.[0]
    for (const part of candidate?.content?.parts ?? []) {
      // A call arrives whole, in one part; its signature must go back with it, as received.
      if (part.functionCall) {
        const { id, name = '', args } = part.functionCall
        this.calls.push({
          name,
          arguments: argumentsText(args),
          ...(id ? { id } : {}),
          ...(part.thoughtSignature ? { signature: part.thoughtSignature } : {}),
        })
        continue
      }
      if (part.thoughtSignature) this.reasoningSignature = part.thoughtSignature
      if (part.thought) this.reasoning += part.text ?? ''
      else this.text += part.text ?? ''
    }
    if (response.usageMetadata) this.tokens = geminiUsage(response.usageMetadata)
    if (candidate?.finishReason) this.finishReason = candidate.finishReason
  }

  reply(latencyMs: number): ChatReply {
    const { text, reasoning, reasoningSignature, tokens, finishReason } = this
    const toolCalls = this.calls.map((call, index): ToolCall => ({
      ...call,
      id: call.id ?? madeUpCallId(text, index, call.name, call.arguments),
    }))
    return {
      text,
      latencyMs,
      ...(tokens ? { tokens } : {}),
      ...(reasoning ? { reasoning } : {}),
      ...(reasoningSignature ? { reasoningSignature } : {}),
      ...(toolCalls.length > 0 ? { toolCalls } : {}),
      ...(finishReason ? { finishReason } : {}),
    }
  }
}

/**
 * Gemini's usage as billed: thinking is output (`thoughtsTokenCount`, apart from `candidatesTokenCount`, which
 * a reply cut before any text leaves out), the prompt of server-side tools is input; `cachedContentTokenCount`
 * is part of `promptTokenCount`.
 */
export function geminiUsage(usage: GenerateContentResponseUsageMetadata): TokenUsage {
  const reasoning = usage.thoughtsTokenCount
  const cacheRead = usage.cachedContentTokenCount
  return {
    prompt: (usage.promptTokenCount ?? 0) + (usage.toolUsePromptTokenCount ?? 0),
    completion: (usage.candidatesTokenCount ?? 0) + (reasoning ?? 0),
    ...(reasoning === undefined ? {} : { reasoning }),
    ...(cacheRead === undefined ? {} : { cacheRead }),
  }
}

/** A generateContent request as the SDK takes it, streamed or not (batch mode carries it as is). */
export function geminiRequest(
  model: string,
  request: ChatRequest,
  canSee: boolean,
): { model: string; contents: Content[]; config: GenerateContentConfig } {
  const system = systemPrompt(request.messages)
  const { params, tools = [] } = request
  return {
    model,
    contents: geminiContents(request.messages, canSee),
    config: {
      ...(system ? { systemInstruction: system } : {}),
      ...(tools.length === 0 ? {} : { tools: geminiTools(tools) }),
      ...(params.temperature === undefined ? {} : { temperature: params.temperature }),
      ...(params.seed === undefined ? {} : { seed: params.seed }),
      ...(params.topP === undefined ? {} : { topP: params.topP }),
      ...(params.stop === undefined ? {} : { stopSequences: params.stop }),
      ...(params.maxTokens === undefined ? {} : { maxOutputTokens: params.maxTokens }),
      ...(params.think === undefined ? {} : { thinkingConfig: thinkingConfig(params.think, model) }),
    },
  }
}

/** The switch as the SDK types it (its levels are an enum of the same words). */
function thinkingConfig(think: ThinkSetting, model: string): ThinkingConfig {
  const { thinkingLevel, ...rest } = geminiThinkFields(think, model).fields.thinkingConfig
  return { ...rest, ...(thinkingLevel === undefined ? {} : { thinkingLevel: ThinkingLevel[thinkingLevel] }) }
}
