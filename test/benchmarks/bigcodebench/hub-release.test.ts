import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { readJsonLines } from '../../../harness/datasets/dataset-file.ts'
import { bigCodeBenchFile, canonicalProgram, loadBigCodeBench } from '../../../suites/bigcodebench/dataset.ts'
import { extractSolution } from '../../../harness/python-tasks/extract-solution.ts'
import { startLoopbackServer, type LoopbackServer } from '../../support/loopback-server.ts'
import { writeStringParquet } from '../../support/parquet-fixture.ts'
import { fixtureTasks } from './fixture-tasks.ts'

const FULL = '/datasets/bigcode/bigcodebench/resolve/b74c0d0bf70d2c0bc459be537895cca163007f1a/data'
const HARD = '/datasets/bigcode/bigcodebench-hard/resolve/298d2cc7b96612e15e47313c3603ee124cee0c1f/data'

let dir: string
let server: LoopbackServer
let sha256: string

// The made-up tasks of fixtures/bigcodebench in the hub's layout (every field a string column),
// in reverse order, served as both subsets' v0.1.4 and v0.1.3 files.
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'testbench-bcb-hub-'))
  const rows = (
    await readJsonLines(fileURLToPath(new URL('../../../fixtures/bigcodebench/tasks.jsonl', import.meta.url)))
  ).reverse()
  const file = join(dir, 'release.parquet')
  sha256 = await writeStringParquet(file, rows)
  const body = await readFile(file)
  const served = [FULL, HARD].flatMap((base) => [
    `${base}/v0.1.4-00000-of-00001.parquet`,
    `${base}/v0.1.3-00000-of-00001.parquet`,
  ])
  server = await startLoopbackServer((request, response) => {
    if (!served.includes(request.path)) {
      response.writeHead(404, 'Not Found')
      response.end()
      return
    }
    response.writeHead(200, { 'content-length': body.length })
    response.end(body)
  })
})

afterAll(async () => {
  await server.close()
  await rm(dir, { recursive: true, force: true })
})

async function hubEnv(extra: NodeJS.ProcessEnv = {}): Promise<NodeJS.ProcessEnv> {
  return { HF_ENDPOINT: server.url, TESTBENCH_CACHE_DIR: await mkdtemp(join(dir, 'cache-')), ...extra }
}

describe('BigCodeBench releases on the hub', () => {
  test('v0.1.4 is pinned for both subsets, at a commit; v0.1.0 stays the shared JSON files', () => {
    expect(bigCodeBenchFile('full', 'v0.1.4', {})).toEqual({
      dataset: 'bigcodebench',
      file: 'BigCodeBench-v0.1.4.parquet',
      url: `https://huggingface.co${FULL}/v0.1.4-00000-of-00001.parquet`,
      sha256: 'd9a4965821c9507ebdfb551c288656b2d5fe553234f5183044333ca8a4018267',
      pinVariable: 'TESTBENCH_BIGCODEBENCH_SHA256',
    })
    expect(bigCodeBenchFile('hard', 'v0.1.4', {})).toMatchObject({
      file: 'BigCodeBench-Hard-v0.1.4.parquet',
      url: `https://huggingface.co${HARD}/v0.1.4-00000-of-00001.parquet`,
      sha256: '73a4270b43feb81abefad7bb1b592937c768ea45c3263bedc1cabd30a9a6ce79',
    })
    expect(bigCodeBenchFile('full', 'v0.1.3', {}).sha256).toBeUndefined()
    expect(bigCodeBenchFile('full', 'v0.1.0', {}).file).toBe('BigCodeBench-hf-v0.1.0.jsonl.gz')
  })

  test('a file that is not the pinned v0.1.4 is refused, naming the file and both hashes', async () => {
    await expect(loadBigCodeBench('full', await hubEnv(), 'v0.1.4')).rejects.toThrow(
      `bigcodebench/BigCodeBench-v0.1.4.parquet downloaded from ${server.url}${FULL}/v0.1.4-00000-of-00001.parquet has sha256 ${sha256}, ` +
        'but d9a4965821c9507ebdfb551c288656b2d5fe553234f5183044333ca8a4018267 is expected',
    )
  })

  test('an unpinned release stops with its actual hash and the variable that pins it', async () => {
    await expect(loadBigCodeBench('hard', await hubEnv({ TESTBENCH_BIGCODEBENCH_VERSION: 'v0.1.3' }))).rejects.toThrow(
      `bigcodebench/BigCodeBench-Hard-v0.1.3.parquet (${server.url}${HARD}/v0.1.3-00000-of-00001.parquet) has no sha256 pinned in this project yet` +
        `, so it cannot be verified. The downloaded file (discarded, not cached) has sha256 ${sha256}.`,
    )
  })

  test('pinned by the user, the rows map through the same parser into tasks the suite can run, by task number', async () => {
    const env = await hubEnv({ TESTBENCH_BIGCODEBENCH_VERSION: 'v0.1.3', TESTBENCH_BIGCODEBENCH_SHA256: sha256 })
    const tasks = await loadBigCodeBench('full', env)
    const expected = [...(await fixtureTasks())].sort(([a], [b]) => a - b).map(([, task]) => task)
    expect(tasks).toEqual(expected)
    for (const task of tasks) {
      expect(extractSolution(task.reference, task.entryPoint)?.code.trim(), task.id).toBe(canonicalProgram(task).trim())
    }
  })
})
