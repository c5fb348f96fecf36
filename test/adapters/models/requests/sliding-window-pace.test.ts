import { expect, test } from 'vitest'
import { EndpointPace } from '../../../../adapters/models/requests/endpoint-pace.ts'
import { slidingWindow } from '../../../support/rate-limiters.ts'

// The bench's sliding window at 60 a minute took 60 s for 60 items in two runs of three: the pace counted the
// requests that reached the provider before an earlier-started one twice (in the provider's count at that one's
// arrival, and again as starts since it), and held its last starts until the first left the window.
test('requests that reach a sliding window out of order are counted once: 60 of 60 start within the second', () => {
  const provider = slidingWindow(60, 60_000)
  let clock = 0
  const pace = new EndpointPace(64, () => clock)
  const answers: Array<{ at: number; startedAt: number; startNumber: number; remaining: number }> = []
  const hear = (until: number): void => {
    answers.sort((a, b) => a.at - b.at)
    for (let next = answers[0]; next !== undefined && next.at <= until; next = answers[0]) {
      answers.shift()
      clock = next.at
      const requests = { limit: 60, remaining: next.remaining, resetMs: provider.left(clock).resetMs }
      pace.report(
        { throttled: false, heardAt: clock, rateLimit: { requests } },
        pace.starts - next.startNumber,
        next.startedAt,
      )
      pace.ended()
    }
  }
  // Starts come in groups as the run's slot server lets them go (as the bench's did); each group reaches the provider
  // in the reverse of the order it started in, a millisecond apart, and is answered 200 ms after.
  const groups: Array<[number, number]> = [
    [0, 16],
    [270, 4],
    [340, 10],
    [500, 10],
    [570, 10],
    [730, 4],
    [900, 16],
  ]
  for (const [at, size] of groups) {
    hear(at)
    clock = at
    const group: Array<{ startedAt: number; startNumber: number }> = []
    while (pace.starts < 60 && group.length < size && pace.mayStart(answers.length + group.length)) {
      pace.started()
      group.push({ startedAt: clock, startNumber: pace.starts })
    }
    group.reverse().forEach((each, index) => {
      expect(provider.take(at + index, 1)).toBe(true)
      answers.push({ ...each, at: at + index + 200, remaining: provider.left(at + index).remaining })
    })
  }
  expect(pace.starts).toBe(60)
})
