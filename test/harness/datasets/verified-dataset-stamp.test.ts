import { copyFile, mkdir, mkdtemp, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import {
  fileIdentity,
  stampPath,
  stampVerified,
  verifiedBefore,
} from '../../../harness/datasets/verified-dataset-stamp.ts'

const CONTENT = '{"id": "toy/0"}\n'
const SHA256 = 'e3f4a1c6c0a9b5f3b3e1d7e4f9a2b8c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0'

let dir: string
let cache: string
let file: string

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'testbench-stamp-'))
  cache = join(dir, 'cache')
  file = join(dir, 'rows.jsonl')
  await writeFile(file, CONTENT)
})

afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('the stamp of a verified dataset file', () => {
  test('a file never stamped is not taken as verified', async () => {
    expect(await verifiedBefore(cache, file, SHA256)).toBe(false)
  })

  test('the same version of the file, stamped with the hash it matched, is verified; another hash is not', async () => {
    await stampVerified(cache, file, await fileIdentity(file), SHA256)
    expect(await verifiedBefore(cache, file, SHA256)).toBe(true)
    expect(await verifiedBefore(cache, file, '0'.repeat(64))).toBe(false)
  })

  test('a file written again, even with the same bytes and its old modification time, is hashed again', async () => {
    await stampVerified(cache, file, await fileIdentity(file), SHA256)
    const { atime, mtime } = await stat(file)
    await new Promise((resolve) => setTimeout(resolve, 20))
    await writeFile(file, CONTENT)
    // The modification time can be set back; the change time moves on any write, and no user can set it back.
    await utimes(file, atime, mtime)
    expect(await verifiedBefore(cache, file, SHA256)).toBe(false)
  })

  test('a file replaced by another at the same path is hashed again', async () => {
    await stampVerified(cache, file, await fileIdentity(file), SHA256)
    const replacement = join(dir, 'other.jsonl')
    await writeFile(replacement, CONTENT)
    await rm(file)
    await rename(replacement, file)
    expect(await verifiedBefore(cache, file, SHA256)).toBe(false)
  })

  test('a stamp taken before a write that happened during the hashing does not fit the file', async () => {
    const before = await fileIdentity(file)
    await new Promise((resolve) => setTimeout(resolve, 20))
    await writeFile(file, 'damaged\n')
    await stampVerified(cache, file, before, SHA256)
    expect(await verifiedBefore(cache, file, SHA256)).toBe(false)
  })

  test('a stamp of another path does not vouch for this one', async () => {
    const other = join(dir, 'other.jsonl')
    await writeFile(other, CONTENT)
    await stampVerified(cache, other, await fileIdentity(other), SHA256)
    expect(await verifiedBefore(cache, file, SHA256)).toBe(false)
    expect(stampPath(cache, other)).not.toBe(stampPath(cache, file))
  })

  test('a cache that cannot be written only means no stamp, never an error', async () => {
    const notADir = join(dir, 'a-file')
    await writeFile(notADir, '')
    await expect(stampVerified(notADir, file, await fileIdentity(file), SHA256)).resolves.toBeUndefined()
    expect(await verifiedBefore(notADir, file, SHA256)).toBe(false)
  })
})

describe('datasetFilePath with stamps', () => {
  const FIXTURES = new URL('../../../fixtures/datasets/', import.meta.url).pathname
  const ROWS_SHA256 = '311af39a669f366cd8234497408782773a454c5d9ce51a370634cb512617fd65'

  test('a file that matched its pin is stamped; a damaged copy of it is refused in a later run despite the stamp', async () => {
    const data = join(dir, 'data')
    await mkdir(join(data, 'toy'), { recursive: true })
    await copyFile(join(FIXTURES, 'toy', 'rows.jsonl'), join(data, 'toy', 'rows.jsonl'))
    const env = { TESTBENCH_DATA_DIR: data, TESTBENCH_CACHE_DIR: cache }
    const spec = { dataset: 'toy', file: 'rows.jsonl', url: 'http://127.0.0.1:9/rows.jsonl', sha256: ROWS_SHA256 }
    const first = await import('../../../harness/datasets/dataset-file.ts')
    await first.datasetFilePath(spec, { env })
    const stamp = JSON.parse(await readFile(stampPath(cache, join(data, 'toy', 'rows.jsonl')), 'utf8')) as {
      sha256: string
    }
    expect(stamp.sha256).toBe(ROWS_SHA256)

    await new Promise((resolve) => setTimeout(resolve, 20))
    await writeFile(join(data, 'toy', 'rows.jsonl'), '{"id": "forged"}\n')
    // A later run: a fresh module, with nothing verified in this process yet.
    vi.resetModules()
    const later = await import('../../../harness/datasets/dataset-file.ts')
    await expect(later.datasetFilePath(spec, { env })).rejects.toThrow(
      /toy\/rows\.jsonl in TESTBENCH_DATA_DIR .* has sha256 [0-9a-f]{64}, but 311af39a.* is expected/,
    )
  })
})
