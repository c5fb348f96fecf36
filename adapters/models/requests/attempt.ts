import { connectionErrorText } from './provider-errors.ts'
import { wireCheck, type WireProtocol, type WireVerdict } from './wire-check.ts'
import { readRateLimit, retryInfoDelayMs, waitAskedFor, type RateLimitState } from './rate-limit-headers.ts'

/**
 * One try at one request: the `fetch` its SDK client uses, which gives up when no
 * byte arrives for the idle time, watches the streamed body through the protocol's
 * wire check, and remembers what went wrong, so the retry loop can tell a
 * transport fault (retried) from an answer (kept) and name the fault.
 */
export interface Attempt {
  readonly fetch: typeof fetch
  /** Aborted when the attempt is given up: stalled, or the caller's signal ended it. */
  readonly signal: AbortSignal
  /** The transport fault seen (stall, broken connection), if any. */
  transportFault(): string | undefined
  /** The HTTP status of the answer, when the server answered at all. */
  status(): number | undefined
  /** The wait the answer asked for, in ms: its `Retry-After` or kin, a spent allowance's reset, Gemini's RetryInfo. */
  retryAfterMs(): number | undefined
  /** What the answer's headers said of the provider's rate limit. */
  rateLimit(): RateLimitState | undefined
  /** When the answer's headers came (Date.now()): the waits they ask for count from then. */
  answeredAt(): number | undefined
  /** Whether the streamed reply arrived whole, and how the model ended it. */
  verdict(): WireVerdict
  /** Stops the idle timer; the attempt is over. */
  finish(): void
}

export function startAttempt(
  protocol: WireProtocol,
  idleMs: number,
  outer: AbortSignal,
  base: typeof fetch = globalThis.fetch,
  /** Told as soon as the answer's status and headers are read: a refusal's wait holds other requests from then. */
  onAnswer: () => void = () => undefined,
): Attempt {
  const controller = new AbortController()
  const signal = AbortSignal.any([outer, controller.signal])
  const check = wireCheck(protocol)
  let timer: NodeJS.Timeout | undefined
  let fault: string | undefined
  let status: number | undefined
  let retryAfter: number | undefined
  let rateLimit: RateLimitState | undefined
  let answeredAt: number | undefined
  let verdict: WireVerdict | undefined
  let finished = false
  let release = (): void => undefined

  const stopTimer = (): void => clearTimeout(timer)
  const armTimer = (): void => {
    stopTimer()
    if (finished) return
    timer = setTimeout(() => {
      fault ??= `no byte arrived for ${idleMs / 1000} s (a stalled connection; TESTBENCH_IDLE_TIMEOUT)`
      controller.abort(new Error(fault))
    }, idleMs)
  }
  /** The SDK's own signal: it aborts the request itself when it cannot read a frame, which is no broken connection. */
  let sdkSignal: AbortSignal | undefined
  const brokenMidBody = (error: unknown): void => {
    if (outer.aborted || sdkSignal?.aborted) return
    fault ??= `the connection broke in the middle of the reply (${connectionErrorText(error)})`
  }

  const watched = (body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> => {
    const reader = body.getReader()
    let cancelled = false
    let drained = false
    // An SDK that stops at its end marker (ollama-js) leaves the rest unread: finish() lets the connection go.
    release = () => {
      if (cancelled || drained) return
      cancelled = true
      void reader.cancel().catch(() => undefined)
    }
    return new ReadableStream<Uint8Array>({
      async pull(stream) {
        try {
          const { done, value } = await reader.read()
          if (cancelled) return
          if (done) {
            drained = true
            stopTimer()
            verdict ??= check.end()
            stream.close()
            return
          }
          armTimer()
          check.feed(value)
          stream.enqueue(value)
        } catch (error) {
          stopTimer()
          if (cancelled) return
          brokenMidBody(error)
          stream.error(error)
        }
      },
      cancel(reason) {
        // The SDK stops reading once it has what it needs (openai after `[DONE]`): judge what came.
        cancelled = true
        stopTimer()
        verdict ??= check.end()
        return reader.cancel(reason)
      },
    })
  }

  const attemptFetch: typeof fetch = async (input, init) => {
    armTimer()
    const sentAt = Date.now()
    sdkSignal = init?.signal ?? undefined
    const combined = init?.signal ? AbortSignal.any([init.signal, signal]) : signal
    let response: Response
    try {
      response = await base(input, { ...init, signal: combined })
    } catch (error) {
      stopTimer()
      throw error
    }
    status = response.status
    answeredAt = Date.now()
    rateLimit = readRateLimit(response.headers, answeredAt, sentAt)
    retryAfter = waitAskedFor(rateLimit)
    if (!response.ok || response.body === null) {
      if (retryAfter === undefined && THROTTLED.has(response.status))
        retryAfter = retryInfoDelayMs(
          await response
            .clone()
            .text()
            .catch(() => ''),
        )
      stopTimer()
      onAnswer()
      return response
    }
    onAnswer()
    const wrapped = new Response(watched(response.body), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    })
    Object.defineProperty(wrapped, 'url', { value: response.url })
    return wrapped
  }

  return {
    fetch: attemptFetch,
    signal,
    transportFault: () => fault,
    status: () => status,
    retryAfterMs: () => retryAfter,
    rateLimit: () => rateLimit,
    answeredAt: () => answeredAt,
    // Judged from the bytes seen so far: SDKs may stop reading once they have their end marker (ollama-js at `done: true`).
    verdict: () => (verdict ??= fault === undefined ? check.end() : { missing: fault }),
    finish: () => {
      finished = true
      stopTimer()
      release()
    },
  }
}

/** The answers that say the provider is over its limit or overloaded: 429, 503, and Anthropic's 529. */
export const THROTTLED: ReadonlySet<number> = new Set([429, 503, 529])

export { retryAfterMs } from './rate-limit-headers.ts'
