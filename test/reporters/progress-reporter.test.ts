/**
 * Without a terminal a run says how far it is while it runs: done/total, the score so far and the
 * time left per suite, every 5 % of its items and at least every 10 s, not only when a file ends.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import type { TestCase, TestModule, TestSpecification } from 'vitest/node'
import type { ItemRecord } from '../../harness/records/item-record.ts'
import { duration, ProgressReporter, progressLine } from '../../reporters/progress-reporter.ts'
import { startVitestRun } from '../support/run-vitest.ts'
import { waitFor } from '../support/wait-for.ts'

describe('progress lines', () => {
  test('say done of total, each score with its model, and the time left', () => {
    const score = { suite: 'farel', model: 'qwen', name: 'FaRel-3', value: 80, display: '80.00' }
    expect(progressLine('farel', 90, { total: 450, estimated: false }, [score], 20_000)).toBe(
      'farel: 90/450 items · FaRel-3 80.00 (qwen) · 20 s so far, about 1 min 20 s left',
    )
    expect(progressLine('farel', 0, { total: 450, estimated: true }, [], 3_000)).toBe(
      'farel: 0/~450 items · 3 s so far',
    )
    expect(progressLine('demo', 5, { total: 5, estimated: false }, [], 61_000)).toBe(
      'demo: 5/5 items · done in 1 min 1 s',
    )
    expect(duration(2 * 3_600_000 + 5 * 60_000)).toBe('2 h 5 min')
  })
})

/** A benchmark item as the reporter sees it: its module, its declared suite, its record once it ran. */
function fakeCase(moduleId: string, suite: string, itemId: string, outcome?: 'passed' | 'wrong_answer'): TestCase {
  const record: ItemRecord = {
    suite,
    itemId,
    model: 'm',
    provider: 'openai',
    sample: 0,
    modelDetails: {},
    startedAt: '',
    ...(outcome ? { outcome } : {}),
  }
  const testCase = {
    module: { moduleId },
    options: { mode: 'run' },
    meta: () => ({ declared: { suite, model: 'm', setSize: 4 }, bench: record }),
    result: () => ({ state: outcome === undefined ? 'pending' : outcome === 'passed' ? 'passed' : 'failed' }),
  }
  return testCase as unknown as TestCase
}

function fakeModule(moduleId: string, cases: TestCase[]): TestModule {
  return { moduleId, children: { allTests: () => cases.values() } } as unknown as TestModule
}

describe('the progress reporter', () => {
  test('prints every 5 % of items, estimates the total from the part files collected so far, and speaks up every interval while items wait', async () => {
    const lines: string[] = []
    let clock = 0
    const reporter = new ProgressReporter({
      enabled: true,
      intervalMs: 50,
      write: (line) => lines.push(line),
      now: () => clock,
    })
    const parts = ['/r/suites/demo/demo-1.test.ts', '/r/suites/demo/demo-2.test.ts']
    reporter.onTestRunStart(parts.map((moduleId) => ({ moduleId }) as TestSpecification))
    reporter.onTestModuleCollected(
      fakeModule(parts[0] ?? '', [fakeCase(parts[0] ?? '', 'demo', 'a'), fakeCase(parts[0] ?? '', 'demo', 'b')]),
    )
    clock = 10_000
    reporter.onTestCaseResult(fakeCase(parts[0] ?? '', 'demo', 'a', 'passed'))
    expect(lines).toEqual(['demo: 1/~4 items · demo pass rate 100.00% (m) · 10 s so far, about 30 s left'])
    // Nothing finishes for a while: the timer speaks up.
    clock = 20_000
    const waiting = 'demo: 1/~4 items · demo pass rate 100.00% (m) · 20 s so far, about 1 min 0 s left'
    await waitFor(() => lines.at(-1) === waiting, 5_000).catch(() => undefined)
    expect(lines.at(-1)).toBe(waiting)
    reporter.onTestModuleCollected(
      fakeModule(parts[1] ?? '', [fakeCase(parts[1] ?? '', 'demo', 'c'), fakeCase(parts[1] ?? '', 'demo', 'd')]),
    )
    reporter.onTestCaseResult(fakeCase(parts[0] ?? '', 'demo', 'b', 'wrong_answer'))
    reporter.onTestCaseResult(fakeCase(parts[1] ?? '', 'demo', 'c', 'passed'))
    clock = 40_000
    reporter.onTestCaseResult(fakeCase(parts[1] ?? '', 'demo', 'd', 'passed'))
    expect(lines.at(-1)).toBe('demo: 4/4 items · demo pass rate 75.00% (m) · done in 40 s')
    const printed = lines.length
    reporter.onTestRunEnd([], [], 'passed')
    // Ten intervals: a timer left running would have spoken up by now.
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(lines).toHaveLength(printed)
  })

  test('end to end without a terminal: lines come as items finish, before their file is reported', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'progress-'))
    const { code, output } = await startVitestRun(['--project', 'suites', 'suites/demo'], {
      MODEL: 'reference',
      TESTBENCH_REPORT_DIR: join(dir, 'reports'),
    }).done
    expect(code, output).toBe(0)
    const first = output.indexOf('demo: 1/5 items · ')
    expect(first, output).toBeGreaterThanOrEqual(0)
    expect(output).toMatch(/demo: 5\/5 items · demo pass rate 100\.00% \(reference\) · done in \d+ s/)
    expect(first).toBeLessThan(output.indexOf('suites/demo/demo.test.ts'))
  })
})
