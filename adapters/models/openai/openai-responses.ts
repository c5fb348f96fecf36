import OpenAI from 'openai'
import type { ResponseCreateParamsNonStreaming, ResponseIncludable } from 'openai/resources/responses/responses'
import type { ChatReply, ChatRequest } from '../model-adapter.ts'
import type { Attempt } from '../requests/attempt.ts'
import { throughAttempt } from '../requests/attempt-fetch.ts'
import { reasoningModelName, reasonlessModelName } from './openai-api-choice.ts'
import { responsesInput, responsesTools } from './openai-responses-input.ts'
import { ResponsesReplyParts, type ResponsesFailure } from './openai-responses-events.ts'
import { StreamedError } from '../requests/streamed-error.ts'
import { responsesThinkFields } from '../think-fields.ts'

/**
 * The body of a Responses API request (`POST /v1/responses`), streamed or not (the Batch API carries it as is):
 * stateless (`store: false`, every turn's input carrying the earlier ones), with the reasoning asked back encrypted
 * so that it can go back with the next turn (but from the OpenAI models that do not reason, which refuse it); the
 * token limit as `max_output_tokens`; TESTBENCH_THINK as `reasoning`. The API has no `seed` nor `stop`, and
 * reasoning models refuse `temperature` and `top_p`: those are not sent.
 */
export function openaiResponsesBody(
  model: string,
  request: ChatRequest,
  canSee: boolean,
): ResponseCreateParamsNonStreaming {
  const { params, tools = [] } = request
  const include: ResponseIncludable[] = reasonlessModelName(model) ? [] : ['reasoning.encrypted_content']
  const sampling = reasoningModelName(model)
    ? {}
    : {
        ...(params.temperature === undefined ? {} : { temperature: params.temperature }),
        ...(params.topP === undefined ? {} : { top_p: params.topP }),
      }
  return {
    model,
    ...responsesInput(request.messages, canSee),
    store: false,
    ...(include.length === 0 ? {} : { include }),
    ...(tools.length === 0 ? {} : { tools: responsesTools(tools) }),
    ...sampling,
    ...(params.maxTokens === undefined ? {} : { max_output_tokens: params.maxTokens }),
    ...(params.think === undefined ? {} : (responsesThinkFields(params.think, model).fields as object)),
  }
}

/**
 * One streamed Responses request read to its end. A server that answers with the whole Response object
 * (`application/json`) is read as one; an `error` event or `response.failed` is the provider's error.
 */
export async function askResponses(
  client: OpenAI,
  body: ResponseCreateParamsNonStreaming,
  attempt: Attempt,
): Promise<ChatReply> {
  const started = performance.now()
  const { data: stream, response } = await throughAttempt(attempt.fetch, () =>
    client.responses.create({ ...body, stream: true }, { signal: attempt.signal }).withResponse(),
  )
  const parts = new ResponsesReplyParts()
  if (/json/.test(response.headers.get('content-type') ?? '')) {
    parts.addWhole((await response.json()) as Record<string, unknown>)
  } else {
    try {
      for await (const event of stream) parts.add(event as unknown as Record<string, unknown>)
    } catch (error) {
      throw streamedFailureOf(error) ?? error
    }
  }
  if (parts.failure !== undefined) throw failureError(parts.failure)
  const toolCalls = parts.toolCalls()
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

/** The codes of failures a new request can get past (OpenAI's `ResponseError` codes); any other is the request's or the account's. */
const TRANSIENT = new Set(['server_error', 'rate_limit_exceeded', 'vector_store_timeout'])

/** A failure the stream carried: retried when transient (or unnamed), else reported (`insufficient_quota`, `invalid_prompt`…). */
export function failureError(failure: ResponsesFailure): StreamedError {
  const retryable = failure.code === undefined || TRANSIENT.has(failure.code)
  const code = failure.code === undefined ? '' : ` (${failure.code})`
  return new StreamedError(`the response failed${code}: ${failure.message}`, retryable)
}

/** The SDK throws on an `error` event, before the reader sees it: the event's code and message. */
function streamedFailureOf(error: unknown): StreamedError | undefined {
  if (!(error instanceof OpenAI.APIError) || error.status !== undefined) return undefined
  const details =
    typeof error.error === 'object' && error.error !== null ? (error.error as Record<string, unknown>) : {}
  const code = typeof details.code === 'string' ? details.code : undefined
  const message = typeof details.message === 'string' ? details.message : error.message
  return failureError({ code, message })
}
