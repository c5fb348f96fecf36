import { abortableSleep } from './abortable-sleep.ts'
import { startAttempt, THROTTLED, type Attempt } from './attempt.ts'
import type { PaceReport } from './endpoint-pace.ts'
import { failOnRateLimit, idleTimeoutMs, maxRetries, requestTimeoutMs, retryDelayMs } from '../knobs.ts'
import type { Slots } from './limit-concurrency.ts'
import { ProviderError } from '../model-adapter.ts'
import {
  connectionErrorText,
  isConnectionFailure,
  nobodyListens,
  requestFailed,
  statusOf,
  unreachable,
} from './provider-errors.ts'
import { StreamedError } from './streamed-error.ts'
import type { WireProtocol } from './wire-check.ts'

/**
 * Asks until a whole reply arrives: every transport failure is retried (no connection,
 * a connection broken mid-reply, a malformed chunk, a stall, a reply without its end
 * marker, 408/429/5xx), with backoff that honours Retry-After, within one deadline for
 * all attempts. Each attempt takes an in-flight slot and gives it back before waiting
 * to retry, so retries never exceed the limit nor hold up other requests. A 4xx
 * answer is the request's fault and is not retried; neither is a reply the model ended itself.
 */
export interface RetryPolicy {
  retries: number
  /** One deadline for all attempts of one request. */
  deadlineMs: number
  /** An attempt that receives no byte for this long is given up. */
  idleMs: number
  baseDelayMs: number
  maxDelayMs: number
  /** Told before each retry, for progress output. */
  onRetry?: (message: string) => void
  /** A 429 ends the request with a provider_error instead of being retried (TESTBENCH_FAIL_ON_RATE_LIMIT). */
  failOnRateLimit?: boolean
}

export function retryPolicy(env: NodeJS.ProcessEnv = process.env): RetryPolicy {
  return {
    retries: maxRetries(env),
    deadlineMs: requestTimeoutMs(env),
    idleMs: idleTimeoutMs(env),
    baseDelayMs: retryDelayMs(env),
    maxDelayMs: 30_000,
    failOnRateLimit: failOnRateLimit(env),
    onRetry: (message) => process.stderr.write(`${message}\n`),
  }
}

/** Where one provider's requests go, and how it is named to the user. */
export interface Transport {
  protocol: WireProtocol
  /** `OpenAI`, `Ollama`…, as messages name it. */
  name: string
  endpoint: string
  /** What to tell a user whose endpoint never answered. */
  howToFix: string
  slots: Slots
  policy: RetryPolicy
}

export interface FinishedReply {
  /** How the model ended the reply, as the provider says it (`stop`, `length`, `end_turn`, `MAX_TOKENS`…). */
  finishReason?: string
}

type Tried<T> =
  | { reply: T }
  | { error: Error }
  | { stopped: unknown }
  /** `held`: a 429, the provider's rate limit: a wait, not a fault, so it spends none of the item's retries. */
  | { fault: string; answered: boolean; delayMs?: number; cause?: unknown; held?: boolean }

/**
 * The 429s that no wait cures, by endpoint: the first one ends every later request to it at once, without sending it
 * (a run of 450 items asks the provider once, not 450 times, and reports one cause).
 */
const neverPasses = new Map<string, string>()

export async function askWithRetries<T extends object>(
  transport: Transport,
  itemId: string,
  callerSignal: AbortSignal | undefined,
  attempt: (attempt: Attempt) => Promise<T>,
): Promise<T & FinishedReply> {
  const { policy } = transport
  const started = performance.now()
  const deadline = AbortSignal.timeout(policy.deadlineMs)
  const stop = callerSignal ? AbortSignal.any([callerSignal, deadline]) : deadline
  let lastFault: { fault: string; cause?: unknown } | undefined
  let holds = 0
  for (let number = 1; ; number++) {
    const fatal = neverPasses.get(transport.endpoint)
    if (fatal !== undefined) throw new ProviderError(`${transport.name} did not answer item ${itemId}: ${fatal}`)
    const tried = await transport
      .slots((report) => tryOnce(transport, stop, itemId, attempt, report), stop)
      .catch((error: unknown): Tried<T & FinishedReply> => {
        // Aborted while it waited for a slot: the same as aborted in flight.
        if (stop.aborted) return { stopped: error }
        throw error
      })
    if ('reply' in tried) return tried.reply
    if ('error' in tried) throw tried.error
    if ('stopped' in tried || stop.aborted) {
      if (callerSignal?.aborted) throw 'stopped' in tried ? tried.stopped : callerSignal.reason
      const last = lastFault === undefined ? '' : `; the last fault: ${lastFault.fault}`
      throw new ProviderError(
        `${transport.name} gave no complete answer for item ${itemId} within ${policy.deadlineMs / 1000} s (TESTBENCH_REQUEST_TIMEOUT)${last}.`,
      )
    }
    lastFault = tried
    // A refusal for the rate limit is a hold: only the deadline (TESTBENCH_REQUEST_TIMEOUT) ends its waits.
    if (tried.held === true) number--
    if (number > policy.retries) throw gaveUp(transport, itemId, number, tried)
    const backoff = tried.held === true ? Math.min(++holds, 12) : number
    const delayMs =
      tried.delayMs ?? Math.random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (backoff - 1))
    if (tried.delayMs !== undefined && performance.now() + delayMs > started + policy.deadlineMs)
      throw new ProviderError(
        `${transport.name} answered item ${itemId} with ${tried.fault} and asked to be retried in ${(delayMs / 1000).toFixed(1)} s, ` +
          `after the ${policy.deadlineMs / 1000} s allowed for it (TESTBENCH_REQUEST_TIMEOUT): raise that, or run fewer items at once.`,
      )
    const which = tried.held === true ? 'held' : `retry ${number} of ${policy.retries}`
    policy.onRetry?.(
      `[${transport.name}] item ${itemId}: ${tried.fault}; ${which} for ${(delayMs / 1000).toFixed(1)} s`,
    )
    await abortableSleep(delayMs, stop)
  }
}

async function tryOnce<T extends object>(
  transport: Transport,
  stop: AbortSignal,
  itemId: string,
  ask: (attempt: Attempt) => Promise<T>,
  report: PaceReport,
): Promise<Tried<T & FinishedReply>> {
  if (stop.aborted) return { stopped: stop.reason }
  // Another item met a 429 no wait cures while this one waited for its slot: it is not sent.
  const fatal = neverPasses.get(transport.endpoint)
  if (fatal !== undefined)
    return { error: new ProviderError(`${transport.name} did not answer item ${itemId}: ${fatal}`) }
  const attempt: Attempt = startAttempt(transport.protocol, transport.policy.idleMs, stop, globalThis.fetch, () =>
    tellPace(attempt, report),
  )
  try {
    const reply = await ask(attempt)
    const verdict = attempt.verdict()
    const fault = attempt.transportFault() ?? verdict.missing
    if (fault !== undefined) return { fault, answered: true }
    return { reply: verdict.finishReason === undefined ? reply : { ...reply, finishReason: verdict.finishReason } }
  } catch (error) {
    if (stop.aborted) return { stopped: error }
    return classify(error, attempt, transport, itemId)
  } finally {
    attempt.finish()
  }
}

function classify(error: unknown, attempt: Attempt, transport: Transport, itemId: string): Tried<never> {
  const transportFault = attempt.transportFault()
  // A stall before any answer leaves no error of the connection's own: the fault is the cause to name.
  if (transportFault !== undefined)
    return { fault: transportFault, answered: attempt.status() !== undefined, cause: new Error(transportFault) }
  if (error instanceof StreamedError) {
    if (!error.retryable) return { error: requestFailed(transport.name, itemId, error) }
    return { fault: `the reply carried an error after it began (${firstLine(error)})`, answered: true }
  }
  const status = statusOf(error)
  if (status !== undefined) {
    if (status !== 408 && status !== 429 && status < 500) return { error: requestFailed(transport.name, itemId, error) }
    if (status === 429 && transport.policy.failOnRateLimit)
      return {
        error: new ProviderError(
          `${transport.name} at ${transport.endpoint} refused item ${itemId} for its rate limit (HTTP 429: ${firstLine(error)}); TESTBENCH_FAIL_ON_RATE_LIMIT is on, so it is not retried. Unset it to wait at the pace the provider allows.`,
        ),
      }
    const cure = status === 429 ? waitCannotCure(error, attempt.retryAfterMs() !== undefined) : undefined
    if (cure !== undefined) {
      const message = `${transport.name} at ${transport.endpoint} refused with HTTP 429 for a reason no wait cures (${firstLine(error)}): ${cure}`
      neverPasses.set(transport.endpoint, message)
      return { error: new ProviderError(`${transport.name} did not answer item ${itemId}: ${message}`) }
    }
    const delayMs = attempt.retryAfterMs()
    return {
      fault: `HTTP ${status} (${firstLine(error)})`,
      answered: true,
      ...(delayMs === undefined ? {} : { delayMs }),
      ...(status === 429 ? { held: true } : {}),
    }
  }
  if (attempt.status() === undefined) {
    // A refusal means nobody listens; a reset before any byte came from something that accepted the connection.
    if (isConnectionFailure(error))
      return { fault: `no connection (${connectionErrorText(error)})`, answered: !nobodyListens(error), cause: error }
    return { error: requestFailed(transport.name, itemId, error) }
  }
  // The server answered, then the stream failed in the SDK's hands.
  const missing = attempt.verdict().missing ?? 'the reply could not be read'
  return { fault: `${missing}: ${firstLine(error)}`, answered: true }
}

/** The endpoint's pace hears every answer when its headers come: a refusal for load or limit lowers it, the rest may raise it. */
function tellPace(attempt: Attempt, report: PaceReport): void {
  const status = attempt.status()
  if (status === undefined) return
  const waitMs = attempt.retryAfterMs()
  const heardAt = attempt.answeredAt()
  const when = heardAt === undefined ? {} : { heardAt }
  const rateLimit = attempt.rateLimit()
  const said = rateLimit === undefined ? {} : { rateLimit }
  if (THROTTLED.has(status)) report({ throttled: true, ...when, ...said, ...(waitMs === undefined ? {} : { waitMs }) })
  else report({ throttled: false, ...when, ...said })
}

/** The message when the retries are spent: "not reachable" only when, at the last try, nobody listened. */
function gaveUp(
  transport: Transport,
  itemId: string,
  attempts: number,
  last: { fault: string; answered: boolean; cause?: unknown },
): ProviderError {
  if (!last.answered) return unreachable(transport.name, transport.endpoint, last.cause, transport.howToFix)
  return new ProviderError(
    `${transport.name} at ${transport.endpoint} gave no complete answer for item ${itemId} in ${attempts} attempts; the last fault: ${last.fault}. ` +
      'The server answers, so it is up: look at its logs or at a proxy in between, or allow more with TESTBENCH_RETRIES.',
  )
}

/**
 * What to do about a 429 that waiting never gets past, or undefined for an ordinary rate limit: OpenAI's
 * `insufficient_quota` that asks for no wait (the account's credit or spend limit, a billing matter), and "Request
 * too large for … on tokens per min" (one request needs more tokens than the whole per-minute limit allows).
 */
export function waitCannotCure(error: unknown, waitAsked: boolean): string | undefined {
  const fields = typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {}
  const text = `${String(fields.code ?? '')} ${String(fields.type ?? '')} ${error instanceof Error ? error.message : String(error)}`
  // Gemini's ordinary rate limit also says "You exceeded your current quota", with a RetryInfo wait: only the code counts.
  if (!waitAsked && /insufficient_quota/i.test(text))
    return 'the account is out of quota (credit or a spend limit): add credit or raise the limit in the provider’s billing settings, then run again; no request was sent after this one.'
  if (/request too large/i.test(text))
    return 'one request needs more tokens than the whole per-minute limit allows: ask for fewer output tokens (the suite’s maxTokens), use a model or tier with a higher limit, or shorten the prompt; no request was sent after this one.'
  return undefined
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]?.slice(0, 200) ?? ''
}
