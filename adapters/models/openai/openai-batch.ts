import OpenAI, { toFile } from 'openai'
import type { ChatCompletion } from 'openai/resources/chat/completions'
import type { ChatReply, ChatRequest } from '../model-adapter.ts'
import { OpenAIReplyParts } from './openai-reply-parts.ts'
import { openaiChatBody, type OpenAIEndpoint } from './openai.ts'
import type { OpenAIApi } from './openai-api-choice.ts'
import { openaiResponsesBody } from './openai-responses.ts'
import { ResponsesReplyParts } from './openai-responses-events.ts'
import { CLOCK_SKEW_MS, LISTED_BATCHES, type BatchResult, type BatchState, type BatchWire } from '../batch-wire.ts'

/**
 * OpenAI's Batch API (and any compatible server's `/v1/batches`): the requests as a JSONL file uploaded with
 * purpose `batch`, one batch per file on `/v1/chat/completions` or `/v1/responses` (the API the model is asked
 * through, TESTBENCH_OPENAI_API) within `24h`; at most 50,000 requests and
 * 200 MB per file. Answers come in the output file, failed requests in the error file, both JSONL keyed by
 * `custom_id`; an expired or cancelled batch still has files for what it answered.
 */
export class OpenAIBatchWire implements BatchWire {
  readonly name: string
  readonly limits = { requests: 50_000, bytes: 200 * 1024 * 1024 }
  private readonly client: OpenAI
  private readonly model: string
  private readonly endpoint: OpenAIEndpoint
  private readonly canSee: boolean
  private readonly url: '/v1/chat/completions' | '/v1/responses'

  constructor(model: string, endpoint: OpenAIEndpoint, canSee: boolean, api: OpenAIApi = 'chat') {
    this.name = endpoint.name
    this.model = model
    this.endpoint = endpoint
    this.canSee = canSee
    this.url = api === 'responses' ? '/v1/responses' : '/v1/chat/completions'
    this.client = new OpenAI({ apiKey: endpoint.apiKey ?? 'none', baseURL: endpoint.baseURL, maxRetries: 0 })
  }

  line(key: string, request: ChatRequest): string {
    const body =
      this.url === '/v1/responses'
        ? openaiResponsesBody(this.model, request, this.canSee)
        : openaiChatBody(this.model, request, this.endpoint, this.canSee)
    return JSON.stringify({ custom_id: key, method: 'POST', url: this.url, body })
  }

  async submit(lines: readonly string[], tag: string): Promise<string> {
    const file = await this.client.files.create({
      file: await toFile(Buffer.from(`${lines.join('\n')}\n`), 'testbench-batch.jsonl'),
      purpose: 'batch',
    })
    const batch = await this.client.batches.create({
      input_file_id: file.id,
      endpoint: this.url,
      completion_window: '24h',
      metadata: { source: 'llm-testbench', testbench_tag: tag },
    })
    return batch.id
  }

  async find(tag: string, since: number, _size: number, taken: ReadonlySet<string>): Promise<string | undefined> {
    let listed = 0
    // Newest first: the list stops at the batches made before the journal's record.
    for await (const batch of this.client.batches.list({ limit: 100 })) {
      if (batch.created_at * 1000 < since - CLOCK_SKEW_MS || ++listed > LISTED_BATCHES) return undefined
      if (batch.metadata?.testbench_tag === tag && !taken.has(batch.id)) return batch.id
    }
    return undefined
  }

  async poll(id: string): Promise<BatchState> {
    const batch = await this.client.batches.retrieve(id)
    const counts = batch.request_counts
    const ended = ['completed', 'expired', 'cancelled', 'failed'].includes(batch.status)
    const refusal = batch.errors?.data?.map((error) => `${error.code ?? 'error'}: ${error.message ?? ''}`).join('; ')
    return {
      status: batch.status,
      done: (counts?.completed ?? 0) + (counts?.failed ?? 0),
      total: counts?.total ?? 0,
      phase: ended ? 'ended' : 'running',
      ...(batch.status === 'failed' ? { refused: refusal || 'the batch failed validation' } : {}),
    }
  }

  async results(id: string): Promise<BatchResult[]> {
    const batch = await this.client.batches.retrieve(id)
    const results: BatchResult[] = []
    for (const fileId of [batch.output_file_id, batch.error_file_id]) {
      if (!fileId) continue
      const text = await (await this.client.files.content(fileId)).text()
      for (const line of text.split('\n')) if (line.trim() !== '') results.push(openaiBatchResult(line))
    }
    return results
  }
}

interface OutputLine {
  custom_id: string
  response?: { status_code: number; body?: unknown } | null
  error?: { code?: string; message?: string } | null
}

/** One line of an output or error file. */
export function openaiBatchResult(line: string): BatchResult {
  const parsed = JSON.parse(line) as OutputLine
  const key = parsed.custom_id
  if (parsed.error) return { key, error: `${parsed.error.code ?? 'error'}: ${parsed.error.message ?? ''}` }
  const response = parsed.response
  if (!response || response.status_code !== 200) {
    const body = response?.body as { error?: { message?: string } } | undefined
    return { key, error: `HTTP ${response?.status_code ?? '?'}: ${body?.error?.message ?? 'no answer'}` }
  }
  const body = response.body as Record<string, unknown>
  if (body.object !== 'response') return { key, reply: openaiCompletionReply(body as unknown as ChatCompletion) }
  const error = body.error as { code?: string; message?: string } | null | undefined
  if (body.status === 'failed' || error)
    return { key, error: `${error?.code ?? 'failed'}: ${error?.message ?? 'the response failed'}` }
  return { key, reply: responseReply(body) }
}

/** A whole Response object (a `/v1/responses` line's answer) as a reply: its status is how it ended. */
export function responseReply(response: Record<string, unknown>): ChatReply {
  const parts = new ResponsesReplyParts()
  parts.addWhole(response)
  const sendBack = parts.sendBack()
  const toolCalls = parts.toolCalls()
  return {
    text: parts.text,
    latencyMs: 0,
    ...(parts.tokens ? { tokens: parts.tokens } : {}),
    ...(parts.reasoning !== '' ? { reasoning: parts.reasoning } : {}),
    ...(sendBack ? { sendBack } : {}),
    ...(toolCalls.length > 0 ? { toolCalls } : {}),
    ...(parts.finishReason === undefined ? {} : { finishReason: parts.finishReason }),
  }
}

/**
 * A whole (not streamed) chat completion as a reply, read as one chunk whose delta is the whole message: its content in
 * every shape a stream may carry (typed parts, OpenAI's `refusal`), and reasoning under each server's name.
 */
export function openaiCompletionReply(completion: ChatCompletion): ChatReply {
  const choice = completion.choices[0]
  const parts = new OpenAIReplyParts()
  parts.add({ choices: [{ delta: choice?.message ?? {} }], usage: completion.usage })
  return {
    text: parts.text,
    latencyMs: 0,
    ...(parts.tokens ? { tokens: parts.tokens } : {}),
    ...(parts.reasoning !== '' ? { reasoning: parts.reasoning } : {}),
    ...(choice?.finish_reason ? { finishReason: choice.finish_reason } : {}),
  }
}
