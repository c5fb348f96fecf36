/**
 * Item names are what published replays and `-t` selections hold on to: with one sample they are
 * `<model> > <suite> > <id> <title>` exactly; with SAMPLES=n each gets ` sample 0` … ` sample n-1`
 * (the sample index every report uses), never a second `#` after an id that has one (`sibling #1 #0`).
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { readJsonReport, startVitestRun } from '../support/run-vitest.ts'

/** The full names of a suite's items, collected without running any (`-t` matching none). */
async function itemNames(suite: string, env: Record<string, string>): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'item-names-'))
  const report = join(dir, 'report.json')
  const { code, output } = await startVitestRun(
    [
      '--project',
      'suites',
      `suites/${suite}`,
      '-t',
      'no-such-item-anywhere',
      '--reporter=json',
      `--outputFile.json=${report}`,
    ],
    { MODEL: 'reference', TESTBENCH_REPORT_DIR: join(dir, 'reports'), ...env },
  ).done
  expect(code, output).toBe(0)
  return readJsonReport(report).map((result) => [...result.ancestorTitles, result.title].join(' > '))
}

describe('item names', () => {
  test('one sample: the names as published; SAMPLES=3: each name three times, with " sample 0" to " sample 2"', async () => {
    const one = await itemNames('demo', {})
    expect(one).toContain('reference > demo > sum-2+3 2 + 3')
    expect(one).toHaveLength(5)
    const three = await itemNames('demo', { SAMPLES: '3' })
    expect(three).toEqual(one.flatMap((name) => [0, 1, 2].map((sample) => `${name} sample ${sample}`)))
  })

  test('FaRel, whose ids carry a quiz number: SAMPLES=5 gives "sibling #1 sample 0" … "sample 4", in every part file', async () => {
    const names = await itemNames('farel', { SAMPLES: '5' })
    expect(names).toHaveLength(450 * 5)
    expect(names.filter((name) => name.startsWith('reference > farel > sibling #1 '))).toEqual(
      [0, 1, 2, 3, 4].map((sample) => `reference > farel > sibling #1 sample ${sample}`),
    )
    expect(names.filter((name) => / #\d+ #\d+$/.test(name))).toEqual([])
  })

  test('a selection smaller than the parts: the empty part files say so in a skipped test, and the run passes and is complete', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'item-names-'))
    const { code, output } = await startVitestRun(['--project', 'suites', 'suites/farel'], {
      MODEL: 'reference',
      TESTBENCH_FAREL_LENGTH: '1',
      TESTBENCH_FAREL_PER_CLASS: '1',
      TESTBENCH_REPORT_DIR: join(dir, 'reports'),
    }).done
    expect(code, output).toBe(0)
    expect(output).toMatch(/2 passed \| 4 skipped/)
    expect(output).toContain('FaRel-1 = 100.00 (solved 2/2)')
    expect(output).not.toContain('PARTIAL')
  })
})
