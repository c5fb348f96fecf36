import Anthropic from '@anthropic-ai/sdk'
import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages'
import type { ChatReply, ChatRequest, JsonValue, ModelAdapter, ModelDetails, ToolCall } from '../model-adapter.ts'
import { AnthropicUsage } from './anthropic-usage.ts'
import { ProviderError } from '../model-adapter.ts'
import { askWithRetries, retryPolicy, type Transport } from '../requests/ask-with-retries.ts'
import type { Attempt } from '../requests/attempt.ts'
import { attemptFetch, throughAttempt } from '../requests/attempt-fetch.ts'
import { endpointSlots } from '../requests/endpoint-slots.ts'
import { providerConcurrency, visionEnabled } from '../knobs.ts'
import { baseUrlOf, providerRow, requireApiKey } from '../providers.ts'
import { systemPrompt } from '../split-system.ts'
import { anthropicMessages, anthropicTools } from './anthropic-messages.ts'
import { anthropicThinkFields } from '../think-fields.ts'
import { madeUpCallId } from '../made-up-call-id.ts'
import { preflightFetch } from '../requests/preflight-fetch.ts'
import { isConnectionFailure, requestFailed, statusOf, unreachable } from '../requests/provider-errors.ts'

/** Anthropic requires max_tokens; this is what a request without one gets. */
const DEFAULT_MAX_TOKENS = 8192
const ROW = providerRow('anthropic')

/** The body of a Messages request, streamed or not (Message Batches carry it as is). */
export function anthropicBody(model: string, request: ChatRequest, canSee: boolean): MessageCreateParamsNonStreaming {
  const system = systemPrompt(request.messages)
  const { params, tools = [] } = request
  const answerTokens = params.maxTokens ?? DEFAULT_MAX_TOKENS
  const thinking = params.think === undefined ? undefined : anthropicThinkFields(params.think, answerTokens).fields
  const thinks = thinking?.thinking.type === 'enabled'
  return {
    model,
    max_tokens: answerTokens,
    messages: anthropicMessages(request.messages, canSee),
    ...(system ? { system } : {}),
    ...(tools.length === 0 ? {} : { tools: anthropicTools(tools) }),
    // Anthropic refuses temperature and top_p beside extended thinking.
    ...(params.temperature === undefined || thinks ? {} : { temperature: params.temperature }),
    ...(params.topP === undefined || thinks ? {} : { top_p: params.topP }),
    ...(params.stop === undefined ? {} : { stop_sequences: params.stop }),
    ...(thinking ?? {}),
  }
}

export class AnthropicAdapter implements ModelAdapter {
  readonly provider = 'anthropic'
  readonly model: string
  readonly label: string
  readonly baseURL: string
  /** TESTBENCH_VISION: whether images are sent. */
  readonly canSee: boolean
  private readonly client: Anthropic
  private readonly transport: Transport

  constructor(model: string, env: NodeJS.ProcessEnv = process.env) {
    const apiKey = requireApiKey(ROW, env)
    this.model = model
    this.label = `anthropic:${model}`
    this.baseURL = baseUrlOf(ROW, env)
    this.canSee = visionEnabled(env)
    this.client = new Anthropic({
      apiKey,
      baseURL: this.baseURL,
      maxRetries: 0,
      timeout: 2 ** 31 - 1,
      fetch: attemptFetch,
    })
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
      return { version: info.id, vision: this.canSee ? 'yes' : 'no' }
    } catch (error) {
      if (isConnectionFailure(error)) throw unreachable('Anthropic', this.baseURL, error, ROW.howToFix)
      const status = statusOf(error)
      if (status === 404)
        throw new ProviderError(`Anthropic has no model "${this.model}" (HTTP 404 from ${this.baseURL}/v1/models).`)
      if (status === 401 || status === 403)
        throw new ProviderError(`Anthropic refused the API key (HTTP ${status}): check ANTHROPIC_API_KEY.`)
      throw requestFailed('Anthropic', 'the model check', error)
    }
  }

  async chat(request: ChatRequest): Promise<ChatReply> {
    if (request.mode === 'completion') {
      throw new ProviderError(
        'Anthropic has no raw completion endpoint: use the chat prompt mode with anthropic: models.',
      )
    }
    return askWithRetries(this.transport, request.item.itemId, request.signal, (attempt) =>
      this.attempt(request, attempt),
    )
  }

  private async attempt(request: ChatRequest, attempt: Attempt): Promise<ChatReply> {
    const started = performance.now()
    const stream = await throughAttempt(attempt.fetch, () =>
      this.client.messages.create(
        { ...anthropicBody(this.model, request, this.canSee), stream: true },
        { signal: attempt.signal },
      ),
    )
    // The raw events, joined here: the SDK's own accumulator parses `input_json_delta` as it comes and
    // throws on arguments that are not JSON, which must reach the caller as written.
    const blocks = new Map<number, Block>()
    const usage = new AnthropicUsage()
    for await (const event of stream) {
      if (event.type === 'message_start') usage.add(event.message.usage as unknown as Record<string, unknown>)
      else if (event.type === 'message_delta') usage.add(event.usage as unknown as Record<string, unknown>)
      else if (event.type === 'content_block_start') {
        const block = event.content_block
        blocks.set(event.index, {
          type: block.type,
          text: block.type === 'text' ? block.text : block.type === 'thinking' ? block.thinking : '',
          signature: block.type === 'thinking' ? block.signature : '',
          data: block.type === 'redacted_thinking' ? block.data : '',
          id: block.type === 'tool_use' ? block.id : '',
          name: block.type === 'tool_use' ? block.name : '',
        })
      } else if (event.type === 'content_block_delta') {
        const block = blocks.get(event.index)
        if (block === undefined) continue
        const { delta } = event
        if (delta.type === 'text_delta') block.text += delta.text
        else if (delta.type === 'thinking_delta') block.text += delta.thinking
        else if (delta.type === 'signature_delta') block.signature += delta.signature
        else if (delta.type === 'input_json_delta') block.text += delta.partial_json
      }
    }
    const ordered = [...blocks.entries()].sort(([a], [b]) => a - b).map(([, block]) => block)
    const text = ordered.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('')
    const thoughts = ordered.filter((block) => block.type === 'thinking')
    const reasoning = thoughts.map((block) => block.text).join('')
    const reasoningSignature = thoughts.at(-1)?.signature
    const thoughtBlocks = thinkingBlocks(ordered)
    const toolCalls: ToolCall[] = ordered
      .filter((block) => block.type === 'tool_use')
      // A tool_use block with no argument pieces at all is a call without arguments.
      .map((block, index) => ({
        id: block.id || madeUpCallId(text, index, block.name, block.text),
        name: block.name,
        arguments: block.text || '{}',
      }))
    const tokens = usage.tokens()
    return {
      text,
      tokens,
      latencyMs: performance.now() - started,
      ...(reasoning ? { reasoning } : {}),
      ...(reasoningSignature ? { reasoningSignature } : {}),
      ...(thoughtBlocks.length > 0 ? { sendBack: { thinking: thoughtBlocks } } : {}),
      ...(toolCalls.length > 0 ? { toolCalls } : {}),
    }
  }
}

/** One content block as it streams in; `text` holds a text's, a thinking's or a tool call's argument pieces. */
interface Block {
  type: string
  text: string
  signature: string
  data: string
  id: string
  name: string
}

/**
 * Every `thinking` block with its signature and every `redacted_thinking` block, in the order they came, as
 * the API wants them back, unmodified, before the `tool_use` they led to ("Preserving thinking blocks").
 */
function thinkingBlocks(blocks: readonly Block[]): JsonValue[] {
  return blocks.flatMap((block): JsonValue[] => {
    if (block.type === 'thinking') return [{ type: 'thinking', thinking: block.text, signature: block.signature }]
    if (block.type === 'redacted_thinking') return [{ type: 'redacted_thinking', data: block.data }]
    return []
  })
}
