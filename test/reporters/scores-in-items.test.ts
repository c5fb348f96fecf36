import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { itemsOfHtmlReport } from '../support/html-report-data.ts'
import { startVitestRun } from '../support/run-vitest.ts'

/**
 * What the single-file html report holds for each item, read from the data Vitest inlines into it
 * (no browser needed): its outcome as a tag and, in its meta, the suite's scores exactly as the score
 * reporter printed them, a partial run's marked as partial, a merged run's as the whole run's.
 */

/** The summary the score reporter printed for one suite and model: from `<suite> · <model>` to the blank line. */
function printedSummary(output: string, suite: string): string {
  const match = new RegExp(`^${suite} · [^\\n]*\\n(?: {2}[^\\n]*\\n)+`, 'm').exec(output)
  expect(match, output).not.toBeNull()
  return (match?.[0] ?? '').trimEnd()
}

test('a partial run: every item that ran shows its outcome tag and the scores as printed, marked partial', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'scores-in-items-'))
  const run = await startVitestRun(['--project', 'suites', 'suites/farel', '-t', 'child'], {
    MODEL: 'reference',
    TESTBENCH_CACHE: 'off',
    TESTBENCH_FAREL_PER_CLASS: '2',
    TESTBENCH_GATE_CONFIG: 'off',
    TESTBENCH_REPORT_DIR: join(dir, 'reports'),
    TESTBENCH_HTML_DIR: join(dir, 'html'),
  }).done
  const summary = printedSummary(run.output, 'farel')
  expect(summary).toContain('PARTIAL: 2 of 18 items (filtered with -t child)')
  const { items, tags } = itemsOfHtmlReport(join(dir, 'html', 'index.html'))
  expect(tags).toEqual(
    expect.arrayContaining([
      'passed',
      'wrong_answer',
      'timeout',
      'provider_error',
      'infra_error',
      'not_the_models_fault',
    ]),
  )
  expect(items.map((item) => item.name).sort()).toEqual(['child #1', 'child #2'])
  for (const item of items) {
    expect(item.tags).toEqual(['passed'])
    expect(item.outcome).toMatch(/^passed: /)
    expect(
      item.scores?.startsWith(`${summary}\n\nfarel: results table\n| Model | FaRel-3 | child |`),
      item.scores,
    ).toBe(true)
  }
}, 120_000)

test('merged shards: the html report of the merge shows the whole run’s scores in every item, as one run prints them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'scores-in-items-merge-'))
  const env = (reports: string) => ({
    MODEL: 'reference',
    TESTBENCH_CACHE: 'off',
    TESTBENCH_FAREL_PER_CLASS: '2',
    TESTBENCH_GATE_CONFIG: 'off',
    TESTBENCH_REPORT_DIR: join(dir, reports),
  })
  const files = ['--project', 'suites', 'suites/farel']
  const [single, ...shards] = await Promise.all([
    startVitestRun(files, env('single')).done,
    ...[1, 2].map(
      (index) =>
        startVitestRun(
          [
            ...files,
            `--shard=${index}/2`,
            '--reporter=blob',
            `--outputFile=${join(dir, 'blobs', `blob-${index}.json`)}`,
          ],
          env(`shard-${index}`),
        ).done,
    ),
  ])
  for (const shard of shards) expect(shard.code, shard.output).toBe(0)
  const merged = await startVitestRun(['--merge-reports', join(dir, 'blobs')], {
    ...env('merged'),
    TESTBENCH_HTML_DIR: join(dir, 'html'),
  }).done
  expect(merged.code, merged.output).toBe(0)
  const summary = printedSummary(merged.output, 'farel')
  expect(summary).toBe(printedSummary(single.output, 'farel'))
  expect(summary).not.toMatch(/SHARD|PARTIAL/)
  const { items } = itemsOfHtmlReport(join(dir, 'html', 'index.html'))
  expect(items).toHaveLength(18)
  for (const item of items) {
    expect(item.tags).toEqual(['passed'])
    expect(item.scores?.startsWith(`${summary}\n\nfarel: results table`), item.scores).toBe(true)
  }
}, 180_000)
