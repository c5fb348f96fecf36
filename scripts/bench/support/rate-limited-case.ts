// The rate-limited case of `npm run bench:throughput`: FaRel's 450 quizzes against a loopback server that enforces a
// provider's rate limit, a minute scaled down to a second: requests and tokens per window, a 429 with the provider's
// own headers once a window's allowance is spent (OpenAI's `x-ratelimit-*`; Anthropic's `anthropic-ratelimit-*` and
// `Retry-After` in whole seconds), and the allowance left on every answer. The goal: the run ends within 1.1× of the
// time the limit allows at that concurrency, with 0 provider_error and no request sent while the server said to wait.
import { dirname } from 'node:path'
import { rmSync } from 'node:fs'
import { loadavg } from 'node:os'
import type { WireProtocol } from '../../../adapters/models/requests/wire-check.ts'
import { farelOptions } from '../../../suites/farel/options.ts'
import { generateQuizzes } from '../../../suites/farel/quiz.ts'
import { clientEnv } from '../../../test/support/fault-injecting-server.ts'
import {
  startRateLimitedServer,
  type HeaderStyle,
  type RateLimitedServer,
} from '../../../test/support/rate-limited-server.ts'
import { fixedWindow, limiterOf, type Limiter, type LimiterKind } from '../../../test/support/rate-limiters.ts'
import { runSuiteForRecords } from '../../../test/support/run-vitest.ts'
import { cleanUpRunOnInterrupt } from './interrupt-cleanup.ts'

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
      const { code, output, records, reports } = await runSuiteForRecords(
        'farel',
        { ...clientEnv(protocol, server.url, 'bench'), TESTBENCH_CONCURRENCY: String(concurrency) },
        cleanUpRunOnInterrupt,
      )
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

/** One limiter the `limiters` case runs against, and whose words the server speaks. */
interface LimiterCase {
  name: string
  style: HeaderStyle
  protocol: WireProtocol
  limiter: LimiterKind
  /** A bucket's capacity for requests (the whole minute's limit when absent). */
  burst?: number
  /** Tokens per minute are the limit (input apart from output, Anthropic's), not requests. */
  tokens?: boolean
}

export const LIMITER_CASES: readonly LimiterCase[] = [
  { name: 'bucket', style: 'openai', protocol: 'openai', limiter: 'bucket', burst: 10 },
  { name: 'fixed', style: 'openai', protocol: 'openai', limiter: 'fixed' },
  { name: 'sliding', style: 'openai', protocol: 'openai', limiter: 'sliding' },
  { name: 'tpm', style: 'anthropic', protocol: 'anthropic', limiter: 'bucket', tokens: true },
  { name: 'retry-after', style: 'retry-after', protocol: 'openai', limiter: 'bucket', burst: 10 },
  { name: '429-only', style: 'none', protocol: 'openai', limiter: 'bucket', burst: 10 },
]

/** The input a request is charged under a tokens-per-minute limit, and its output (counted apart, never the limit). */
const INPUT_TOKENS = 100
const OUTPUT_TOKENS = 5

/**
 * The limits a case's server runs at `perMinute` requests a minute (a minute of `minuteMs`), as the yardstick charges
 * them. Under tokens per minute, the input allowance is `perMinute` requests' worth; requests and output have ten
 * times the room, so neither is what binds (the yardstick leaves output out: it is counted when a reply ends).
 */
export function caseLimits(each: LimiterCase, perMinute: number, minuteMs: number): Charge[] {
  if (each.tokens === true)
    return [
      [limiterOf(each.limiter, perMinute * 10, minuteMs), 1],
      [limiterOf(each.limiter, perMinute * INPUT_TOKENS, minuteMs), INPUT_TOKENS],
    ]
  return [[limiterOf(each.limiter, perMinute, minuteMs, each.burst), 1]]
}

/**
 * Each limiter at each rate (requests a minute, and the items run at it), FaRel at `concurrency`, judged against the
 * larger of two yardsticks: the time the limit allows (`allowedMs`), and the same items at the same concurrency
 * against a server of the same protocol with no limit, run once per rate and protocol (where the limit does not bind,
 * the schedule is only ⌈items / concurrency⌉ replies, and the harness's own time is what is left). Goals: ≤ 1.1× that,
 * 0 provider_error, ≤ 0.1 × 429 an item, 0 requests sent inside a wait the server told. BENCH_LIMITERS and
 * BENCH_RATES (`300:450,3000:450,60:60`) choose; BENCH_MINUTE_MS shortens the minute for a quick look.
 */
export async function limitersCase(concurrency: number, replyMs: number): Promise<void> {
  const minuteMs = Number(process.env.BENCH_MINUTE_MS ?? 60_000)
  const names = new Set((process.env.BENCH_LIMITERS ?? LIMITER_CASES.map((each) => each.name).join(',')).split(','))
  const rates = (process.env.BENCH_RATES ?? '300:450,3000:450,60:60').split(',').map((pair) => {
    const [perMinute = 0, items = 0] = pair.split(':').map(Number)
    return { perMinute, items }
  })
  console.log(
    `\nlimiters: FaRel at c = ${concurrency}, ${replyMs} ms a reply, a minute of ${minuteMs / 1000} s; goals: ≤ ${GOAL}×` +
      ` the larger of the time the limit allows and the same run's without a limit, 0 provider_error, ≤ 0.1 × 429 an item, 0 sent while told to wait`,
  )
  for (const { perMinute, items } of rates) {
    // FaRel's lengths 1–3 in 9 classes give 450 quizzes at 50 a class; lengths 1–2 in 5 classes, 60 at 12.
    const farel: Record<string, string> =
      items === ITEMS
        ? {}
        : { TESTBENCH_FAREL_LENGTH: '2', TESTBENCH_FAREL_PER_CLASS: String(Math.max(1, Math.round(items / 5))) }
    const correct = new Map(generateQuizzes(farelOptions(farel)).map((quiz) => [quiz.prompt, quiz.correct]))
    const answer = (prompt: string) => `<ANSWER>${correct.get(prompt) ?? 1}</ANSWER>`
    const run = { farel, items: correct.size, concurrency }
    const unlimited = new Map<WireProtocol, number>()
    for (const each of LIMITER_CASES.filter((candidate) => names.has(candidate.name))) {
      if (!unlimited.has(each.protocol)) {
        // No limit: a window that never fills, and a server that says nothing of one.
        const server = await startRateLimitedServer({
          protocol: each.protocol,
          style: 'none',
          requestsPerWindow: Number.POSITIVE_INFINITY,
          windowMs: minuteMs,
          latencyMs: replyMs,
          answer,
        })
        const { tookMs, providerErrors } = await measuredRun(`no limit (${each.protocol})`, server, each.protocol, run)
        unlimited.set(each.protocol, tookMs)
        console.log(
          `${String(perMinute).padStart(4)} rpm ${'no limit'.padEnd(11)} ${String(correct.size).padStart(3)} items:` +
            ` ${(tookMs / 1000).toFixed(2)} s, ${each.protocol}'s wire, ${providerErrors} provider_error: the yardstick without a limit` +
            ` (load ${loadavg()[0]?.toFixed(1) ?? '?'})`,
        )
      }
      const allowed = allowedMs(correct.size, concurrency, replyMs, caseLimits(each, perMinute, minuteMs))
      const server = await startRateLimitedServer({
        protocol: each.protocol,
        style: each.style,
        limiter: each.limiter,
        windowMs: minuteMs,
        latencyMs: replyMs,
        answer,
        ...(each.tokens === true
          ? {
              requestsPerWindow: perMinute * 10,
              tokensPerWindow: perMinute * INPUT_TOKENS,
              tokensPerRequest: INPUT_TOKENS,
              outputTokensPerWindow: perMinute * OUTPUT_TOKENS * 10,
              outputTokensPerRequest: OUTPUT_TOKENS,
            }
          : { requestsPerWindow: perMinute, ...(each.burst === undefined ? {} : { burst: each.burst }) }),
      })
      const { tookMs, providerErrors } = await measuredRun(each.name, server, each.protocol, run)
      const judged = againstYardsticks(tookMs, allowed, unlimited.get(each.protocol) ?? 0)
      const perItem = server.refused / correct.size
      const met = judged.ratio <= GOAL && providerErrors === 0 && perItem <= 0.1 && server.sentWhileTold === 0
      console.log(
        `${String(perMinute).padStart(4)} rpm ${each.name.padEnd(11)} ${String(correct.size).padStart(3)} items: ${judged.text},` +
          ` ${providerErrors} provider_error, ${server.refused} × 429 (${perItem.toFixed(2)} an item), ${server.sentWhileTold} sent while told to wait` +
          ` · goal ${met ? 'met' : 'NOT met'} (load ${loadavg()[0]?.toFixed(1) ?? '?'})`,
      )
    }
  }
}

/**
 * A limiter's run against both yardsticks, judged on the larger (the smaller ratio):
 * `1.70 s of 1.60 s allowed (1.06× the limit's schedule; 0.97× the same run without a limit)`.
 */
export function againstYardsticks(
  tookMs: number,
  allowedMs: number,
  unlimitedMs: number,
): { ratio: number; text: string } {
  const seconds = (ms: number) => (ms / 1000).toFixed(2)
  const ratios = `${(tookMs / allowedMs).toFixed(2)}× the limit's schedule; ${(tookMs / unlimitedMs).toFixed(2)}× the same run without a limit`
  return {
    ratio: tookMs / Math.max(allowedMs, unlimitedMs),
    text: `${seconds(tookMs)} s of ${seconds(allowedMs)} s allowed (${ratios})`,
  }
}

/** FaRel's items at `concurrency` against `server`, which it closes after: the server's time from the first request to the last answer. */
async function measuredRun(
  name: string,
  server: RateLimitedServer,
  protocol: WireProtocol,
  run: { farel: Record<string, string>; items: number; concurrency: number },
): Promise<{ tookMs: number; providerErrors: number }> {
  try {
    const { code, output, records, reports } = await runSuiteForRecords(
      'farel',
      { ...clientEnv(protocol, server.url, 'bench'), ...run.farel, TESTBENCH_CONCURRENCY: String(run.concurrency) },
      cleanUpRunOnInterrupt,
    )
    rmSync(dirname(reports), { recursive: true, force: true })
    if (records.length !== run.items)
      throw new Error(
        `${name}: ${records.length} of ${run.items} items recorded (exit ${code}):\n${output.slice(-3000)}`,
      )
    return {
      tookMs: (server.lastAnswerAt ?? 0) - (server.firstRequestAt ?? 0),
      providerErrors: records.filter((record) => record.outcome === 'provider_error').length,
    }
  } finally {
    await server.close()
  }
}
