import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  datasetFilePath,
  parsePythonJson,
  readDatasetJson,
  readDatasetJsonLines,
  readJsonLines,
  type DatasetFile,
} from '../../../harness/datasets/dataset-file.ts'

const FIXTURES = new URL('../../../fixtures/datasets/toy/', import.meta.url)
// Pinned as a real dataset's file would be: computed once when the fixtures were written.
const SHA256 = {
  'rows.jsonl': '311af39a669f366cd8234497408782773a454c5d9ce51a370634cb512617fd65',
  'rows.jsonl.gz': '6afe64465b08bd6baff43b720a04c166437057b65b1b7a1b3b101671bef2d1f3',
  'rows.json': 'c664d119c005fc9b160d66d6226d30e65872de9b2e6334481accd082b0c34130',
}
const EXPECTED_ROWS = [
  { id: 'toy/0', question: 'one plus one', answer: 2 },
  { id: 'toy/1', question: 'two times three', answer: 6 },
]

let server: Server
let base: string
const requests: string[] = []

beforeAll(async () => {
  server = createServer((request, response) => {
    const name = (request.url ?? '/').slice(1)
    requests.push(name)
    readFile(new URL(name, FIXTURES))
      .then((body) => {
        response.writeHead(200, { 'content-length': body.length })
        response.end(body)
      })
      .catch(() => {
        response.writeHead(404, 'Not Found')
        response.end('no such file')
      })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())))
})

async function freshCache(): Promise<{ env: NodeJS.ProcessEnv; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'testbench-dataset-'))
  return { dir, env: { TESTBENCH_CACHE_DIR: dir } }
}

function spec(file: keyof typeof SHA256, overrides: Partial<DatasetFile> = {}): DatasetFile {
  return { dataset: 'toy', file, url: `${base}/${file}`, sha256: SHA256[file], ...overrides }
}

describe('download into the cache', () => {
  test('downloads on first use, verifies, reports progress, and reuses the cached file', async () => {
    const { dir, env } = await freshCache()
    const lines: string[] = []
    const before = requests.length
    const path = await datasetFilePath(spec('rows.jsonl.gz'), { env, progress: (line) => lines.push(line) })
    expect(path).toBe(join(dir, 'datasets', 'toy', 'rows.jsonl.gz'))
    expect(await readJsonLines(path)).toEqual(EXPECTED_ROWS)
    expect(lines[0]).toMatch(/^Downloading toy\/rows\.jsonl\.gz from http:\/\/127\.0\.0\.1:\d+\/rows\.jsonl\.gz/)
    expect(lines.at(-1)).toMatch(/done .*sha256 verified/)
    expect(requests.length).toBe(before + 1)

    const again = await readDatasetJsonLines(spec('rows.jsonl.gz'), { env, progress: (line) => lines.push(line) })
    expect(again).toEqual(EXPECTED_ROWS)
    expect(requests.length).toBe(before + 1)
    await rm(dir, { recursive: true })
  })

  test('reads plain .jsonl and .json files', async () => {
    const { dir, env } = await freshCache()
    const quiet = { env, progress: () => {} }
    expect(await readDatasetJsonLines(spec('rows.jsonl'), quiet)).toEqual(EXPECTED_ROWS)
    expect(await readDatasetJson(spec('rows.json'), quiet)).toEqual([
      { id: 'toy/0', answer: 2 },
      { id: 'toy/1', answer: 6 },
    ])
    await rm(dir, { recursive: true })
  })

  test('a hash mismatch is an error naming the file and both hashes, and the download is not kept', async () => {
    const { dir, env } = await freshCache()
    const wrong = '0'.repeat(64)
    const attempt = datasetFilePath(spec('rows.jsonl', { sha256: wrong }), { env, progress: () => {} })
    await expect(attempt).rejects.toThrow(
      `toy/rows.jsonl downloaded from ${base}/rows.jsonl has sha256 ${SHA256['rows.jsonl']}, but ${wrong} is expected`,
    )
    expect(await readdir(join(dir, 'datasets', 'toy'))).toEqual([])
    await rm(dir, { recursive: true })
  })

  test('a 404 is an error naming the file, the address and the status', async () => {
    const { dir, env } = await freshCache()
    const missing = spec('rows.jsonl', { file: 'gone.jsonl', url: `${base}/gone.jsonl` })
    await expect(datasetFilePath(missing, { env, progress: () => {} })).rejects.toThrow(
      `Downloading toy/gone.jsonl from ${base}/gone.jsonl failed: HTTP 404 Not Found`,
    )
    await rm(dir, { recursive: true })
  })

  test('offline, the error says to set TESTBENCH_DATA_DIR', async () => {
    const { dir, env } = await freshCache()
    const closed = await closedPort()
    const offline = spec('rows.jsonl', { url: `http://127.0.0.1:${closed}/rows.jsonl` })
    await expect(datasetFilePath(offline, { env, progress: () => {} })).rejects.toThrow(
      /Could not download toy\/rows\.jsonl from http:\/\/127\.0\.0\.1:\d+\/rows\.jsonl \(.*ECONNREFUSED.*\)\. If this machine is offline, set TESTBENCH_DATA_DIR/,
    )
    await rm(dir, { recursive: true })
  })

  test('a damaged cached file is refused with both hashes', async () => {
    const { dir, env } = await freshCache()
    await mkdir(join(dir, 'datasets', 'toy'), { recursive: true })
    await writeFile(join(dir, 'datasets', 'toy', 'rows.json'), '[]\n')
    await expect(datasetFilePath(spec('rows.json'), { env, progress: () => {} })).rejects.toThrow(
      /toy\/rows\.json in the download cache .* has sha256 [0-9a-f]{64}, but c664d119.* is expected/,
    )
    await rm(dir, { recursive: true })
  })
})

describe('TESTBENCH_DATA_DIR', () => {
  test('reads from <dataDir>/<dataset>/<file> without touching the network', async () => {
    const closed = await closedPort()
    const { dir } = await freshCache()
    const env = { TESTBENCH_DATA_DIR: new URL('..', FIXTURES).pathname, TESTBENCH_CACHE_DIR: dir }
    const rows = await readDatasetJsonLines(spec('rows.jsonl.gz', { url: `http://127.0.0.1:${closed}/x` }), { env })
    expect(rows).toEqual(EXPECTED_ROWS)
    // Nothing downloaded: the cache holds only the stamp of the verified file.
    expect(await readdir(join(dir, 'datasets'))).toEqual(['verified'])
    await rm(dir, { recursive: true })
  })

  test('a file of another version in the data directory is refused', async () => {
    const env = { TESTBENCH_DATA_DIR: new URL('..', FIXTURES).pathname }
    await expect(datasetFilePath(spec('rows.jsonl', { sha256: SHA256['rows.json'] }), { env })).rejects.toThrow(
      /toy\/rows\.jsonl in TESTBENCH_DATA_DIR .* has sha256 311af39a.*, but c664d119.* is expected/,
    )
  })

  test('a missing file names where it looked and what to do', async () => {
    const env = { TESTBENCH_DATA_DIR: new URL('..', FIXTURES).pathname }
    await expect(datasetFilePath(spec('rows.jsonl', { file: 'absent.jsonl' }), { env })).rejects.toThrow(
      /toy\/absent\.jsonl is not in TESTBENCH_DATA_DIR=.* \(looked for .*fixtures\/datasets\/toy\/absent\.jsonl\)/,
    )
  })
})

/** A loopback port with nothing listening: bind one, then close it. */
async function closedPort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as AddressInfo
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return port
}

describe('parsePythonJson', () => {
  test("reads Python's NaN and ±Infinity outside strings, and leaves strings alone", () => {
    const value = parsePythonJson('[NaN, -Infinity, {"x": Infinity}, "NaN and -Infinity \\" Infinity", 1]')
    expect(value).toEqual([
      Number.NaN,
      Number.NEGATIVE_INFINITY,
      { x: Number.POSITIVE_INFINITY },
      'NaN and -Infinity " Infinity',
      1,
    ])
  })

  test('still rejects what is not JSON', () => {
    expect(() => parsePythonJson('[1, nope]')).toThrow(SyntaxError)
    expect(() => parsePythonJson('[NaN, nope]')).toThrow(SyntaxError)
  })
})
