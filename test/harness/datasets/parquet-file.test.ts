import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { datasetFilePath, type DatasetFile } from '../../../harness/datasets/dataset-file.ts'
import { hubFileUrl, readDatasetParquet, readParquet } from '../../../harness/datasets/parquet-file.ts'
import { startLoopbackServer, type LoopbackServer } from '../../support/loopback-server.ts'
import { writeStringParquet } from '../../support/parquet-fixture.ts'

const ROWS = [
  { id: 'toy/0', question: 'one plus one', answer: '2' },
  { id: 'toy/1', question: 'naïve “quotes” and\nlines', answer: '6' },
]

let dir: string
let sha256: string
let server: LoopbackServer

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'testbench-parquet-'))
  sha256 = await writeStringParquet(join(dir, 'served', 'toy', 'rows.parquet'), ROWS)
  server = await startLoopbackServer(async (request, response) => {
    try {
      const body = await readFile(join(dir, 'served', request.path))
      response.writeHead(200, { 'content-length': body.length })
      response.end(body)
    } catch {
      response.writeHead(404, 'Not Found')
      response.end('no such file')
    }
  })
})

afterAll(async () => {
  await server.close()
  await rm(dir, { recursive: true, force: true })
})

async function freshCache(): Promise<NodeJS.ProcessEnv> {
  return { TESTBENCH_CACHE_DIR: await mkdtemp(join(dir, 'cache-')) }
}

function spec(overrides: Partial<DatasetFile> = {}): DatasetFile {
  return {
    dataset: 'toy',
    file: 'rows.parquet',
    url: `${server.url}/toy/rows.parquet`,
    sha256,
    pinVariable: 'TESTBENCH_TOY_SHA256',
    ...overrides,
  }
}

const quiet = { progress: () => {} }

describe('parquet dataset files', () => {
  test('a pinned parquet file downloads, verifies and reads into plain objects', async () => {
    const env = await freshCache()
    expect(await readDatasetParquet(spec(), { env, ...quiet })).toEqual(ROWS)
    expect(await readParquet(join(env.TESTBENCH_CACHE_DIR ?? '', 'datasets', 'toy', 'rows.parquet'))).toEqual(ROWS)
  })

  test('a hash mismatch is an error naming the file and both hashes', async () => {
    const env = await freshCache()
    const wrong = 'f'.repeat(64)
    await expect(readDatasetParquet(spec({ sha256: wrong }), { env, ...quiet })).rejects.toThrow(
      `toy/rows.parquet downloaded from ${server.url}/toy/rows.parquet has sha256 ${sha256}, but ${wrong} is expected`,
    )
  })

  test('a file the project has not pinned stops with its URL, the actual hash and how to pin it, and is not cached', async () => {
    const env = await freshCache()
    const attempt = readDatasetParquet(spec({ sha256: undefined }), { env, ...quiet })
    await expect(attempt).rejects.toThrow(
      `toy/rows.parquet (${server.url}/toy/rows.parquet) has no sha256 pinned in this project yet, so it cannot be verified. ` +
        `The downloaded file (discarded, not cached) has sha256 ${sha256}.`,
    )
    await expect(attempt).rejects.toThrow(`pin it with TESTBENCH_TOY_SHA256=${sha256}`)
    expect(await readdir(join(env.TESTBENCH_CACHE_DIR ?? '', 'datasets', 'toy'))).toEqual([])
  })

  test("the user's pin makes an unpinned file load, and is checked like the project's", async () => {
    const env = await freshCache()
    expect(
      await readDatasetParquet(spec({ sha256: undefined }), {
        env: { ...env, TESTBENCH_TOY_SHA256: sha256.toUpperCase() },
        ...quiet,
      }),
    ).toEqual(ROWS)
    const other = await freshCache()
    await expect(
      readDatasetParquet(spec({ sha256: undefined }), {
        env: { ...other, TESTBENCH_TOY_SHA256: '0'.repeat(64) },
        ...quiet,
      }),
    ).rejects.toThrow(`has sha256 ${sha256}, but ${'0'.repeat(64)} is expected`)
  })

  test('a pin that is not a sha256, or that contradicts the project’s, is refused', async () => {
    const env = await freshCache()
    await expect(
      datasetFilePath(spec({ sha256: undefined }), { env: { ...env, TESTBENCH_TOY_SHA256: 'abc' }, ...quiet }),
    ).rejects.toThrow('TESTBENCH_TOY_SHA256=abc is not a sha256: write the 64 hex digits of toy/rows.parquet')
    await expect(
      datasetFilePath(spec(), { env: { ...env, TESTBENCH_TOY_SHA256: '1'.repeat(64) }, ...quiet }),
    ).rejects.toThrow(
      `but the project already pins toy/rows.parquet (${server.url}/toy/rows.parquet) to sha256 ${sha256}. Unset TESTBENCH_TOY_SHA256`,
    )
  })

  test('an unpinned file in TESTBENCH_DATA_DIR is refused with its hash', async () => {
    const env = { TESTBENCH_DATA_DIR: join(dir, 'served') }
    await expect(datasetFilePath(spec({ sha256: undefined }), { env, ...quiet })).rejects.toThrow(
      new RegExp(
        `The file in TESTBENCH_DATA_DIR \\(.*rows\\.parquet\\) has sha256 ${sha256}\\. .*TESTBENCH_TOY_SHA256=${sha256}`,
      ),
    )
    expect(
      await readDatasetParquet(spec({ sha256: undefined }), { env: { ...env, TESTBENCH_TOY_SHA256: sha256 } }),
    ).toEqual(ROWS)
  })

  test('a file that is not parquet says so and names the path', async () => {
    await expect(readParquet(join(dir, 'served', 'toy'))).rejects.toThrow(/toy could not be read as parquet/)
  })
})

describe('hubFileUrl', () => {
  test('resolves a path at a revision, on huggingface.co or the HF_ENDPOINT mirror', () => {
    expect(hubFileUrl('bigcode/bigcodebench', 'abc', 'data/v0.1.4-00000-of-00001.parquet', {})).toBe(
      'https://huggingface.co/datasets/bigcode/bigcodebench/resolve/abc/data/v0.1.4-00000-of-00001.parquet',
    )
    expect(hubFileUrl('o/n', 'main', 'f.parquet', { HF_ENDPOINT: 'http://127.0.0.1:9/' })).toBe(
      'http://127.0.0.1:9/datasets/o/n/resolve/main/f.parquet',
    )
  })
})
