/**
 * SWE-bench's verdict from the statuses of the instance's tests: resolved when
 * every FAIL_TO_PASS and every PASS_TO_PASS test passes; partially resolved when
 * some FAIL_TO_PASS tests pass and every PASS_TO_PASS test does; else not resolved.
 * A test passes when the log shows it PASSED or XFAIL, fails when it shows FAILED
 * or ERROR or does not show it at all; a skipped test counts neither way.
 */
import type { TestStatusMap } from './log-parsers.ts'

export type Resolution = 'resolved' | 'partially_resolved' | 'not_resolved'

export interface TestTally {
  passed: string[]
  failed: string[]
}

export interface Grade {
  resolution: Resolution
  failToPass: TestTally
  passToPass: TestTally
}

export function gradeInstance(
  statuses: TestStatusMap,
  failToPass: readonly string[],
  passToPass: readonly string[],
): Grade {
  const f2p = tally(statuses, failToPass)
  const p2p = tally(statuses, passToPass)
  const f2pRate = rate(f2p)
  const p2pRate = rate(p2p)
  const resolution: Resolution =
    f2pRate === 1 && p2pRate === 1
      ? 'resolved'
      : f2pRate > 0 && f2pRate < 1 && p2pRate === 1
        ? 'partially_resolved'
        : 'not_resolved'
  return { resolution, failToPass: f2p, passToPass: p2p }
}

function tally(statuses: TestStatusMap, tests: readonly string[]): TestTally {
  const passed: string[] = []
  const failed: string[] = []
  for (const test of tests) {
    const status = statuses.get(test)
    if (status === 'PASSED' || status === 'XFAIL') passed.push(test)
    else if (status === undefined || status === 'FAILED' || status === 'ERROR') failed.push(test)
  }
  return { passed, failed }
}

/** The share of tests that passed; an empty list counts as all passed. */
function rate({ passed, failed }: TestTally): number {
  const total = passed.length + failed.length
  return total === 0 ? 1 : passed.length / total
}
