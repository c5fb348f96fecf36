import { describe, expect, test } from 'vitest'
import { createAdapter } from '../../../../adapters/models/create-adapter.ts'
import { parseModel } from '../../../../adapters/models/model-spec.ts'
import { ProviderError, type ChatRequest } from '../../../../adapters/models/model-adapter.ts'
import {
  readRateLimit,
  retryInfoDelayMs,
  waitAskedFor,
} from '../../../../adapters/models/requests/rate-limit-headers.ts'
import { EndpointPace, SLIDE_LAG_MS } from '../../../../adapters/models/requests/endpoint-pace.ts'
import { MAX_SPACING_MS } from '../../../../adapters/models/requests/refusal-spacing.ts'
import type { WireProtocol } from '../../../../adapters/models/requests/wire-check.ts'
import { chatRequest } from '../../../support/chat-request.ts'
import { clientEnv } from '../../../support/fault-injecting-server.ts'
import { sendJson, startLoopbackServer } from '../../../support/loopback-server.ts'
import {
  startRateLimitedServer,
  type HeaderStyle,
  type RateLimitedOptions,
} from '../../../support/rate-limited-server.ts'

const request = (index: number): ChatRequest => ({
  ...chatRequest(`question ${index}`),
  item: { suite: 'test', itemId: `q${index}`, sample: 0 },
})

function adapterFor(protocol: WireProtocol, url: string, env: Record<string, string> = {}) {
  const { MODEL, ...rest } = clientEnv(protocol, url, 'fake')
  return createAdapter(parseModel(MODEL!), {
    ...rest,
    TESTBENCH_RETRY_DELAY: '0.01',
    TESTBENCH_RETRIES: '30',
    TESTBENCH_CONCURRENCY: '8',
    ...env,
  })
}

const STORMS: Array<[HeaderStyle, WireProtocol]> = [
  ['openai', 'openai'],
  ['retry-after-ms', 'openai'],
  ['anthropic', 'anthropic'],
  ['gemini', 'gemini'],
]

// The server counts a request as sent while told to wait once the client has shown it read the refusal (its next
// request on that connection, or its close), not by the clock: a loaded machine delays no verdict, and a pace that
// ignores its holds is caught here too.
describe.concurrent('a run over the provider’s rate limit', () => {
  test.concurrent.for(STORMS)(
    '%s headers: every request is answered, none is sent while told to wait',
    async ([style, protocol], { onTestFinished }) => {
      const server = await startRateLimitedServer({ protocol, style, requestsPerWindow: 6, windowMs: 400 })
      onTestFinished(() => server.close())
      const adapter = await adapterFor(protocol, server.url)
      const replies = await Promise.all(Array.from({ length: 30 }, (_, index) => adapter.chat(request(index))))
      expect(replies.map((reply) => reply.text)).toEqual(
        Array.from({ length: 30 }, (_, index) => `Answer to question ${index}`),
      )
      expect(server.answered).toBe(30)
      expect(server.sentWhileTold).toBe(0)
      // With the allowance left on every answer, the client waits for the reset before a 429 comes. Anthropic's
      // resets are times in whole seconds, which say nothing of a window of 0.4 s: its 429s pace it.
      if (style === 'openai') expect(server.refused).toBeLessThan(10)
    },
  )

  // Each limit as providers count it, through the real SDKs, with TESTBENCH_RETRIES=1: a 429 is a hold, never one of
  // the item's retries, so an item that waited through several refusals is still answered.
  const LIMITERS: Array<[string, RateLimitedOptions]> = [
    [
      'a token bucket (burst 3)',
      { protocol: 'openai', style: 'openai', limiter: 'bucket', burst: 3, requestsPerWindow: 15, windowMs: 1000 },
    ],
    [
      'a sliding window',
      { protocol: 'openai', style: 'openai', limiter: 'sliding', requestsPerWindow: 6, windowMs: 400 },
    ],
    [
      'tokens per minute, input and output apart',
      {
        protocol: 'anthropic',
        style: 'anthropic',
        limiter: 'bucket',
        requestsPerWindow: 100,
        tokensPerWindow: 600,
        tokensPerRequest: 100,
        outputTokensPerWindow: 1000,
        windowMs: 400,
      },
    ],
    [
      '429s with only Retry-After',
      { protocol: 'openai', style: 'retry-after', limiter: 'bucket', burst: 3, requestsPerWindow: 30, windowMs: 1000 },
    ],
    [
      'bare 429s',
      { protocol: 'openai', style: 'none', limiter: 'bucket', burst: 3, requestsPerWindow: 30, windowMs: 1000 },
    ],
  ]
  test.concurrent.for(LIMITERS)(
    '%s: every request is answered, none is sent while told to wait, no retry is spent on a 429',
    async ([, options], { onTestFinished }) => {
      const server = await startRateLimitedServer(options)
      onTestFinished(() => server.close())
      const adapter = await adapterFor(options.protocol, server.url, { TESTBENCH_RETRIES: '1' })
      const replies = await Promise.all(Array.from({ length: 20 }, (_, index) => adapter.chat(request(index))))
      expect(replies.map((reply) => reply.text)).toEqual(
        Array.from({ length: 20 }, (_, index) => `Answer to question ${index}`),
      )
      expect(server.answered).toBe(20)
      // Without figures on its answers the provider is found only by its refusals; with them, the pace may avoid all.
      if (options.style !== 'openai' && options.style !== 'anthropic') expect(server.refused).toBeGreaterThan(0)
      expect(server.sentWhileTold).toBe(0)
    },
  )

  test.concurrent(
    'a request larger than the whole limit is one error for the run: the others are not sent',
    async ({ onTestFinished }) => {
      const server = await startRateLimitedServer({
        protocol: 'openai',
        style: 'openai',
        requestsPerWindow: 100,
        tokensPerWindow: 50,
        tokensPerRequest: 100,
        windowMs: 60_000,
      })
      onTestFinished(() => server.close())
      const adapter = await adapterFor('openai', server.url, { TESTBENCH_CONCURRENCY: '1' })
      const asked = await Promise.allSettled(Array.from({ length: 5 }, (_, index) => adapter.chat(request(index))))
      expect(asked.map((each) => each.status)).toEqual(Array.from({ length: 5 }, () => 'rejected'))
      const [first] = asked
      expect(first?.status === 'rejected' && String(first.reason)).toMatch(
        /Request too large .*more tokens than the whole per-minute limit allows/,
      )
      expect(server.seen.filter((seen) => seen.method === 'POST')).toHaveLength(1)
    },
  )

  test.concurrent(
    "OpenAI's insufficient_quota is a billing matter: not retried, and no later request is sent",
    async ({ onTestFinished }) => {
      const server = await startLoopbackServer((request, response) => {
        if (request.method !== 'POST') return sendJson(response, 200, { data: [] })
        sendJson(response, 429, {
          error: {
            message: 'You exceeded your current quota, please check your plan and billing details.',
            type: 'insufficient_quota',
            param: null,
            code: 'insufficient_quota',
          },
        })
      })
      onTestFinished(() => server.close())
      const adapter = await adapterFor('openai', server.url, { TESTBENCH_CONCURRENCY: '1' })
      const asked = await Promise.allSettled(Array.from({ length: 3 }, (_, index) => adapter.chat(request(index))))
      expect(asked.every((each) => each.status === 'rejected' && /out of quota/.test(String(each.reason)))).toBe(true)
      expect(server.seen.filter((seen) => seen.method === 'POST')).toHaveLength(1)
    },
  )

  test.concurrent(
    'a server whose limit falls during the run, then rises: all answered, none sent while told to wait',
    async ({ onTestFinished }) => {
      const server = await startRateLimitedServer({
        protocol: 'openai',
        style: 'retry-after-ms',
        requestsPerWindow: 8,
        windowMs: 300,
      })
      onTestFinished(() => server.close())
      const adapter = await adapterFor('openai', server.url)
      const first = Promise.all(Array.from({ length: 20 }, (_, index) => adapter.chat(request(index))))
      while (server.answered < 8) await new Promise((resolve) => setTimeout(resolve, 5))
      server.setRequestsPerWindow(2)
      await first
      server.setRequestsPerWindow(8)
      await Promise.all(Array.from({ length: 16 }, (_, index) => adapter.chat(request(100 + index))))
      expect(server.answered).toBe(36)
      expect(server.refused).toBeGreaterThan(0)
      expect(server.sentWhileTold).toBe(0)
    },
  )

  test.concurrent(
    'an item aborted while it waits for a slot leaves at once, and is never sent',
    async ({ onTestFinished }) => {
      const server = await startRateLimitedServer({
        protocol: 'openai',
        style: 'openai',
        requestsPerWindow: 100,
        windowMs: 60_000,
        latencyMs: 1000,
      })
      onTestFinished(() => server.close())
      const adapter = await adapterFor('openai', server.url, { TESTBENCH_CONCURRENCY: '1' })
      const first = adapter.chat(request(0))
      const controller = new AbortController()
      const waiting = adapter.chat({ ...request(1), signal: controller.signal })
      setTimeout(() => controller.abort(new Error('the item was cancelled')), 50)
      const started = performance.now()
      await expect(waiting).rejects.toThrow('the item was cancelled')
      // It left the queue when aborted, not when the slot came free.
      expect(performance.now() - started).toBeLessThan(600)
      expect((await first).text).toBe('Answer to question 0')
      expect(server.seen.filter((seen) => seen.method === 'POST')).toHaveLength(1)
    },
  )

  test.concurrent(
    'TESTBENCH_FAIL_ON_RATE_LIMIT=1 makes the first 429 a provider_error, not a wait',
    async ({ onTestFinished }) => {
      const server = await startRateLimitedServer({
        protocol: 'openai',
        style: 'retry-after-ms',
        requestsPerWindow: 1,
        windowMs: 60_000,
      })
      onTestFinished(() => server.close())
      const adapter = await adapterFor('openai', server.url, { TESTBENCH_FAIL_ON_RATE_LIMIT: '1' })
      await adapter.chat(request(0))
      const refused = adapter.chat(request(1))
      await expect(refused).rejects.toThrow(ProviderError)
      await expect(refused).rejects.toThrow(/TESTBENCH_FAIL_ON_RATE_LIMIT/)
      expect(server.seen.filter((seen) => seen.method === 'POST')).toHaveLength(2)
    },
  )
})

describe('what each provider’s headers say', () => {
  const now = Date.parse('2026-11-27T12:00:00Z')

  test('OpenAI: remaining and reset per requests and tokens, resets as durations', () => {
    const state = readRateLimit(
      new Headers({
        'x-ratelimit-limit-requests': '500',
        'x-ratelimit-remaining-requests': '0',
        'x-ratelimit-reset-requests': '1m2.5s',
        'x-ratelimit-limit-tokens': '30000',
        'x-ratelimit-remaining-tokens': '1200',
        'x-ratelimit-reset-tokens': '20ms',
      }),
      now,
    )
    expect(state).toEqual({
      requests: { remaining: 0, limit: 500, resetMs: 62_500 },
      tokens: { remaining: 1200, limit: 30000, resetMs: 20 },
      resetsFromArrival: true,
    })
    expect(waitAskedFor(state)).toBe(62_500)
  })

  test('Anthropic: the tightest of its token allowances, resets as RFC 3339 times', () => {
    const state = readRateLimit(
      new Headers({
        'anthropic-ratelimit-requests-limit': '50',
        'anthropic-ratelimit-requests-remaining': '49',
        'anthropic-ratelimit-requests-reset': '2026-11-27T12:00:01Z',
        'anthropic-ratelimit-input-tokens-limit': '40000',
        'anthropic-ratelimit-input-tokens-remaining': '100',
        'anthropic-ratelimit-input-tokens-reset': '2026-11-27T12:00:30Z',
        'anthropic-ratelimit-output-tokens-limit': '8000',
        'anthropic-ratelimit-output-tokens-remaining': '7000',
        'anthropic-ratelimit-output-tokens-reset': '2026-11-27T12:00:02Z',
        'retry-after': '30',
      }),
      now,
    )
    expect(state).toEqual({
      retryAfterMs: 30_000,
      requests: { remaining: 49, limit: 50, resetMs: 1000, resetPrecisionMs: 1000 },
      tokens: { remaining: 100, limit: 40000, resetMs: 30_000, resetPrecisionMs: 1000 },
    })
  })

  test('a reset said as a duration counts from the sending, a time in whole seconds may be a second off', () => {
    const sentAt = now - 3671
    const openai = readRateLimit(
      new Headers({
        'x-ratelimit-limit-requests': '5000',
        'x-ratelimit-remaining-requests': '4999',
        'x-ratelimit-reset-requests': '12ms',
      }),
      now,
      sentAt,
    )
    expect(openai).toEqual({
      requests: { remaining: 4999, limit: 5000, resetMs: 12 },
      leadMs: 3671,
      resetsFromArrival: true,
    })
    const anthropic = readRateLimit(
      new Headers({
        'anthropic-ratelimit-requests-limit': '50',
        'anthropic-ratelimit-requests-remaining': '49',
        'anthropic-ratelimit-requests-reset': '2026-11-27T12:00:01Z',
      }),
      now,
      sentAt,
    )
    expect(anthropic).toEqual({
      requests: { remaining: 49, limit: 50, resetMs: 1000, resetPrecisionMs: 1000 },
      leadMs: 3671,
    })
  })

  test('Azure sends Retry-After: 1 with retry-after-ms: 0: the longer wait holds', () => {
    expect(readRateLimit(new Headers({ 'retry-after': '1', 'retry-after-ms': '0' }), now).retryAfterMs).toBe(1000)
  })

  test("Gemini's wait is google.rpc.RetryInfo in the body", () => {
    expect(
      retryInfoDelayMs(
        '{"error": {"code": 429, "details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "48s"}]}}',
      ),
    ).toBe(48_000)
    expect(retryInfoDelayMs('{"error": {"code": 429}}')).toBeUndefined()
  })
})

describe('the pace of one endpoint', () => {
  test('halves once per burst of refusals, comes back one step per round of answers, never above the ceiling', () => {
    let clock = 0
    const pace = new EndpointPace(8, () => clock)
    // An answer that says the provider's limit: its refusals move the concurrency (one that says nothing is spaced).
    pace.report({ throttled: false, rateLimit: { requests: { limit: 1000, remaining: 999, resetMs: 60_000 } } }, 7, 0)
    for (let attempt = 0; attempt < 8; attempt++) pace.report({ throttled: true }, 7, 0)
    expect(pace.current).toBe(4)
    clock = 10
    pace.report({ throttled: true }, 3, 5)
    expect(pace.current).toBe(2)
    clock = 20
    pace.report({ throttled: true, waitMs: 5 }, 1, 15)
    expect(pace.current).toBe(1)
    expect(pace.heldForMs()).toBe(5)
    clock = 30
    pace.report({ throttled: false }, 0, clock)
    expect(pace.current).toBe(2)
    for (let answered = 0; answered < 2; answered++) pace.report({ throttled: false }, 1, clock)
    expect(pace.current).toBe(3)
    for (let answered = 0; answered < 100; answered++) pace.report({ throttled: false }, 1, clock)
    expect(pace.current).toBe(8)
    expect(pace.lowest).toBe(1)
  })

  test("an answer's allowance is spent by the requests started after its own, then holds until the reset", () => {
    let clock = 0
    const pace = new EndpointPace(64, () => clock)
    for (let start = 0; start < 64; start++) pace.started()
    // 64 in flight, all counted by the server: 36 requests left, and tokens for 12 more at the window's 105 a request.
    const rateLimit = {
      requests: { remaining: 36, limit: 100, resetMs: 800 },
      tokens: { remaining: 1280, limit: 8000, resetMs: 800 },
    }
    clock = 200
    pace.report({ throttled: false, rateLimit }, 0, 0)
    for (let start = 0; start < 11; start++) pace.started()
    expect(pace.mayStart(0)).toBe(true)
    // A later answer to a request of the first 64 says the same: the 11 started since are taken from it.
    pace.report({ throttled: false, rateLimit }, 11, 0)
    expect(pace.mayStart(0)).toBe(true)
    pace.started()
    expect(pace.mayStart(0)).toBe(false)
    expect(pace.heldForMs()).toBe(800)
    clock = 1000
    expect(pace.mayStart(0)).toBe(true)
    pace.started()
    expect(pace.heldForMs()).toBe(0)
  })

  test('the window is spent to its last request, whatever order the requests reached the provider in', () => {
    // 64 start at once; the first 8 wait in a busy worker and reach the provider last. Each answer says what the
    // provider had counted when its request came; a freed slot starts a new request while the window has room.
    for (const arrival of [[...range(9, 64), ...range(1, 8)], [...range(1, 64)], [...range(33, 64), ...range(1, 32)]]) {
      let clock = 0
      const pace = new EndpointPace(64, () => clock)
      for (let start = 0; start < 64; start++) pace.started()
      clock = 200
      arrival.forEach((startNumber, index) => {
        const remaining = 76 - (index + 1)
        pace.report(
          { throttled: false, rateLimit: { requests: { remaining, limit: 76, resetMs: 800 } } },
          pace.starts - startNumber,
          0,
        )
        if (pace.mayStart(0)) pace.started()
      })
      expect(pace.starts).toBe(76)
      expect(pace.heldForMs()).toBe(800)
    }
  })

  test('starts before any answer spoke of a window do not spend the first window an answer speaks of', () => {
    let clock = 0
    const pace = new EndpointPace(8, () => clock)
    // 300 requests answered without rate-limit headers, then one that says 70 of the window's 76 are left.
    for (let start = 0; start < 300; start++) pace.started()
    clock = 60_000
    pace.report({ throttled: false, rateLimit: { requests: { remaining: 70, limit: 76, resetMs: 800 } } }, 2, 0)
    expect(pace.mayStart(0)).toBe(true)
    for (let start = 0; start < 68; start++) pace.started()
    expect(pace.mayStart(0)).toBe(false)
  })

  test('a reset said as a duration holds until the earliest any answer of the window put it, not a late reader’s', () => {
    let clock = 0
    const pace = new EndpointPace(64, () => clock)
    for (let start = 0; start < 64; start++) pace.started()
    // The window resets at 1000. An answer read at once puts it there; one read 300 ms late, at 1290.
    clock = 200
    pace.report({ throttled: false, rateLimit: { requests: { remaining: 30, limit: 100, resetMs: 800 } } }, 0, 0)
    clock = 500
    pace.report({ throttled: false, rateLimit: { requests: { remaining: 0, limit: 100, resetMs: 790 } } }, 0, 0)
    expect(pace.heldForMs()).toBe(500)
    // A request started after that reset is of the next window: its answer's reset stands on its own.
    clock = 1200
    pace.report({ throttled: false, rateLimit: { requests: { remaining: 0, limit: 100, resetMs: 800 } } }, 0, 1000)
    expect(pace.heldForMs()).toBe(800)
  })

  test('an allowance about to run out holds every request until its reset', () => {
    let clock = 1000
    const pace = new EndpointPace(8, () => clock)
    for (let start = 0; start < 98; start++) pace.started()
    pace.report({ throttled: false, rateLimit: { requests: { remaining: 2, limit: 100, resetMs: 700 } } }, 0, clock)
    pace.started()
    expect(pace.mayStart(0)).toBe(true)
    pace.started()
    expect(pace.mayStart(0)).toBe(false)
    expect(pace.heldForMs()).toBe(700)
    clock = 1700
    expect(pace.mayStart(0)).toBe(true)
    expect(pace.holds).toBe(1)
  })

  test('a sliding window spent frees one request as each start leaves it; a fixed window holds to its reset', () => {
    // 10 in 10 s; one start every 100 ms, each answered 50 ms later. A sliding window's reset is when it is empty
    // (the last request let in, plus its length); a fixed window's, its end (here at 20 s).
    const spend = (resetAt: (startedAt: number) => number) => {
      let clock = 0
      const pace = new EndpointPace(64, () => clock)
      pace.report({ throttled: false }, 0, 0)
      const answer = (startedAt: number, remaining: number): void => {
        clock = startedAt
        expect(pace.mayStart(0)).toBe(true)
        pace.started()
        clock = startedAt + 50
        const rateLimit = { requests: { remaining, limit: 10, resetMs: resetAt(startedAt) - clock } }
        pace.report({ throttled: false, rateLimit }, 0, startedAt)
      }
      for (let index = 0; index < 10; index++) answer(index * 100, 9 - index)
      return { pace, answer }
    }
    const sliding = spend((startedAt) => startedAt + 10_000)
    expect(sliding.pace.heldForMs()).toBe(9050)
    // The start at 0 left at 10 s: one may start, and the next leaves at 10.1 s, not when the window is empty (20 s).
    // The pace counts each start SLIDE_LAG_MS longer than the least time from a start to its reset: a request reaches
    // the provider, which counts it from then, after it started.
    sliding.answer(10_000, 0)
    expect(sliding.pace.heldForMs()).toBe(50 + SLIDE_LAG_MS)
    sliding.answer(10_100 + SLIDE_LAG_MS, 0)
    expect(sliding.pace.heldForMs()).toBe(50)
    const fixed = spend(() => 20_000)
    expect(fixed.pace.heldForMs()).toBe(19_050)
  })

  test('a start refused for its spacing still leaves a wait to set a timer for, however late the wait is asked', () => {
    // A provider that says nothing of its limit: a refusal, answers, then a second refusal space the starts.
    let clock = 10
    const pace = new EndpointPace(8, () => clock)
    for (let start = 0; start < 2; start++) pace.started()
    pace.report({ throttled: true, waitMs: 100 }, 0, 0)
    for (const at of [200, 300, 400]) {
      clock = at
      pace.started()
      pace.report({ throttled: false }, 0, at)
    }
    clock = 700
    pace.started()
    pace.report({ throttled: true, waitMs: 50 }, 0, 650)
    // Four starts let in since the first refusal (the other at 10, and three), over the 650 ms to the second.
    expect(pace.spacingMs).toBeCloseTo(650 / 4)
    // The slots' pump asks whether a request may start, then how long to wait for a timer: the clock moves between.
    clock += pace.waitForMs() - 0.5
    expect(pace.mayStart(0)).toBe(false)
    clock += 1
    // A 0 here set no timer, and with nothing in flight to end, the waiting requests were never started.
    expect(pace.waitForMs()).toBeGreaterThan(0)
    expect(pace.mayStart(0)).toBe(true)
    expect(pace.waitForMs()).toBe(0)
  })

  test('refusals with no answer between them space the starts at most MAX_SPACING_MS apart', () => {
    let clock = 0
    const pace = new EndpointPace(8, () => clock)
    // Each start waits what the pace says, and is refused with a wait of 100 ms: the spacing doubles each time.
    for (let refusal = 0; refusal < 30; refusal++) {
      const wait = pace.waitForMs()
      expect(wait).toBeLessThanOrEqual(MAX_SPACING_MS)
      clock += wait
      expect(pace.mayStart(0)).toBe(true)
      pace.started()
      clock += 10
      pace.report({ throttled: true, waitMs: 100 }, 0, clock - 10)
      pace.ended()
    }
    expect(pace.spacingMs).toBe(MAX_SPACING_MS)
  })
})

function range(first: number, last: number): number[] {
  return Array.from({ length: last - first + 1 }, (_, index) => first + index)
}
