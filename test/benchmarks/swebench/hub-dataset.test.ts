import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { loadInstances, swebenchHubFile } from '../../../suites/swebench/dataset.ts'
import { parseInstance } from '../../../suites/swebench/instance.ts'
import { swebenchOptions } from '../../../suites/swebench/options.ts'
import { swebenchItem } from '../../../suites/swebench/run-item.ts'
import { startLoopbackServer, type LoopbackServer } from '../../support/loopback-server.ts'
import { writeStringParquet } from '../../support/parquet-fixture.ts'
import { syntheticRow } from './synthetic-instance.ts'

const VERIFIED =
  '/datasets/SWE-bench/SWE-bench_Verified/resolve/91aa3ed51b709be6457e12d00300a6a596d4c6a3/data/test-00000-of-00001.parquet'
const FULL =
  '/datasets/princeton-nlp/SWE-bench/resolve/e48e2bd1e9fecd5bbd641e9414ac59da9f2e69f6/data/test-00000-of-00001.parquet'

let dir: string
let server: LoopbackServer
let parquet: string
let sha256: string
let rows: Array<Record<string, unknown>>

// The synthetic instance and a made-up second one, in the hub's schema (FAIL_TO_PASS and
// PASS_TO_PASS JSON-encoded strings, Verified's extra `difficulty` column).
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'testbench-swebench-hub-'))
  const synthetic = await syntheticRow()
  const second = {
    ...synthetic,
    instance_id: 'testbench__tinycalc-2',
    FAIL_TO_PASS: JSON.stringify(['tests/test_stats.py::test_mean']),
    PASS_TO_PASS: '[]',
  }
  rows = [synthetic, second].map((row) => ({ ...row, difficulty: '<15 min fix' }))
  parquet = join(dir, 'test.parquet')
  sha256 = await writeStringParquet(parquet, rows)
  const body = await readFile(parquet)
  server = await startLoopbackServer((request, response) => {
    response.writeHead(request.path === VERIFIED || request.path === FULL ? 200 : 404, {
      'content-length': body.length,
    })
    response.end(body)
  })
})

afterAll(async () => {
  await server.close()
  await rm(dir, { recursive: true, force: true })
})

describe('SWE-bench Verified and full from the hub', () => {
  test('both are pinned to a commit and a sha256', () => {
    expect(swebenchHubFile('verified', {})).toEqual({
      dataset: 'swebench',
      file: 'SWE-bench_Verified.test.parquet',
      url: `https://huggingface.co${VERIFIED}`,
      sha256: '43ed5a3d1d98da36472c1ade65ddd2085d7b4ff694fcaf6a023a07c5c1f32f21',
      pinVariable: 'TESTBENCH_SWEBENCH_SHA256',
    })
    expect(swebenchHubFile('full', {})).toMatchObject({
      file: 'SWE-bench.test.parquet',
      url: `https://huggingface.co${FULL}`,
      sha256: 'db4f70ef735b3162c74801ddcdf8d7bae8d704193788c6d844f898c20b571cbb',
    })
  })

  test('TESTBENCH_SWEBENCH_DATASET picks the download; another file at that address is refused with both hashes', async () => {
    const env = {
      HF_ENDPOINT: server.url,
      TESTBENCH_CACHE_DIR: await mkdtemp(join(dir, 'cache-')),
      TESTBENCH_SWEBENCH_DATASET: 'verified',
    }
    await expect(loadInstances({ env })).rejects.toThrow(
      `swebench/SWE-bench_Verified.test.parquet downloaded from ${server.url}${VERIFIED} has sha256 ${sha256}, ` +
        'but 43ed5a3d1d98da36472c1ade65ddd2085d7b4ff694fcaf6a023a07c5c1f32f21 is expected',
    )
    await expect(loadInstances({ env, dataset: 'full' })).rejects.toThrow(
      `swebench/SWE-bench.test.parquet downloaded from ${server.url}${FULL} has sha256 ${sha256}`,
    )
    expect(server.seen.map((request) => request.path)).toEqual([VERIFIED, FULL])
  })

  test('parquet rows map through the same parser into items the suite runs', async () => {
    const instances = await loadInstances({ datasetFile: parquet })
    expect(instances).toEqual(rows.map((row, index) => parseInstance(row, `row ${index + 1}`)))
    expect(instances[0]).toMatchObject({
      instanceId: 'testbench__tinycalc-1',
      failToPass: ['tests/test_stats.py::test_median_even'],
      spec: { parser: 'pytest' },
    })
    expect(instances[1]?.passToPass).toEqual([])
    expect(swebenchItem(instances[0] ?? expect.fail('no instance')).id).toBe('testbench__tinycalc-1')
    expect(
      (await loadInstances({ datasetFile: parquet, instances: ['testbench__tinycalc-2'] })).map(
        (instance) => instance.instanceId,
      ),
    ).toEqual(['testbench__tinycalc-2'])
  })

  test('TESTBENCH_SWEBENCH_DATASET: lite by default; unknown names and two sources at once are refused', () => {
    expect(swebenchOptions({}).dataset).toBe('lite')
    expect(swebenchOptions({ TESTBENCH_SWEBENCH_DATASET: 'Verified' }).dataset).toBe('verified')
    expect(() => swebenchOptions({ TESTBENCH_SWEBENCH_DATASET: 'mini' })).toThrow(
      'TESTBENCH_SWEBENCH_DATASET=mini is not accepted: use lite (300), verified (500) or full (2294), or unset it for lite.',
    )
    expect(() =>
      swebenchOptions({ TESTBENCH_SWEBENCH_DATASET: 'full', TESTBENCH_SWEBENCH_DATASET_FILE: 'mine.json' }),
    ).toThrow(/are both set: set one/)
  })
})
