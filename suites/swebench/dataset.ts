/** SWE-bench Lite (pinned JSON), Verified and full (the hub's parquet), or any SWE-bench-format file the user points at. */
import { readJson, readJsonLines, datasetFilePath, type DatasetFile } from '../../harness/datasets/dataset-file.ts'
import { hubFileUrl, readParquet } from '../../harness/datasets/parquet-file.ts'
import { parseInstance, type SwebenchInstance } from './instance.ts'
import { swebenchDataset, type SwebenchDataset } from './options.ts'

/** SWE-bench Lite's 300 test instances as one JSON array (a June 2024 snapshot of the HF dataset). */
export const SWEBENCH_LITE: DatasetFile = {
  dataset: 'swebench',
  file: 'swe-bench-lite.test.json',
  url: 'https://raw.githubusercontent.com/ivan4722/csvtransfer/9039a5db8b617ae6cf2c63bc08c295958c8a4968/swe-bench-lite.json',
  sha256: '8f49b42a35ffbf6f70326bbae42d5e8e8f129d39f7972faa7eb46ba0a9d86341',
}

/**
 * The test split of Verified (500 instances; 2,090,470 bytes) and of the full set (2294; 12,097,227
 * bytes) on the hub, at these commits; sha256 as found pinned in public code that downloads them.
 */
export function swebenchHubFile(dataset: 'verified' | 'full', env: NodeJS.ProcessEnv = process.env): DatasetFile {
  const path = 'data/test-00000-of-00001.parquet'
  const pinVariable = 'TESTBENCH_SWEBENCH_SHA256'
  if (dataset === 'verified') {
    return {
      dataset: 'swebench',
      file: 'SWE-bench_Verified.test.parquet',
      url: hubFileUrl('SWE-bench/SWE-bench_Verified', '91aa3ed51b709be6457e12d00300a6a596d4c6a3', path, env),
      sha256: '43ed5a3d1d98da36472c1ade65ddd2085d7b4ff694fcaf6a023a07c5c1f32f21',
      pinVariable,
    }
  }
  return {
    dataset: 'swebench',
    file: 'SWE-bench.test.parquet',
    url: hubFileUrl('princeton-nlp/SWE-bench', 'e48e2bd1e9fecd5bbd641e9414ac59da9f2e69f6', path, env),
    sha256: 'db4f70ef735b3162c74801ddcdf8d7bae8d704193788c6d844f898c20b571cbb',
    pinVariable,
  }
}

export interface LoadOptions {
  /** Which SWE-bench; TESTBENCH_SWEBENCH_DATASET (Lite by default) when undefined. */
  dataset?: SwebenchDataset | undefined
  /** A local `.json` (array), `.jsonl` or `.parquet` file in SWE-bench's format, instead of `dataset`. */
  datasetFile?: string | undefined
  /** Only these instance ids, in this order; every id must exist. */
  instances?: string[] | undefined
  env?: NodeJS.ProcessEnv
}

export async function loadInstances(options: LoadOptions = {}): Promise<SwebenchInstance[]> {
  const env = options.env ?? process.env
  const path =
    options.datasetFile ?? (await datasetFilePath(datasetSpec(options.dataset ?? swebenchDataset(env), env), { env }))
  const rows = await readRows(path)
  const all = rows.map((row, index) => parseInstance(row, `${path} row ${index + 1}`))
  if (options.instances === undefined) return all
  const byId = new Map(all.map((instance) => [instance.instanceId, instance]))
  return options.instances.map((id) => {
    const instance = byId.get(id)
    if (instance === undefined) throw new Error(`TESTBENCH_SWEBENCH_INSTANCES names ${id}, which is not in ${path}.`)
    return instance
  })
}

function datasetSpec(dataset: SwebenchDataset, env: NodeJS.ProcessEnv): DatasetFile {
  return dataset === 'lite' ? SWEBENCH_LITE : swebenchHubFile(dataset, env)
}

async function readRows(path: string): Promise<unknown[]> {
  if (path.endsWith('.parquet')) return readParquet(path)
  if (/\.jsonl(\.gz)?$/.test(path)) return readJsonLines(path)
  const value = await readJson(path)
  if (!Array.isArray(value))
    throw new Error(`${path} should hold a JSON array of SWE-bench instances (or be a .jsonl or .parquet file).`)
  return value
}
