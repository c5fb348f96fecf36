// The rate-limited case of `npm run bench:throughput`: FaRel's 450 quizzes against a loopback server that enforces a
// provider's rate limit, a minute scaled down to a second: requests and tokens per window, a 429 with the provider's
// own headers once a window's allowance is spent (OpenAI's `x-ratelimit-*`; Anthropic's `anthropic-ratelimit-*` and
// `Retry-After` in whole seconds), and the allowance left on every answer. The goal: the run ends within 1.1× of the
// time the limit allows at that concurrency, with 0 provider_error and no request sent while the server said to wait.
import { dirname } from 'node:path'
import { rmSync } from 'node:fs'
import { loadavg } from 'node:os'
import type { WireProtocol } from '../adapters/models/wire-check.ts'
import { farelOptions } from '../suites/farel/options.ts'
import { generateQuizzes } from '../suites/farel/quiz.ts'
import { clientEnv } from '../test/support/fault-injecting-server.ts'
import { startRateLimitedServer, type HeaderStyle } from '../test/support/rate-limited-server.ts'
import { fixedWindow, type Limiter } from '../test/support/rate-limiters.ts'
import { runSuiteForRecords } from '../test/support/run-vitest.ts'

const ITEMS = 450
/** A minute of a provider's limit, 60 times faster. */
const WINDOW_MS = 1000
const REQUESTS_PER_WINDOW = 100
const TOKENS_PER_WINDOW = 8000
/** What the server charges each request against the token allowance: 76 requests a window, the tighter limit. */
const TOKENS_PER_REQUEST = 105
const GOAL = 1.1

const CASES: ReadonlyArray<{ style: HeaderStyle; protocol: WireProtocol }> = [
  { style: 'openai', protocol: 'openai' },
  { style: 'anthropic', protocol: 'anthropic' },
]

/** A limit a request is charged against when it starts, and what it costs there (1 request, or its tokens). */
export type Charge = readonly [Limiter, number]

/**
 * The soonest the last of `items` replies can end: `concurrency` requests in flight at most, each taking `replyMs`,
 * each starting as soon as a slot is free and every limit has room for it (fresh limiters, the first request at 0).
 * Each request starting at the earliest time it may is the best schedule: a later start frees no room sooner.
 */
export function allowedMs(items: number, concurrency: number, replyMs: number, limits: readonly Charge[]): number {
  const freeAt = Array.from({ length: concurrency }, () => 0)
  let last = 0
  for (let item = 0; item < items; item++) {
    freeAt.sort((a, b) => a - b)
    let start = freeAt[0] ?? 0
    // The earliest time every limit has room: each limit's own, until they agree.
    for (let moved = true; moved;) {
      const fits = Math.max(start, ...limits.map(([limit, cost]) => limit.fitsAt(start, cost)))
      if (fits === Infinity) throw new Error('a request costs more than a whole limit: no schedule sends it')
      moved = fits > start
      start = fits
    }
    for (const [limit, cost] of limits) limit.take(start, cost)
    freeAt[0] = start + replyMs
    last = Math.max(last, start + replyMs)
  }
  return last
}

/** Runs FaRel at `concurrency` against the rate-limited server in each provider's style, and prints the figures. */
export async function rateLimitedCase(concurrency: number, replyMs: number): Promise<void> {
  const correct = new Map(generateQuizzes(farelOptions({})).map((quiz) => [quiz.prompt, quiz.correct]))
  const allowed = allowedMs(ITEMS, concurrency, replyMs, [
    [fixedWindow(REQUESTS_PER_WINDOW, WINDOW_MS), 1],
    [fixedWindow(TOKENS_PER_WINDOW, WINDOW_MS), TOKENS_PER_REQUEST],
  ])
  console.log(
    `\nrate limited: ${REQUESTS_PER_WINDOW} requests and ${TOKENS_PER_WINDOW} tokens (${TOKENS_PER_REQUEST} a request) per ${WINDOW_MS / 1000} s window,` +
      ` ${replyMs} ms a reply, c = ${concurrency}: the limit allows ${(allowed / 1000).toFixed(2)} s for ${ITEMS} items; goal ≤ ${GOAL}×, 0 provider_error, 0 sent while told to wait`,
  )
  for (const { style, protocol } of CASES) {
    const server = await startRateLimitedServer({
      protocol,
      style,
      requestsPerWindow: REQUESTS_PER_WINDOW,
      tokensPerWindow: TOKENS_PER_WINDOW,
      tokensPerRequest: TOKENS_PER_REQUEST,
      windowMs: WINDOW_MS,
      latencyMs: replyMs,
      answer: (prompt) => `<ANSWER>${correct.get(prompt) ?? 1}</ANSWER>`,
    })
    try {
      const { code, output, records, reports } = await runSuiteForRecords('farel', {
        ...clientEnv(protocol, server.url, 'bench'),
        TESTBENCH_CONCURRENCY: String(concurrency),
      })
      rmSync(dirname(reports), { recursive: true, force: true })
      if (records.length !== ITEMS)
        throw new Error(
          `The ${style} run recorded ${records.length} of ${ITEMS} items (exit ${code}):\n${output.slice(-3000)}`,
        )
      const providerErrors = records.filter((record) => record.outcome === 'provider_error').length
      const tookMs = (server.lastAnswerAt ?? 0) - (server.firstRequestAt ?? 0)
      const ratio = tookMs / allowed
      const met = ratio <= GOAL && providerErrors === 0 && server.sentWhileTold === 0
      if (process.env.BENCH_TRACE === '1') console.log(windowsText(server.arrivals, server.firstRequestAt ?? 0))
      const waits = /rate limits: [^\n]*/.exec(output)?.[0] ?? 'no waits reported'
      console.log(
        `${style.padEnd(9)} ${(tookMs / 1000).toFixed(2)} s (${ratio.toFixed(2)}× the time allowed), ${providerErrors} provider_error,` +
          ` ${server.refused} refused with 429, ${server.sentWhileTold} sent while told to wait · goal ${met ? 'met' : 'NOT met'}` +
          ` (load ${loadavg()[0]?.toFixed(1) ?? '?'})\n          ${waits}\n          ${resumedText(server.arrivals, server.firstRequestAt ?? 0)}`,
      )
    } finally {
      await server.close()
    }
  }
}

/**
 * How late each window's first request came after the window began (every window after the first is one the client
 * waited for): `windows began 0.08–0.31 s late, median 0.12`. Resets said as durations and read late show here.
 */
function resumedText(arrivals: ReadonlyArray<{ at: number }>, first: number): string {
  const firstIn = new Map<number, number>()
  for (const { at } of arrivals) {
    const window = Math.floor((at - first) / WINDOW_MS)
    if (window > 0) firstIn.set(window, Math.min(firstIn.get(window) ?? Infinity, at - first - window * WINDOW_MS))
  }
  const lates = [...firstIn.values()].sort((a, b) => a - b)
  if (lates.length === 0) return 'one window: none waited for'
  const seconds = (ms: number | undefined) => ((ms ?? 0) / 1000).toFixed(2)
  return `windows began ${seconds(lates[0])}–${seconds(lates.at(-1))} s late, median ${seconds(lates[Math.floor(lates.length / 2)])}`
}

/** Requests started in each window and tenth of a second: `0.0:64 0.2:12 | 1.0:64 …` (refused ones as `r`). */
function windowsText(arrivals: ReadonlyArray<{ at: number; answered: boolean }>, first: number): string {
  const counts = new Map<string, number>()
  for (const { at, answered } of arrivals) {
    const key = `${(Math.floor((at - first) / 100) / 10).toFixed(1)}${answered ? '' : 'r'}`
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  return [...counts].map(([key, count]) => `${key}:${count}`).join(' ')
}
