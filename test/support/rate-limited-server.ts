import type { ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { WireProtocol } from '../../adapters/models/wire-check.ts'
import { sendJson, startLoopbackServer, type LoopbackServer } from './loopback-server.ts'
import { promptOf, streamedReply } from './wire-replies.ts'

/** Whose rate-limit headers the server sends: each provider says its limit in its own words. */
export type HeaderStyle = 'openai' | 'anthropic' | 'gemini' | 'retry-after-ms'

export interface RateLimitedOptions {
  protocol: WireProtocol
  style: HeaderStyle
  /** Requests allowed per window. */
  requestsPerWindow: number
  /** Tokens allowed per window (each request costs `tokensPerRequest`); no token limit when absent. */
  tokensPerWindow?: number
  tokensPerRequest?: number
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
  const { protocol, style, windowMs, latencyMs = 0, tokensPerRequest = 100 } = options
  const answer = options.answer ?? ((prompt: string) => `Answer to ${prompt}`)
  let requestsPerWindow = options.requestsPerWindow
  /** The windows begin with the first request, so that the time the limit allows is counted from it. */
  let started: number | undefined
  let window = -1
  let requests = 0
  let tokens = 0
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
    started ??= now
    state.firstRequestAt ??= now
    const socket = response.socket
    const refusedHere = socket === null ? undefined : refusedOn.get(socket)
    if (socket !== null && refusedHere !== undefined) {
      refusedOn.delete(socket)
      clientRead(refusedHere)
    }
    if (now < toldUntil && readPeriod === period) state.sentWhileTold++
    const current = Math.floor((now - started) / windowMs)
    if (current !== window) {
      window = current
      requests = 0
      tokens = 0
    }
    const resetMs = started + (window + 1) * windowMs - now
    const tokensLeft = options.tokensPerWindow === undefined ? undefined : options.tokensPerWindow - tokens
    if (requests >= requestsPerWindow || (tokensLeft !== undefined && tokensLeft < tokensPerRequest)) {
      state.refused++
      state.arrivals.push({ at: now, answered: false })
      if (now >= toldUntil) period++
      toldUntil = Math.max(toldUntil, now + resetMs)
      const told = period
      if (socket !== null) {
        refusedOn.set(socket, told)
        socket.once('close', () => clientRead(told))
      }
      const headers = limitHeaders(style, requestsPerWindow, 0, options.tokensPerWindow, tokensLeft, resetMs, true)
      state.firstRefusal ??= headers
      return refuse(response, style, headers, resetMs)
    }
    requests++
    tokens += tokensPerRequest
    state.arrivals.push({ at: now, answered: true })
    // What is left is counted when the request is let in, as providers count it; the reset from when the answer goes.
    const requestsLeft = requestsPerWindow - requests
    const windowEnd = now + resetMs
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs))
    const headers = limitHeaders(
      style,
      requestsPerWindow,
      requestsLeft,
      options.tokensPerWindow,
      tokensLeft === undefined ? undefined : tokensLeft - tokensPerRequest,
      Math.max(0, windowEnd - Date.now()),
      false,
    )
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
      requestsPerWindow = value
    },
  }) as RateLimitedServer
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

/** The headers each provider sends with an answer or a refusal (Gemini sends none: its wait is in the body). */
function limitHeaders(
  style: HeaderStyle,
  limit: number,
  remaining: number,
  tokenLimit: number | undefined,
  tokensLeft: number | undefined,
  resetMs: number,
  refused: boolean,
): Record<string, string> {
  const tokenHeaders = (name: (field: string) => string, reset: string): Record<string, string> =>
    tokenLimit === undefined || tokensLeft === undefined
      ? {}
      : {
          [name('limit')]: String(tokenLimit),
          [name('remaining')]: String(Math.max(0, tokensLeft)),
          [name('reset')]: reset,
        }
  switch (style) {
    case 'openai':
      return {
        'x-ratelimit-limit-requests': String(limit),
        'x-ratelimit-remaining-requests': String(remaining),
        'x-ratelimit-reset-requests': `${(resetMs / 1000).toFixed(3)}s`,
        ...tokenHeaders((field) => `x-ratelimit-${field}-tokens`, `${resetMs}ms`),
      }
    case 'retry-after-ms':
      return refused ? { 'retry-after-ms': String(resetMs), 'retry-after': String(Math.ceil(resetMs / 1000)) } : {}
    case 'anthropic': {
      const reset = new Date(Date.now() + resetMs).toISOString()
      return {
        'anthropic-ratelimit-requests-limit': String(limit),
        'anthropic-ratelimit-requests-remaining': String(remaining),
        'anthropic-ratelimit-requests-reset': reset,
        ...tokenHeaders((field) => `anthropic-ratelimit-tokens-${field}`, reset),
        ...(refused ? { 'retry-after': String(Math.ceil(resetMs / 1000)) } : {}),
      }
    }
    case 'gemini':
      return {}
  }
}
