/**
 * What a provider's answer says about its rate limit, read from the headers each provider sends:
 * `Retry-After` (seconds or an HTTP date) and `retry-after-ms` (OpenAI, Azure); OpenAI's
 * `x-ratelimit-{remaining,limit,reset}-{requests,tokens}` (resets as durations: `1s`, `6m0s`, `20ms`);
 * Anthropic's `anthropic-ratelimit-{requests,tokens,input-tokens,output-tokens}-{remaining,limit,reset}`
 * (resets as RFC 3339 times); and, in the body of a Gemini 429, `google.rpc.RetryInfo`'s `retryDelay`.
 */
export interface RateLimitState {
  /** How long to wait before the next request, in ms, when the answer asked for a wait (Retry-After and its kin). */
  retryAfterMs?: number
  /** Requests the provider still allows in its window, and when the window resets (ms from now). */
  requests?: Allowance
  /** The tightest of the token allowances (total, input, output), as a share left of its limit. */
  tokens?: Allowance
  /**
   * How long before the answer its request was sent, where known: a provider counts a request, and says what is left,
   * when the request comes.
   */
  leadMs?: number
  /**
   * Whether the resets are durations from when the provider counted the request (OpenAI's: a real answer after 3.7 s
   * of work said 4,999 of 5,000 requests left and a reset of `12ms`, one request's refill), not times (Anthropic's).
   * Such a reset may be up to `leadMs` sooner than said from the answer.
   */
  resetsFromArrival?: boolean
}

export interface Allowance {
  remaining: number
  limit?: number
  resetMs?: number
  /**
   * How far from the time it stands for the reset may be, in ms: a time in whole seconds (`…T12:00:01Z`) is 1000. A
   * duration is taken as exact: OpenAI writes Go's durations, whose trailing zeros say nothing (`6m0s`, `12ms`).
   */
  resetPrecisionMs?: number
}

/** `now`: when the answer came; `sentAt`: when its request was sent, where known. */
export function readRateLimit(headers: Headers, now = Date.now(), sentAt?: number): RateLimitState {
  // `retry-after-ms` is the precise wait; Azure sends `Retry-After: 1` with `retry-after-ms: 0`, and then the second holds.
  const precise = milliseconds(headers.get('retry-after-ms'))
  const retryAfter = precise !== undefined && precise > 0 ? precise : retryAfterMs(headers.get('retry-after'), now)
  const requests =
    allowance(headers, 'x-ratelimit-%-requests', now) ?? allowance(headers, 'anthropic-ratelimit-requests-%', now)
  const tokens = tightest([
    allowance(headers, 'x-ratelimit-%-tokens', now),
    allowance(headers, 'anthropic-ratelimit-tokens-%', now),
    allowance(headers, 'anthropic-ratelimit-input-tokens-%', now),
    allowance(headers, 'anthropic-ratelimit-output-tokens-%', now),
  ])
  const said = requests !== undefined || tokens !== undefined
  const durations = ['x-ratelimit-reset-requests', 'x-ratelimit-reset-tokens'].some((name) => headers.has(name))
  return {
    ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }),
    ...(requests === undefined ? {} : { requests }),
    ...(tokens === undefined ? {} : { tokens }),
    ...(said && sentAt !== undefined && sentAt < now ? { leadMs: now - sentAt } : {}),
    ...(said && durations ? { resetsFromArrival: true } : {}),
  }
}

/**
 * The wait a refusal asks for: its Retry-After, else the reset of the allowance it ran out of. A Retry-After
 * in whole seconds is that reset rounded up (Anthropic's): the reset, when it falls in the last second, is the wait.
 */
export function waitAskedFor(state: RateLimitState): number | undefined {
  const spent = [state.requests, state.tokens].filter((each) => each !== undefined && each.remaining <= 0)
  const resets = spent.flatMap((each) => (each?.resetMs === undefined ? [] : [each.resetMs]))
  const reset = resets.length === 0 ? undefined : Math.max(...resets)
  const asked = state.retryAfterMs
  if (asked === undefined) return reset
  return reset !== undefined && reset <= asked && reset > asked - 1000 ? reset : asked
}

/** Gemini's 429 carries its wait in the body, not a header: `google.rpc.RetryInfo`'s `retryDelay` (`"48s"`, `"1.5s"`). */
export function retryInfoDelayMs(body: string): number | undefined {
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return undefined
  }
  const details = (parsed as { error?: { details?: unknown } } | null)?.error?.details
  if (!Array.isArray(details)) return undefined
  for (const detail of details as unknown[]) {
    const { '@type': type, retryDelay } = (detail ?? {}) as Record<string, unknown>
    if (typeof type !== 'string' || !type.endsWith('google.rpc.RetryInfo') || typeof retryDelay !== 'string') continue
    const seconds = /^(\d+(?:\.\d+)?)s$/.exec(retryDelay)?.[1]
    if (seconds !== undefined) return Number(seconds) * 1000
  }
  return undefined
}

/** `Retry-After` is either seconds or an HTTP date. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined
  const seconds = Number(header)
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
  const date = Date.parse(header)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

function allowance(headers: Headers, pattern: string, now: number): Allowance | undefined {
  const remaining = number(headers.get(pattern.replace('%', 'remaining')))
  if (remaining === undefined) return undefined
  const limit = number(headers.get(pattern.replace('%', 'limit')))
  const reset = resetIn(headers.get(pattern.replace('%', 'reset')), now)
  return {
    remaining,
    ...(limit === undefined ? {} : { limit }),
    ...(reset === undefined ? {} : { resetMs: reset.ms }),
    ...(reset?.precisionMs ? { resetPrecisionMs: reset.precisionMs } : {}),
  }
}

function tightest(allowances: ReadonlyArray<Allowance | undefined>): Allowance | undefined {
  const share = (each: Allowance): number => (each.limit ? each.remaining / each.limit : each.remaining > 0 ? 1 : 0)
  return allowances
    .filter((each) => each !== undefined)
    .reduce<Allowance | undefined>(
      (low, each) => (low === undefined || share(each) < share(low) ? each : low),
      undefined,
    )
}

/**
 * A reset as OpenAI writes it (`1s`, `6m0s`, `20ms`, `1h2m3.5s`, plain seconds) or as Anthropic does (an RFC 3339
 * time), and, for a time, the unit of its last digit (0 for a duration: exact).
 */
function resetIn(header: string | null, now: number): { ms: number; precisionMs: number } | undefined {
  if (header === null || header.trim() === '') return undefined
  const text = header.trim()
  if (/^\d+(\.\d+)?$/.test(text)) return { ms: Number(text) * 1000, precisionMs: 0 }
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)]
  if (parts.length > 0 && parts.map((part) => part[0]).join('') === text) {
    const ms = parts.reduce(
      (total, [, amount, unit]) => total + Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS],
      0,
    )
    return { ms, precisionMs: 0 }
  }
  const date = Date.parse(text)
  if (Number.isNaN(date)) return undefined
  const fraction = /:\d{2}\.(\d+)(?:Z|[+-]\d{2}:?\d{2})$/i.exec(text)?.[1] ?? ''
  return { ms: Math.max(0, date - now), precisionMs: 1000 / 10 ** fraction.length }
}

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const

function number(header: string | null): number | undefined {
  if (header === null || header.trim() === '') return undefined
  const value = Number(header)
  return Number.isFinite(value) ? value : undefined
}

function milliseconds(header: string | null): number | undefined {
  const value = number(header)
  return value === undefined ? undefined : Math.max(0, value)
}
