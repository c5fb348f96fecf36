import { describe, expect, test } from 'vitest'
import {
  FIRST_SPACING_MS,
  MAX_SPACING_MS,
  PROBE_EVERY,
  PROBE_SHARE,
  RefusalSpacing,
} from '../../../../adapters/models/requests/refusal-spacing.ts'
import { EndpointPace } from '../../../../adapters/models/requests/endpoint-pace.ts'
import { allowedMs } from '../../../../scripts/bench/support/rate-limited-case.ts'
import { simulatePace, type RefusalStyle } from '../../../support/pace-simulation.ts'
import { limiterOf, type LimiterKind } from '../../../support/rate-limiters.ts'

describe('the spacing of starts to a provider that says only its refusals', () => {
  test('the first refusal spaces starts, a refusal with too few starts let in doubles it, later ones measure', () => {
    const spacing = new RefusalSpacing()
    expect(spacing.spacingMs).toBe(0)
    spacing.refused(10, 5, undefined, [0, 1, 2])
    expect(spacing.spacingMs).toBe(FIRST_SPACING_MS)
    expect(spacing.waitForMs(10)).toBe(FIRST_SPACING_MS)
    // A refusal of a request that started before the last one that set the spacing says nothing new.
    spacing.refused(12, 4, undefined, [0, 1, 2])
    expect(spacing.spacingMs).toBe(FIRST_SPACING_MS)
    // One start let in since the first refusal measures no rate: a search step, at least the wait asked for.
    spacing.refused(40, 35, 1000, [0, 1, 2, 20])
    expect(spacing.spacingMs).toBe(1000)
    // Four let in between the first refusal (at 5) and this one (at 805): one each 200 ms.
    spacing.refused(810, 805, undefined, [0, 1, 2, 20, 200, 400, 600])
    expect(spacing.spacingMs).toBe(200)
    // The start the search's second set for 1,040 still waits for it.
    expect(spacing.waitForMs(810)).toBe(230)
  })

  test('a refusal while others are in flight waits for an answer instead of doubling the spacing', () => {
    const spacing = new RefusalSpacing()
    spacing.refused(1, 0, undefined, [0], true)
    expect(spacing.awaitsAnswer).toBe(true)
    spacing.answered(0)
    expect(spacing.awaitsAnswer).toBe(false)
    spacing.refused(30, 26, undefined, [0], true)
    expect([spacing.awaitsAnswer, spacing.spacingMs]).toEqual([true, FIRST_SPACING_MS])
    // The pace lets a start go while none is in flight, whatever it awaits: no answer would come.
    let clock = 0
    const pace = new EndpointPace(8, () => clock)
    pace.started()
    pace.started()
    pace.report({ throttled: true }, 1, 0)
    clock = FIRST_SPACING_MS
    expect([pace.mayStart(1), pace.mayStart(0)]).toEqual([false, true])
  })

  test('a refusal with no start let in doubles the spacing, up to MAX_SPACING_MS', () => {
    const spacing = new RefusalSpacing()
    for (let refusal = 0; refusal < 20; refusal++) spacing.refused(refusal * 10 + 1, refusal * 10, undefined, [])
    expect(spacing.spacingMs).toBe(MAX_SPACING_MS)
  })

  test('answers in a row shorten a measured spacing by a share that grows while no refusal comes', () => {
    const spacing = new RefusalSpacing()
    spacing.refused(1, 0, undefined, [])
    const letIn = Array.from({ length: 50 }, (_, index) => 1 + index * 20)
    spacing.refused(1001, 1000, undefined, letIn)
    expect(spacing.spacingMs).toBe(20)
    // Answers of requests that started before the refusal say nothing of the new spacing.
    for (let answer = 0; answer < 2 * PROBE_EVERY; answer++) spacing.answered(999)
    expect(spacing.spacingMs).toBe(20)
    for (let answer = 0; answer < PROBE_EVERY; answer++) spacing.answered(1002)
    expect(spacing.spacingMs).toBeCloseTo(20 * (1 - PROBE_SHARE))
    for (let answer = 0; answer < PROBE_EVERY; answer++) spacing.answered(1002)
    expect(spacing.spacingMs).toBeCloseTo(20 * (1 - PROBE_SHARE) * (1 - 2 * PROBE_SHARE))
  })
})

// The bench's limiters case in a simulation on a whole-ms clock: 64 in flight at most, 200 ms a reply, a provider
// that says nothing of its limit, a bucket of 10 refilled at the rate. Goals as the bench's: within 1.1× the time the
// limit allows, at most 0.1 × 429 an item, none sent while told to wait.
describe('the pace against a provider that says only its refusals, simulated', () => {
  const CASES: Array<[RefusalStyle, LimiterKind, number]> = [
    ['none', 'bucket', 300],
    ['none', 'bucket', 3000],
    ['retry-after', 'bucket', 300],
  ]
  test.for(CASES)('%s, a %s of 10 at %i a minute, 450 items: the goals are met', ([style, kind, perMinute]) => {
    const limit = () => limiterOf(kind, perMinute, 60_000, 10)
    const run = simulatePace({ items: 450, concurrency: 64, replyMs: 200, limiter: limit(), style })
    const allowed = allowedMs(450, 64, 200, [[limit(), 1]])
    expect(run.tookMs / allowed).toBeLessThanOrEqual(1.1)
    expect(run.refused / 450).toBeLessThanOrEqual(0.1)
    expect(run.sentWhileTold).toBe(0)
  })

  // The first 16 bring 6 refusals against a bucket of 10, and no pace tells 60 a minute from 3,000 without one more
  // (docs/reports.md): the goal of 0.1 an item is out of reach here, the refusals stay within a dozen of those 6.
  test.for(['none', 'retry-after'] as const)('%s at 60 a minute, 60 items: within 1.1×, under 18 refusals', (style) => {
    const limit = () => limiterOf('bucket', 60, 60_000, 10)
    const run = simulatePace({ items: 60, concurrency: 64, replyMs: 200, limiter: limit(), style })
    expect(run.tookMs / allowedMs(60, 64, 200, [[limit(), 1]])).toBeLessThanOrEqual(1.1)
    expect(run.refused).toBeLessThan(18)
    expect(run.sentWhileTold).toBe(0)
  })

  test('bare 429s of a fixed window: the next minute is found within a few dozen answers', () => {
    const limit = () => limiterOf('fixed', 300, 60_000)
    const run = simulatePace({ items: 450, concurrency: 64, replyMs: 200, limiter: limit(), style: 'none' })
    // The limit allows 300 at once and 150 a minute later; the pace spaced 5 s apart before it was measured again.
    expect(run.tookMs / allowedMs(450, 64, 200, [[limit(), 1]])).toBeLessThan(2.5)
  })
})
