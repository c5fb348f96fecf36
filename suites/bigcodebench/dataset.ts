/**
 * BigCodeBench (1140 tasks) and its Hard subset (148): v0.1.0 from pinned JSON files, later
 * releases (v0.1.4, the leaderboard's) from the parquet files on the Hugging Face hub, and the
 * mapping of their rows.
 */
import {
  isRecord,
  readDatasetJson,
  readDatasetJsonLines,
  stringField,
  type DatasetFile,
  type JsonRecord,
} from '../../harness/datasets/dataset-file.ts'
import { hubFileUrl, readDatasetParquet } from '../../harness/datasets/parquet-file.ts'
import type { BenchItem } from '../../harness/benchmark.ts'
import { fencedPython } from '../../harness/python-tasks/python-task.ts'
import { VERSION, type Subset } from './knobs.ts'
import { parsePythonStringList } from './python-literal.ts'

export const DEFAULT_VERSION = VERSION.defaultValue

/** The release this run uses, read once so that the records and the score name say the same version (a bad value is reported before any item). */
export const BIGCODEBENCH_VERSION = VERSION.raw() ?? DEFAULT_VERSION

export function bigCodeBenchVersion(env: NodeJS.ProcessEnv = process.env): string {
  return VERSION.read(env)
}

export { SUBSETS, type Subset } from './knobs.ts'

export const BIGCODEBENCH_FILES: Readonly<Record<Subset, DatasetFile>> = {
  full: {
    dataset: 'bigcodebench',
    file: 'BigCodeBench-hf-v0.1.0.jsonl.gz',
    url: 'https://raw.githubusercontent.com/bigcode-project/bigcodebench-annotation/a3b89850db670d7302571142b881e4f85eef18e3/hf_data/BigCodeBench.jsonl.gz',
    sha256: '58142744edaf6036387f8761701f1b353432b0ed33f2edec1de8a59e7431ef7a',
  },
  // A JSON object keyed by task id; its records are field for field those of the full file.
  hard: {
    dataset: 'bigcodebench',
    file: 'bigcodebench_hard-v0.1.0_hf.json',
    url: 'https://raw.githubusercontent.com/QwenLM/Qwen2.5-Coder/d5ead97fea36bca3744e1a4c49e882f6fa2f406a/qwencoder-eval/base/benchmarks/bigcodebench/data/bigcodebench_hard.json',
    sha256: '5e7a87ff1085eafb13b2d570277bcb53dba68201717b4fc987a3f2b86a23869c',
  },
}

/**
 * The hub's parquet releases: one split per version in `data/<version>-00000-of-00001.parquet`, read
 * at a commit that has v0.1.4. sha256 as found pinned in public code that downloads these files
 * (full: 2,362,110 bytes, 1140 rows; hard: 148 rows); other versions are pinned by the user.
 */
const HUB_RELEASES: Readonly<
  Record<Subset, { repo: string; revision: string; file: string; sha256: Readonly<Record<string, string>> }>
> = {
  full: {
    repo: 'bigcode/bigcodebench',
    revision: 'b74c0d0bf70d2c0bc459be537895cca163007f1a',
    file: 'BigCodeBench',
    sha256: { 'v0.1.4': 'd9a4965821c9507ebdfb551c288656b2d5fe553234f5183044333ca8a4018267' },
  },
  hard: {
    repo: 'bigcode/bigcodebench-hard',
    revision: '298d2cc7b96612e15e47313c3603ee124cee0c1f',
    file: 'BigCodeBench-Hard',
    sha256: { 'v0.1.4': '73a4270b43feb81abefad7bb1b592937c768ea45c3263bedc1cabd30a9a6ce79' },
  },
}

/** The file a subset's release is read from: the JSON files for v0.1.0, the hub's parquet after. */
export function bigCodeBenchFile(subset: Subset, version: string, env: NodeJS.ProcessEnv = process.env): DatasetFile {
  if (version === DEFAULT_VERSION) return BIGCODEBENCH_FILES[subset]
  const release = HUB_RELEASES[subset]
  return {
    dataset: 'bigcodebench',
    file: `${release.file}-${version}.parquet`,
    url: hubFileUrl(release.repo, release.revision, `data/${version}-00000-of-00001.parquet`, env),
    sha256: release.sha256[version],
    pinVariable: 'TESTBENCH_BIGCODEBENCH_SHA256',
  }
}

export interface BigCodeBenchTask extends BenchItem {
  /** `BigCodeBench/13`. */
  id: string
  /** The libraries it uses, so `-t pandas` finds the items that need pandas. */
  title: string
  /** Imports, constants, the signature and the docstring: what the Complete split continues. */
  completePrompt: string
  /** The task in words, ending with the code to start from: the Instruct split. */
  instructPrompt: string
  /** Imports and the signature without the docstring. */
  codePrompt: string
  /** The function body only. */
  canonicalSolution: string
  /** A unittest module with `class TestCases`. */
  test: string
  entryPoint: string
  libs: string[]
  /** The canonical program in a fenced block, as a chat model would answer. */
  reference: string
}

export async function loadBigCodeBench(
  subset: Subset,
  env: NodeJS.ProcessEnv = process.env,
  version: string = bigCodeBenchVersion(env),
): Promise<BigCodeBenchTask[]> {
  const file = bigCodeBenchFile(subset, version, env)
  const where = `${file.dataset}/${file.file}`
  if (version !== DEFAULT_VERSION) {
    const rows = await readDatasetParquet(file, { env })
    const tasks = rows.map((row, index) => bigCodeBenchTask(row, `${where} row ${index + 1}`))
    return tasks.sort((a, b) => taskNumber(a.id) - taskNumber(b.id))
  }
  if (subset === 'full') {
    const rows = await readDatasetJsonLines(file, { env })
    return rows.map((row, index) => bigCodeBenchTask(row, `${where} row ${index + 1}`))
  }
  const byId = await readDatasetJson(file, { env })
  if (!isRecord(byId)) throw new Error(`${where} should be a JSON object keyed by task id.`)
  const tasks = Object.entries(byId).map(([id, row]) => {
    if (!isRecord(row)) throw new Error(`${where}: the entry for ${id} is not an object.`)
    return bigCodeBenchTask(row, `${where} entry ${id}`)
  })
  return tasks.sort((a, b) => taskNumber(a.id) - taskNumber(b.id))
}

export function bigCodeBenchTask(row: JsonRecord, where: string): BigCodeBenchTask {
  const libsText = stringField(row, 'libs', where)
  let libs: string[]
  try {
    libs = parsePythonStringList(libsText)
  } catch (error) {
    throw new Error(`${where}: field "libs" is not a Python list of strings (${(error as Error).message})`)
  }
  const completePrompt = stringField(row, 'complete_prompt', where)
  const canonicalSolution = stringField(row, 'canonical_solution', where)
  return {
    id: stringField(row, 'task_id', where),
    title: [...libs].sort().join(' '),
    completePrompt,
    instructPrompt: stringField(row, 'instruct_prompt', where),
    codePrompt: stringField(row, 'code_prompt', where),
    canonicalSolution,
    test: stringField(row, 'test', where),
    entryPoint: stringField(row, 'entry_point', where),
    libs,
    reference: fencedPython(canonicalProgram({ completePrompt, canonicalSolution })),
  }
}

/** The canonical solution as a whole program, as the official harness builds it. */
export function canonicalProgram(task: Pick<BigCodeBenchTask, 'completePrompt' | 'canonicalSolution'>): string {
  return `${task.completePrompt}\n${task.canonicalSolution}`
}

/** 13 for `BigCodeBench/13`. */
export function taskNumber(id: string): number {
  return Number(/\/(\d+)$/.exec(id)?.[1] ?? Number.NaN)
}
