import { Ollama, type ModelResponse } from 'ollama'
import type { ChatReply, ChatRequest, ModelAdapter, ModelDetails } from './model-adapter.ts'
import { ProviderError } from './model-adapter.ts'
import { askWithRetries, retryPolicy, type Transport } from './ask-with-retries.ts'
import type { Attempt } from './attempt.ts'
import { endpointSlots } from './endpoint-slots.ts'
import { providerConcurrency } from './knobs.ts'
import { preflightFetch } from './preflight-fetch.ts'
import { isConnectionFailure, unreachable } from './provider-errors.ts'
import { providerRow } from './providers.ts'
import { textTurns } from './text-turns.ts'
import { lastUserText } from './completion-prompt.ts'

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
    throw new ProviderError(`Ollama at ${host} did not list its models: ${error instanceof Error ? error.message : String(error)}`)
  }
}

export class OllamaAdapter implements ModelAdapter {
  readonly provider = 'ollama'
  readonly model: string
  readonly label: string
  readonly host: string
  private readonly transport: Transport

  constructor(model: string, env: NodeJS.ProcessEnv = process.env) {
    this.model = model
    this.label = `ollama:${model}`
    this.host = ollamaHost(env)
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
    return details
  }

  async chat(request: ChatRequest): Promise<ChatReply> {
    return askWithRetries(this.transport, request.item.itemId, request.signal, (attempt) => this.attempt(request, attempt))
  }

  private async attempt(request: ChatRequest, attempt: Attempt): Promise<ChatReply> {
    const started = performance.now()
    const { params } = request
    const options = {
      ...(params.temperature === undefined ? {} : { temperature: params.temperature }),
      ...(params.seed === undefined ? {} : { seed: params.seed }),
      ...(params.topP === undefined ? {} : { top_p: params.topP }),
      ...(params.maxTokens === undefined ? {} : { num_predict: params.maxTokens }),
      ...(params.stop === undefined ? {} : { stop: params.stop }),
    }
    // ollama-js aborts only through its own controller: the attempt's fetch carries the attempt's signal.
    const client = new Ollama({ host: this.host, fetch: attempt.fetch })
    const stream =
      request.mode === 'completion'
        ? await client.generate({ model: this.model, prompt: lastUserText(request), raw: true, stream: true, options })
        : await client.chat({ model: this.model, messages: textTurns(request.messages), stream: true, options })
    let text = ''
    let reasoning = ''
    let tokens = { prompt: 0, completion: 0 }
    for await (const part of stream) {
      if ('message' in part) {
        text += part.message.content
        reasoning += part.message.thinking ?? ''
      } else {
        text += part.response ?? ''
        reasoning += part.thinking ?? ''
      }
      if (part.done) tokens = { prompt: part.prompt_eval_count ?? 0, completion: part.eval_count ?? 0 }
    }
    return { text, tokens, latencyMs: performance.now() - started, ...(reasoning ? { reasoning } : {}) }
  }
}

function contextLengthOf(modelInfo: unknown): number | undefined {
  if (typeof modelInfo !== 'object' || modelInfo === null) return undefined
  for (const [key, value] of Object.entries(modelInfo)) {
    if (key.endsWith('.context_length') && typeof value === 'number') return value
  }
  return undefined
}
