import { Ollama, type ModelResponse } from 'ollama'
import type { ChatReply, ChatRequest, ModelAdapter, ModelDetails, ThinkSetting, ToolCall } from '../model-adapter.ts'
import { ProviderError } from '../model-adapter.ts'
import { askWithRetries, retryPolicy, type Transport } from '../requests/ask-with-retries.ts'
import type { Attempt } from '../requests/attempt.ts'
import { endpointSlots } from '../requests/endpoint-slots.ts'
import { providerConcurrency, thinkSetting, visionEnabled } from '../knobs.ts'
import { preflightFetch } from '../requests/preflight-fetch.ts'
import { isConnectionFailure, unreachable } from '../requests/provider-errors.ts'
import { providerRow } from '../providers.ts'
import { ollamaMessages, ollamaTools } from './ollama-messages.ts'
import { ollamaThinkFields } from '../think-fields.ts'
import { madeUpCallId } from '../made-up-call-id.ts'
import { argumentsText } from '../tool-arguments.ts'
import { lastUserText } from '../completion-prompt.ts'

/** Ollama's address from OLLAMA_HOST as its own CLI reads it: `host`, `host:port` or a URL; default 127.0.0.1:11434. */
export function ollamaHost(env: NodeJS.ProcessEnv = process.env): string {
  const raw = (env.OLLAMA_HOST ?? '').trim() || '127.0.0.1:11434'
  const hasScheme = /^[a-z]+:\/\//i.test(raw)
  const url = new URL(hasScheme ? raw : `http://${raw}`)
  if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1'
  if (!hasScheme && url.port === '') url.port = '11434'
  return url.origin
}

const HOW_TO_FIX = providerRow('ollama').howToFix

/** Every model the local Ollama has, for `ollama:*`. */
export async function listOllamaModels(env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  return (await listModels(ollamaHost(env))).map((model) => model.name)
}

async function listModels(host: string): Promise<ModelResponse[]> {
  const client = new Ollama({ host, fetch: preflightFetch() })
  try {
    return (await client.list()).models
  } catch (error) {
    if (isConnectionFailure(error)) throw unreachable('Ollama', host, error, HOW_TO_FIX)
    throw new ProviderError(
      `Ollama at ${host} did not list its models: ${error instanceof Error ? error.message : String(error)}`,
    )
  }
}

export class OllamaAdapter implements ModelAdapter {
  readonly provider = 'ollama'
  readonly model: string
  readonly label: string
  readonly host: string
  private readonly transport: Transport
  private readonly think: ThinkSetting | undefined
  /** TESTBENCH_VISION, for an Ollama too old to list its model's capabilities. */
  private readonly visionKnob: boolean
  /** What /api/show says the model can do (`vision`, `thinking`, `tools`…); undefined from an Ollama that does not say. */
  private capabilities: Promise<string[] | undefined> | undefined

  constructor(model: string, env: NodeJS.ProcessEnv = process.env) {
    this.model = model
    this.label = `ollama:${model}`
    this.host = ollamaHost(env)
    this.think = thinkSetting(env)
    this.visionKnob = visionEnabled(env)
    this.transport = {
      protocol: 'ollama',
      name: 'Ollama',
      endpoint: this.host,
      howToFix: HOW_TO_FIX,
      slots: endpointSlots(this.host, providerConcurrency('ollama', env)),
      policy: retryPolicy(env),
    }
  }

  async preflight(): Promise<ModelDetails> {
    const models = await listModels(this.host)
    const found = models.find((entry) => entry.name === this.model || entry.name === `${this.model}:latest`)
    if (!found) {
      const local = models.map((entry) => entry.name).join(', ') || 'none'
      throw new ProviderError(
        `Ollama at ${this.host} has no model "${this.model}". Pull it with \`ollama pull ${this.model}\`. Local models: ${local}.`,
      )
    }
    const details: ModelDetails = { digest: found.digest }
    if (found.details.parameter_size) details.parameterSize = found.details.parameter_size
    if (found.details.quantization_level) details.quantization = found.details.quantization_level
    if (found.details.family) details.family = found.details.family
    const show = await new Ollama({ host: this.host, fetch: preflightFetch() }).show({ model: found.name })
    const contextLength = contextLengthOf(show.model_info)
    if (contextLength !== undefined) details.contextLength = contextLength
    const capabilities = Array.isArray(show.capabilities) ? show.capabilities : undefined
    this.capabilities = Promise.resolve(capabilities)
    details.vision = this.sees(capabilities) ? 'yes' : 'no'
    if (capabilities !== undefined) details.thinks = capabilities.includes('thinking') ? 'yes' : 'no'
    const caveat = this.think === undefined ? undefined : ollamaThinkFields(this.think, this.model, capabilities).caveat
    if (caveat !== undefined) console.warn(`testbench: ${caveat}`)
    return details
  }

  private sees(capabilities: readonly string[] | undefined): boolean {
    return capabilities === undefined ? this.visionKnob : capabilities.includes('vision')
  }

  /** Asked once, and only by a request that sends images or switches thinking. */
  private capabilitiesOnce(): Promise<string[] | undefined> {
    this.capabilities ??= new Ollama({ host: this.host, fetch: preflightFetch() })
      .show({ model: this.model })
      .then((show) => (Array.isArray(show.capabilities) ? show.capabilities : undefined))
    return this.capabilities
  }

  async chat(request: ChatRequest): Promise<ChatReply> {
    const needsCapabilities =
      request.params.think !== undefined ||
      request.messages.some((message) => message.role === 'user' && (message.images?.length ?? 0) > 0)
    if (needsCapabilities) {
      try {
        await this.capabilitiesOnce()
      } catch (error) {
        this.capabilities = undefined
        if (isConnectionFailure(error)) throw unreachable('Ollama', this.host, error, HOW_TO_FIX)
        throw new ProviderError(
          `Ollama at ${this.host} did not say what ${this.model} can do (/api/show): ${error instanceof Error ? error.message : String(error)}`,
        )
      }
    }
    return askWithRetries(this.transport, request.item.itemId, request.signal, (attempt) =>
      this.attempt(request, attempt),
    )
  }

  private async attempt(request: ChatRequest, attempt: Attempt): Promise<ChatReply> {
    const started = performance.now()
    const { params, tools = [] } = request
    const options = {
      ...(params.temperature === undefined ? {} : { temperature: params.temperature }),
      ...(params.seed === undefined ? {} : { seed: params.seed }),
      ...(params.topP === undefined ? {} : { top_p: params.topP }),
      ...(params.maxTokens === undefined ? {} : { num_predict: params.maxTokens }),
      ...(params.stop === undefined ? {} : { stop: params.stop }),
    }
    const capabilities = await this.capabilities
    const think = params.think === undefined ? {} : ollamaThinkFields(params.think, this.model, capabilities).fields
    // ollama-js aborts only through its own controller: the attempt's fetch carries the attempt's signal. A client per
    // attempt costs about 0.01 ms; a shared one would keep every stream that broke (it forgets only those that end).
    const client = new Ollama({ host: this.host, fetch: attempt.fetch })
    const stream =
      request.mode === 'completion'
        ? await client.generate({
            model: this.model,
            prompt: lastUserText(request),
            raw: true,
            stream: true,
            options,
            ...think,
          })
        : await client.chat({
            model: this.model,
            messages: ollamaMessages(request.messages, this.sees(capabilities)),
            ...(tools.length === 0 ? {} : { tools: ollamaTools(tools) }),
            stream: true,
            options,
            ...think,
          })
    let text = ''
    let reasoning = ''
    let tokens = { prompt: 0, completion: 0 }
    const calls: Array<{ name: string; arguments: string }> = []
    for await (const part of stream) {
      if ('message' in part) {
        text += part.message.content
        reasoning += part.message.thinking ?? ''
        // Calls arrive whole, each in one line, arguments as an object.
        for (const call of part.message.tool_calls ?? [])
          calls.push({ name: call.function.name, arguments: argumentsText(call.function.arguments) })
      } else {
        text += part.response ?? ''
        reasoning += part.thinking ?? ''
      }
      if (part.done) tokens = { prompt: part.prompt_eval_count ?? 0, completion: part.eval_count ?? 0 }
    }
    const toolCalls = calls.map((call, index): ToolCall => ({
      id: madeUpCallId(text, index, call.name, call.arguments),
      ...call,
    }))
    return {
      text,
      tokens,
      latencyMs: performance.now() - started,
      ...(reasoning ? { reasoning } : {}),
      ...(toolCalls.length > 0 ? { toolCalls } : {}),
    }
  }
}

function contextLengthOf(modelInfo: unknown): number | undefined {
  if (typeof modelInfo !== 'object' || modelInfo === null) return undefined
  for (const [key, value] of Object.entries(modelInfo)) {
    if (key.endsWith('.context_length') && typeof value === 'number') return value
  }
  return undefined
}
