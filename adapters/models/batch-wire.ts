import type { ChatReply, ChatRequest } from './model-adapter.ts'
import { ProviderError } from './model-adapter.ts'

/** What one batch may carry, as the provider documents it. */
export interface BatchLimits {
  requests: number
  /** Bytes of the request lines together (the JSONL file, the inline body). */
  bytes: number
}

/** A batch as the provider reports it at one poll. */
export interface BatchState {
  /** The provider's own word: `in_progress`, `ended`, `JOB_STATE_RUNNING`… */
  status: string
  done: number
  total: number
  /** `running` until the provider will answer no more of it; `ended` whatever the reason (completed, expired, cancelled). */
  phase: 'running' | 'ended'
  /** Set when the provider refused the batch as a whole (validation): no request of it was answered. */
  refused?: string
}

/**
 * One request's answer in a finished batch: a reply, an error the provider gave that request (the ordinary path
 * then asks it again), or nothing for a request the batch left unanswered (expired, cancelled).
 */
export type BatchResult = { key: string; reply: ChatReply } | { key: string; error: string }

/**
 * One provider's batch API: the request line of one request (keyed by its cache key, as the custom id), the
 * submission of lines as one batch, a poll, and the results of an ended batch. Every call goes through the
 * provider's own SDK; errors are the SDK's (the caller retries what a server error or a lost connection is).
 */
export interface BatchWire {
  /** As messages name it: `OpenAI`, `Anthropic`, `Gemini`. */
  readonly name: string
  readonly limits: BatchLimits
  /** The request as the batch carries it, serialized; its bytes count towards the limit. */
  line(key: string, request: ChatRequest): string
  /**
   * Submits the lines as one batch tagged with `tag` (the journal's local id, where the provider keeps one: OpenAI's
   * metadata, Gemini's display name); resolves to its id as soon as it exists.
   */
  submit(lines: readonly string[], tag: string): Promise<string>
  /**
   * The id of a batch `submit` made with `tag` no earlier than `since` (ms) and carrying `size` requests, from the
   * provider's list of batches; undefined when there is none. `taken` are ids already collected, never returned.
   */
  find(tag: string, since: number, size: number, taken: ReadonlySet<string>): Promise<string | undefined>
  poll(id: string): Promise<BatchState>
  /** Every answer of an ended batch; requests it left unanswered are absent. */
  results(id: string): Promise<BatchResult[]>
}

/** Batches listed before `find` gives up: a run's own batches are among the newest. */
export const LISTED_BATCHES = 1000

/** How much earlier than the journal's clock a provider's clock may put a batch's creation. */
export const CLOCK_SKEW_MS = 10 * 60_000

/** The provider refused a whole batch (a bad request line, a model without batch support…). */
export class BatchRefusedError extends ProviderError {}

/** A request the batch cannot carry: the item is asked the ordinary way, and the run says why once. */
export function batchable(request: ChatRequest): string | undefined {
  if (request.tools !== undefined && request.tools.length > 0) return 'its requests carry tools (a conversation)'
  if (request.mode === 'completion') return 'it asks for raw completions'
  return undefined
}

/** The first line of an error, for messages. */
export function errorLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]?.slice(0, 300) ?? ''
}
