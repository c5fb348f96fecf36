import { EndpointPace } from '../../adapters/models/requests/endpoint-pace.ts'
import type { RateLimitState } from '../../adapters/models/requests/rate-limit-headers.ts'
import type { Limiter } from './rate-limiters.ts'

/**
 * What a simulated provider says: only its refusals (a bare 429, or one with `Retry-After` in whole seconds);
 * OpenAI's headers on every answer and refusal (the requests left and the time until whole again, as they stood when
 * the request came, and a refusal's `retry-after-ms`); or Anthropic's (the same, with the time it is whole again as
 * a time in whole seconds, rounded down or up, and a refusal's `Retry-After` in whole seconds).
 */
export type RefusalStyle = 'none' | 'retry-after' | 'openai' | 'anthropic-floor' | 'anthropic-ceil'

export interface PaceSimulation {
  items: number
  concurrency: number
  replyMs: number
  limiter: Limiter
  style: RefusalStyle
  /** How much later than its reply the pace hears of an answer: the way back through a worker and the slot server. */
  heardLagMs?: number
}

export interface SimulatedRun {
  /** When the last answer came, in ms from the first start. */
  tookMs: number
  refused: number
  /** Requests started while a refusal the pace had heard said to wait. */
  sentWhileTold: number
}

/** What comes back to the pace, and when; what the limit said when its request came (`wholeAt`: when it is whole). */
interface Reply {
  at: number
  startedAt: number
  startNumber: number
  answered: boolean
  waitMs?: number
  said?: { limit: number; remaining: number; wholeAt: number }
}

/** Whole-second times start off the clock's 0, as a real run does. */
const SECOND_OFFSET_MS = 337

/**
 * The pace of one endpoint against a provider, on a clock of whole ms: each item's request starts when the pace lets
 * it; the limiter lets it in (answered `replyMs` later) or refuses it (heard 1 ms later, and asked again). No timers,
 * no sockets: a run of minutes takes milliseconds.
 */
export function simulatePace(simulation: PaceSimulation): SimulatedRun {
  const { items, concurrency, replyMs, limiter, style, heardLagMs = 0 } = simulation
  let clock = 0
  const pace = new EndpointPace(concurrency, () => clock)
  const replies: Reply[] = []
  let waiting = items
  let answered = 0
  let refused = 0
  let sentWhileTold = 0
  let toldUntil = 0
  let tookMs = 0
  while (answered < items) {
    if (clock > 3_600_000) throw new Error(`the simulated run did not end within an hour (${answered} of ${items})`)
    replies.sort((a, b) => a.at - b.at)
    while ((replies[0]?.at ?? Infinity) <= clock) {
      const reply = replies.shift() as Reply
      const since = pace.starts - reply.startNumber
      const rateLimit = reply.said === undefined ? {} : { rateLimit: headersOf(style, reply.said, reply.startedAt) }
      if (reply.answered) {
        pace.report({ throttled: false, heardAt: clock, ...rateLimit }, since, reply.startedAt)
        answered++
        tookMs = clock
      } else {
        const wait = reply.waitMs === undefined ? {} : { waitMs: reply.waitMs }
        pace.report({ throttled: true, heardAt: clock, ...wait, ...rateLimit }, since, reply.startedAt)
        if (reply.waitMs !== undefined) toldUntil = Math.max(toldUntil, clock + reply.waitMs)
        waiting++
      }
      pace.ended()
    }
    while (waiting > 0 && pace.mayStart(replies.length)) {
      pace.started()
      waiting--
      if (clock < toldUntil) sentWhileTold++
      const fitsAt = limiter.fitsAt(clock, 1)
      const fits = fitsAt <= clock
      if (fits) limiter.take(clock, 1)
      const { remaining, resetMs } = limiter.left(clock)
      const said =
        style === 'none' || style === 'retry-after'
          ? {}
          : { said: { limit: limiter.limit, remaining, wholeAt: clock + resetMs } }
      const reply = { startedAt: clock, startNumber: pace.starts, ...said }
      if (fits) {
        replies.push({ ...reply, at: clock + replyMs + heardLagMs, answered: true })
        continue
      }
      refused++
      const waitMs =
        style === 'none' ? undefined : style === 'openai' ? fitsAt - clock : Math.ceil((fitsAt - clock) / 1000) * 1000
      replies.push({
        ...reply,
        at: clock + 1 + heardLagMs,
        answered: false,
        ...(waitMs === undefined ? {} : { waitMs }),
      })
    }
    const nextReply = Math.min(...replies.map((reply) => reply.at))
    clock = Math.max(clock + 1, Math.ceil(Math.min(nextReply, clock + Math.max(1, pace.waitForMs()))))
  }
  return { tookMs, refused, sentWhileTold }

  /** The headers as the pace reads them when the answer comes, its request sent at `sentAt`. */
  function headersOf(style: RefusalStyle, said: NonNullable<Reply['said']>, sentAt: number): RateLimitState {
    const { limit, remaining, wholeAt } = said
    const leadMs = clock - sentAt
    if (style === 'openai')
      return { requests: { limit, remaining, resetMs: wholeAt - sentAt }, leadMs, resetsFromArrival: true }
    const round = style === 'anthropic-floor' ? Math.floor : Math.ceil
    const time = round((wholeAt + SECOND_OFFSET_MS) / 1000) * 1000 - SECOND_OFFSET_MS
    return { requests: { limit, remaining, resetMs: Math.max(0, time - clock), resetPrecisionMs: 1000 }, leadMs }
  }
}
