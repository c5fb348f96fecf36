import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { datasetFilePath, type DatasetFile } from '../../harness/datasets/dataset-file.ts'
import { recordingContext } from '../support/recording-context.ts'
import { startLoopbackServer } from '../support/loopback-server.ts'
import { datasetOrSkip } from '../support/test-datasets.ts'

/** A made-up dataset file, downloaded from an address where nothing listens: this machine offline. */
async function offlineFile(): Promise<DatasetFile> {
  const closed = await startLoopbackServer(() => undefined)
  await closed.close()
  return { dataset: 'toy', file: 'toy.jsonl', url: `${closed.url}/toy.jsonl`, sha256: 'a'.repeat(64) }
}

const quiet = { progress: () => undefined }

describe('a test that needs a dataset which cannot be had', () => {
  test('offline, without TESTBENCH_DATA_DIR: it skips, naming the file and both ways to get it', async () => {
    const spec = await offlineFile()
    const context = recordingContext()
    const env = { TESTBENCH_CACHE_DIR: mkdtempSync(join(tmpdir(), 'offline-cache-')) }
    await expect(
      datasetOrSkip(context, (withData) => datasetFilePath(spec, { env: withData, ...quiet }), env),
    ).rejects.toThrow('skipped')
    expect(context.skipped).toHaveLength(1)
    expect(context.skipped[0]).toMatch(
      /^needs the dataset file toy\/toy\.jsonl, which cannot be had here \(could not download it: .*\): let it download from http:\/\/127\.0\.0\.1:\d+\/toy\.jsonl, or set TESTBENCH_DATA_DIR to a directory that holds toy\/toy\.jsonl$/,
    )
    expect(context.task.meta.skipReason).toBe(context.skipped[0])
  })

  test('a TESTBENCH_DATA_DIR without the file: it skips, saying so', async () => {
    const spec = await offlineFile()
    const context = recordingContext()
    const dir = mkdtempSync(join(tmpdir(), 'empty-data-dir-'))
    await expect(
      datasetOrSkip(context, (withData) => datasetFilePath(spec, { env: withData, ...quiet }), {
        TESTBENCH_DATA_DIR: dir,
      }),
    ).rejects.toThrow('skipped')
    expect(context.skipped[0]).toContain(`(not in TESTBENCH_DATA_DIR=${dir})`)
  })

  test('with TESTBENCH_REQUIRE_TOOLS=1 (CI) it fails instead, with the same words', async () => {
    const spec = await offlineFile()
    const context = recordingContext()
    const env = { TESTBENCH_CACHE_DIR: mkdtempSync(join(tmpdir(), 'offline-cache-')), TESTBENCH_REQUIRE_TOOLS: '1' }
    await expect(
      datasetOrSkip(context, (withData) => datasetFilePath(spec, { env: withData, ...quiet }), env),
    ).rejects.toThrow(
      /^TESTBENCH_REQUIRE_TOOLS=1, so a dataset that cannot be had fails the test: it needs the dataset file toy\/toy\.jsonl/,
    )
    expect(context.skipped).toEqual([])
  })

  test('a file that is there but is not the pinned one fails the test: it is not a missing dataset', async () => {
    const spec = await offlineFile()
    const dir = mkdtempSync(join(tmpdir(), 'data-dir-'))
    mkdirSync(join(dir, 'toy'))
    writeFileSync(join(dir, 'toy', 'toy.jsonl'), '{"not": "the pinned file"}\n')
    const context = recordingContext()
    await expect(
      datasetOrSkip(context, (withData) => datasetFilePath(spec, { env: withData, ...quiet }), {
        TESTBENCH_DATA_DIR: dir,
      }),
    ).rejects.toThrow(/sha256/)
    expect(context.skipped).toEqual([])
  })
})
