import type { ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { WireProtocol } from '../../adapters/models/requests/wire-check.ts'
import { sendJson, startLoopbackServer, type LoopbackServer } from './loopback-server.ts'
import { limiterOf, type Limiter, type LimiterKind } from './rate-limiters.ts'
import { promptOf, streamedReply } from './wire-replies.ts'

/**
 * Whose rate-limit headers the server sends: each provider says its limit in its own words. `retry-after` and `none`
 * are providers that say nothing of their limit: a refusal's `Retry-After` in whole seconds, or a bare 429.
 */
export type HeaderStyle = 'openai' | 'anthropic' | 'gemini' | 'retry-after-ms' | 'retry-after' | 'none'

export interface RateLimitedOptions {
  protocol: WireProtocol
  style: HeaderStyle
  /** Requests allowed per window. */
  requestsPerWindow: number
  /** Tokens allowed per window (each request costs `tokensPerRequest`); no token limit when absent. */
  tokensPerWindow?: number
  tokensPerRequest?: number
  /**
   * How the limits count (`fixed` windows by default, `sliding`, or a token `bucket`); a bucket's capacity for
   * requests is `burst` (the whole per-window limit when absent), for tokens the whole per-window limit (Anthropic's).
   */
  limiter?: LimiterKind
  burst?: number
  /**
   * Output tokens allowed per window, counted apart from the input (Anthropic's OTPM): each reply's
   * `outputTokensPerRequest` (5 by default), charged when it ends. `tokensPerWindow` is then the input's (ITPM), and
   * `tokensPerRequest` the input a request is charged: its uncached input (cached input is not counted).
   */
  outputTokensPerWindow?: number
  outputTokensPerRequest?: number
  /** The window's length: a minute for a real provider, shorter here. */
  windowMs: number
  latencyMs?: number
  /** The reply's text for a prompt; `Answer to <prompt>` by default. */
  answer?: (prompt: string) => string
}

export interface RateLimitedServer extends LoopbackServer {
  answered: number
  refused: number
  /**
   * Requests that arrived while the server had told the client to wait, once the client had shown it read a refusal
   * of that wait: it sent its next request on the refusal's connection, or closed it. Requests already on their way
   * when the client read it (a client busy elsewhere reads late) are not counted, however late they land.
   */
  sentWhileTold: number
  /** When the first request arrived and the last answer was sent (Date.now()). */
  firstRequestAt?: number
  /** When each request arrived, and whether it was answered (else refused). */
  arrivals: Array<{ at: number; answered: boolean }>
  lastAnswerAt?: number
  /** The headers of the first refusal and of the first answer, as sent. */
  firstRefusal?: Record<string, string>
  firstAnswer?: Record<string, string>
  /** Changes the limit from now on, as a provider may while a run goes. */
  setRequestsPerWindow(requests: number): void
}

/**
 * A model server on 127.0.0.1 that enforces a rate limit as providers do: fixed windows of requests (and
 * tokens), a 429 with the provider's own headers (or Gemini's RetryInfo body) once the window's allowance
 * is spent, and the allowance left on every answer. It counts requests sent while it had said to wait.
 */
export async function startRateLimitedServer(options: RateLimitedOptions): Promise<RateLimitedServer> {
  const { protocol, style, windowMs, latencyMs = 0, tokensPerRequest = 100, outputTokensPerRequest = 5 } = options
  const answer = options.answer ?? ((prompt: string) => `Answer to ${prompt}`)
  const kind = options.limiter ?? 'fixed'
  const requestLimit = limiterOf(kind, options.requestsPerWindow, windowMs, options.burst)
  const tokenLimit =
    options.tokensPerWindow === undefined ? undefined : limiterOf(kind, options.tokensPerWindow, windowMs)
  const outputLimit =
    options.outputTokensPerWindow === undefined ? undefined : limiterOf(kind, options.outputTokensPerWindow, windowMs)
  /** Each limit a request is charged against at its start, and what it costs there. */
  const atStart: Array<[Limiter, number]> = [
    [requestLimit, 1],
    ...(tokenLimit === undefined ? [] : [[tokenLimit, tokensPerRequest] as [Limiter, number]]),
    ...(outputLimit === undefined ? [] : [[outputLimit, 0] as [Limiter, number]]),
  ]
  /** Until when the server has said to wait; each wait told after the last one ended is a new period. */
  let toldUntil = 0
  let period = 0
  /** The period whose refusal the client has shown it read: from then on, every request in it is sent while told. */
  let readPeriod = -1
  /** The connections that carried a refusal, and the period of it. */
  const refusedOn = new WeakMap<Socket, number>()
  // A request on its way when the client read the refusal lands by the end of this turn of the event loop.
  const clientRead = (told: number) => setImmediate(() => (readPeriod = Math.max(readPeriod, told)))
  const state = { answered: 0, refused: 0, sentWhileTold: 0, arrivals: [] } as Pick<
    RateLimitedServer,
    | 'answered'
    | 'refused'
    | 'sentWhileTold'
    | 'firstRefusal'
    | 'firstAnswer'
    | 'firstRequestAt'
    | 'lastAnswerAt'
    | 'arrivals'
  >
  const server = await startLoopbackServer(async (request, response) => {
    if (request.method !== 'POST') return sendJson(response, 200, { data: [], models: [] })
    const now = Date.now()
    state.firstRequestAt ??= now
    const socket = response.socket
    const refusedHere = socket === null ? undefined : refusedOn.get(socket)
    if (socket !== null && refusedHere !== undefined) {
      refusedOn.delete(socket)
      clientRead(refusedHere)
    }
    if (now < toldUntil && readPeriod === period) state.sentWhileTold++
    const fits = Math.max(...atStart.map(([limit, cost]) => limit.fitsAt(now, cost)))
    if (fits === Infinity && tokenLimit !== undefined) {
      state.refused++
      // OpenAI's words for a request larger than the whole per-minute limit: no wait lets it through.
      return sendJson(response, 429, {
        error: {
          message: `Request too large for fake in organization org-test on tokens per min (TPM): Limit ${tokenLimit.limit}, Requested ${tokensPerRequest}. The input or output tokens must be reduced in order to run successfully.`,
          type: 'tokens',
          param: null,
          code: 'rate_limit_exceeded',
        },
      })
    }
    if (fits > now) {
      const waitMs = fits - now
      state.refused++
      state.arrivals.push({ at: now, answered: false })
      // The wait told is the one the headers say: whole seconds where only Retry-After says it; none for a bare 429.
      const toldMs = style === 'none' ? 0 : style === 'retry-after' ? Math.ceil(waitMs / 1000) * 1000 : waitMs
      if (toldMs > 0) {
        if (now >= toldUntil) period++
        toldUntil = Math.max(toldUntil, now + toldMs)
        const told = period
        if (socket !== null) {
          refusedOn.set(socket, told)
          socket.once('close', () => clientRead(told))
        }
      }
      const headers = limitHeaders(style, allowances(now), waitMs, true)
      state.firstRefusal ??= headers
      return refuse(response, style, headers, waitMs)
    }
    for (const [limit, cost] of atStart) limit.take(now, cost)
    state.arrivals.push({ at: now, answered: true })
    // Every figure as the limits stood when the request was let in, as OpenAI says them: an answer after 3.7 s of work
    // said 4,999 of 5,000 requests left and a reset of `12ms`, one request's refill (../shared/wire-recordings).
    const headers = limitHeaders(style, allowances(now), 0, false)
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs))
    outputLimit?.charge(Date.now(), outputTokensPerRequest)
    state.firstAnswer ??= headers
    const reply = streamedReply(protocol, request.path, answer(promptOf(protocol, request)))
    response.writeHead(200, { 'content-type': reply.contentType, ...headers })
    response.end(reply.frames.join(''))
    state.answered++
    state.lastAnswerAt = Date.now()
  })
  return Object.assign(state, {
    url: server.url,
    seen: server.seen,
    close: server.close,
    setRequestsPerWindow: (value: number) => {
      requestLimit.limit = value
    },
  }) as RateLimitedServer

  function allowances(now: number): Allowances {
    const of = (limit: Limiter | undefined): Allowance | undefined =>
      limit === undefined ? undefined : { limit: limit.limit, ...limit.left(now) }
    return { requests: of(requestLimit), tokens: of(tokenLimit), output: of(outputLimit) }
  }
}

/** A limit's size, what is left of it, and the time until it is whole again. */
interface Allowance {
  limit: number
  remaining: number
  resetMs: number
}

interface Allowances {
  requests?: Allowance | undefined
  tokens?: Allowance | undefined
  output?: Allowance | undefined
}

function refuse(response: ServerResponse, style: HeaderStyle, headers: Record<string, string>, resetMs: number): void {
  if (style === 'gemini')
    return sendJson(response, 429, {
      error: {
        code: 429,
        message: 'You exceeded your current quota.',
        status: 'RESOURCE_EXHAUSTED',
        details: [
          { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${(resetMs / 1000).toFixed(3)}s` },
        ],
      },
    })
  const error =
    style === 'anthropic'
      ? {
          type: 'error',
          error: { type: 'rate_limit_error', message: 'Number of requests has exceeded your rate limit.' },
        }
      : { error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } }
  sendJson(response, 429, error, headers)
}

/**
 * The headers each provider sends with an answer or a refusal (Gemini sends none: its wait is in the body); a
 * refusal's `waitMs` is the time until the request fits.
 */
function limitHeaders(
  style: HeaderStyle,
  limits: Allowances,
  waitMs: number,
  refused: boolean,
): Record<string, string> {
  const { requests, tokens, output } = limits
  const waits: Record<string, string> = refused
    ? { 'retry-after-ms': String(Math.ceil(waitMs)), 'retry-after': String(Math.ceil(waitMs / 1000)) }
    : {}
  const fields = (
    allowance: Allowance | undefined,
    name: (field: string) => string,
    reset: (ms: number) => string,
  ): Record<string, string> =>
    allowance === undefined
      ? {}
      : {
          [name('limit')]: String(allowance.limit),
          [name('remaining')]: String(allowance.remaining),
          [name('reset')]: reset(allowance.resetMs),
        }
  switch (style) {
    case 'openai':
      return {
        ...fields(
          requests,
          (field) => `x-ratelimit-${field}-requests`,
          (ms) => `${(ms / 1000).toFixed(3)}s`,
        ),
        ...fields(
          tokens,
          (field) => `x-ratelimit-${field}-tokens`,
          (ms) => `${Math.round(ms)}ms`,
        ),
        ...waits,
      }
    case 'retry-after-ms':
      return waits
    case 'retry-after':
      return refused ? { 'retry-after': String(Math.ceil(waitMs / 1000)) } : {}
    case 'anthropic': {
      // Times in whole seconds, as Anthropic's documentation writes them (`2024-01-01T00:00:00Z`), cut down.
      const at = (ms: number) => new Date(Date.now() + ms).toISOString().replace(/\.\d+Z$/, 'Z')
      // With output counted apart, the token limit is the input's (`input-tokens`); else the total (`tokens`).
      const tokenName = output === undefined ? 'tokens' : 'input-tokens'
      return {
        ...fields(requests, (field) => `anthropic-ratelimit-requests-${field}`, at),
        ...fields(tokens, (field) => `anthropic-ratelimit-${tokenName}-${field}`, at),
        ...fields(output, (field) => `anthropic-ratelimit-output-tokens-${field}`, at),
        ...(refused ? { 'retry-after': String(Math.ceil(waitMs / 1000)) } : {}),
      }
    }
    case 'gemini':
    case 'none':
      return {}
  }
}
