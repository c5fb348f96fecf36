/**
 * The answer key of an EvalPlus task, made in a trusted step and cached by dataset
 * digest: the inputs read from the native file (evalplus_tasks.py, which executes
 * nothing), and the canonical solution's outputs and CPU time per input, from a run
 * of the canonical program through the same driver the candidates go through. A
 * task's key is made the first time one of its items runs, so a first run costs one
 * extra canonical run per task, never a timeout and a retry. Only the judge reads
 * the expected outputs; the candidate gets the inputs and its limits.
 */
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdir, readFile, rm, stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { HostToolchain } from '../../../adapters/sandbox/process/host-toolchain.ts'
import { writeFileAtomically } from '../../atomic-file.ts'
import { datasetFilePath, isRecord, type DatasetFile } from '../../datasets/dataset-file.ts'
import { cacheDir } from '../../knobs.ts'
import { runDriver } from './driver-run.ts'

const run = promisify(execFile)
const HERE = new URL('.', import.meta.url)

export type OracleKind = 'humaneval' | 'mbpp'

export interface OracleSource {
  kind: OracleKind
  file: DatasetFile
}

export interface OracleTask {
  entryPoint: string
  atol: number
  /** The first nBase inputs are the base inputs (the original benchmark's tests), the rest EvalPlus's. */
  nBase: number
  /** All inputs in value_codec's format. */
  inputs: string
  /** The canonical solution's CPU time per input, in ms, measured on this machine. */
  canonicalCpuMs: number[]
}

/** A task's key: where the judge reads it, or why it cannot be made. */
export type OracleEntry = { path: string; task: OracleTask } | { broken: string }

/** The canonical run's limits: generous, since a canonical solution is trusted to end (MBPP+/599 takes seconds per input). */
const CANONICAL_LIMITS = { setupCpuSeconds: 60, totalCpuSeconds: 900 }
const CANONICAL_INPUT_CPU_SECONDS = 120
/** MBPP+ tasks whose expected output is only whether the canonical output is None (EvalPlus's MBPP_OUTPUT_NOT_NONE_TASKS). */
export const NOT_NONE_ENTRY_POINTS: ReadonlySet<string> = new Set(['check_str', 'text_match_three', 'text_starta_endb'])

interface TaskRow {
  id: string
  entryPoint: string
  atol: number
  nBase: number
  canonical: string
  inputs: string
}

interface DatasetTasks {
  /** `<cache>/evalplus-oracles/<dataset file>-<digest of the file and of the Python that makes the key>`. */
  dir: string
  rows: ReadonlyMap<string, TaskRow>
}

const datasets = new Map<string, Promise<DatasetTasks>>()
const entries = new Map<string, Promise<OracleEntry>>()

/** The key of `taskId`, made (and cached) on first use. */
export function oracleEntry(
  source: OracleSource,
  taskId: string,
  memoryBytes: number,
  env: NodeJS.ProcessEnv = process.env,
): Promise<OracleEntry> {
  const key = `${source.file.dataset}/${source.file.file}\u0000${taskId}`
  let pending = entries.get(key)
  if (pending === undefined) {
    pending = datasetTasks(source, env).then((tasks) => loadOrBuild(source, tasks, taskId, memoryBytes))
    entries.set(key, pending)
    pending.catch(() => entries.delete(key))
  }
  return pending
}

function datasetTasks(source: OracleSource, env: NodeJS.ProcessEnv): Promise<DatasetTasks> {
  const key = `${source.file.dataset}/${source.file.file}`
  let pending = datasets.get(key)
  if (pending === undefined) {
    pending = readDatasetTasks(source, env)
    datasets.set(key, pending)
    pending.catch(() => datasets.delete(key))
  }
  return pending
}

async function readDatasetTasks(source: OracleSource, env: NodeJS.ProcessEnv): Promise<DatasetTasks> {
  const datasetPath = await datasetFilePath(source.file, { env })
  const digest = createHash('sha256')
    .update(await readFile(datasetPath))
    .update(await sourcesDigest())
    .digest('hex')
    .slice(0, 20)
  const dir = join(
    cacheDir(env),
    'evalplus-oracles',
    `${source.file.dataset}-${source.file.file.replace(/\W+/g, '_')}-${digest}`,
  )
  const python = new HostToolchain().resolve('python')
  if ('missing' in python) throw new Error(`Cannot read ${datasetPath} for the EvalPlus judge: ${python.missing}.`)
  const script = new URL('evalplus_tasks.py', HERE).pathname
  const { stdout } = await run(python.path, ['-B', '-E', '-s', script, source.kind, datasetPath], {
    maxBuffer: 512 * 1024 * 1024,
  })
  const rows = stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => taskRow(JSON.parse(line) as unknown, datasetPath))
  return { dir, rows: new Map(rows.map((row) => [row.id, row])) }
}

async function loadOrBuild(
  source: OracleSource,
  tasks: DatasetTasks,
  taskId: string,
  memoryBytes: number,
): Promise<OracleEntry> {
  const row = tasks.rows.get(taskId)
  if (row === undefined) return { broken: `${taskId} is not in ${source.file.dataset}/${source.file.file}` }
  const path = join(tasks.dir, `${taskId.replace(/\W+/g, '_')}.json`)
  const cached = await readEntry(path, row)
  if (cached !== undefined) return cached
  return withLock(`${path}.lock`, async () => {
    const again = await readEntry(path, row)
    if (again !== undefined) return again
    const built = await runCanonical(row, source.kind, memoryBytes)
    await writeFileAtomically(path, JSON.stringify(built))
    return entryOf(path, row, built)
  })
}

/** What the cache file holds: the canonical run's result lines as one JSON list (values kept as text: they may hold big ints). */
type Stored =
  | { entryPoint: string; atol: number; nBase: number; inputs: string; expected: string; canonicalCpuMs: number[] }
  | { broken: string }

async function runCanonical(row: TaskRow, kind: OracleKind, memoryBytes: number): Promise<Stored> {
  const count = inputCount(row.inputs)
  const task = {
    entryPoint: row.entryPoint,
    inputs: row.inputs,
    cpuLimits: new Array<number>(count).fill(CANONICAL_INPUT_CPU_SECONDS),
    notNone: kind === 'mbpp' && NOT_NONE_ENTRY_POINTS.has(row.entryPoint),
  }
  const result = await runDriver(task, row.canonical, 'canonical', { memoryBytes, ...CANONICAL_LIMITS })
  if (result.outcome === 'infra_error')
    throw new Error(`${row.id}: the canonical solution could not be run: ${result.reason}`)
  const lines = result.stdout.text.split('\n').filter((line) => line.trim() !== '' && line !== '{"driver":"started"}')
  const records = lines.map(parseLine)
  const perInput = records.slice(1, 1 + count)
  const complete =
    perInput.length === count &&
    perInput.every((record, index) => isRecord(record) && record.i === index && record.s === 'ok')
  const done = records.at(-1)
  if (result.stdout.truncated || !complete || !isRecord(done) || done.done !== count) {
    const failed = perInput.find((record) => isRecord(record) && record.s !== 'ok')
    const said =
      isRecord(failed) && typeof failed.e === 'string' ? failed.e : lastLine(result.stderr.text).slice(0, 300)
    return {
      broken: `the canonical solution did not return on every input (${result.reason}${result.stdout.truncated ? '; its results were larger than the output limit' : ''}${said ? `; ${said}` : ''})`,
    }
  }
  const canonicalCpuMs = perInput.map((record) => (isRecord(record) && typeof record.cpu === 'number' ? record.cpu : 0))
  return {
    entryPoint: row.entryPoint,
    atol: row.atol,
    nBase: row.nBase,
    inputs: row.inputs,
    expected: `[${lines.slice(1, 1 + count).join(',')}]`,
    canonicalCpuMs,
  }
}

async function readEntry(path: string, row: TaskRow): Promise<OracleEntry | undefined> {
  try {
    const value: unknown = JSON.parse(await readFile(path, 'utf8'))
    if (!isRecord(value)) return undefined
    if (typeof value.broken === 'string') return { broken: value.broken }
    if (!Array.isArray(value.canonicalCpuMs) || typeof value.expected !== 'string') return undefined
    return entryOf(path, row, value as unknown as Stored)
  } catch {
    return undefined
  }
}

function entryOf(path: string, row: TaskRow, stored: Stored): OracleEntry {
  if ('broken' in stored) return { broken: stored.broken }
  return {
    path,
    task: {
      entryPoint: row.entryPoint,
      atol: row.atol,
      nBase: row.nBase,
      inputs: row.inputs,
      canonicalCpuMs: stored.canonicalCpuMs,
    },
  }
}

function taskRow(value: unknown, where: string): TaskRow {
  if (!isRecord(value)) throw new Error(`${where}: evalplus_tasks.py wrote something that is not a task.`)
  const { task_id, entry_point, atol, n_base, canonical, inputs } = value
  if (
    typeof task_id !== 'string' ||
    typeof entry_point !== 'string' ||
    typeof atol !== 'number' ||
    typeof n_base !== 'number' ||
    typeof canonical !== 'string' ||
    typeof inputs !== 'string'
  ) {
    throw new Error(
      `${where}: evalplus_tasks.py wrote a task without task_id, entry_point, atol, n_base, canonical or inputs.`,
    )
  }
  return { id: task_id, entryPoint: entry_point, atol, nBase: n_base, canonical, inputs }
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line) as unknown
  } catch {
    return undefined
  }
}

/** How many argument lists a value_codec list holds, without parsing its values (JavaScript would round big ints). */
export function inputCount(inputs: string): number {
  let depth = 0
  let count = 0
  let inString = false
  for (let index = 0; index < inputs.length; index++) {
    const char = inputs[index]
    if (inString) {
      if (char === '\\') index++
      else if (char === '"') inString = false
      continue
    }
    if (char === '"') inString = true
    else if (char === '[' || char === '{') {
      if (depth === 1) count++
      depth++
    } else if (char === ']' || char === '}') depth--
  }
  return count
}

/** The Python that makes and reads the key: a change to it makes a new key. */
async function sourcesDigest(): Promise<string> {
  const hash = createHash('sha256')
  for (const name of ['evalplus_tasks.py', 'io_driver.py', 'value_codec.py'])
    hash.update(await readFile(new URL(name, HERE)))
  return hash.digest('hex')
}

/** One builder per cache file across Vitest's workers: the others wait for its file. A lock older than an hour is taken over. */
async function withLock<T>(lock: string, build: () => Promise<T>): Promise<T> {
  await mkdir(dirname(lock), { recursive: true })
  for (;;) {
    try {
      await mkdir(lock)
      break
    } catch {
      const age = await stat(lock).then(
        (info) => Date.now() - info.mtimeMs,
        () => 0,
      )
      if (age > 3_600_000) await rm(lock, { recursive: true, force: true })
      else await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
  try {
    return await build()
  } finally {
    await rm(lock, { recursive: true, force: true })
  }
}

function lastLine(text: string): string {
  return text.trimEnd().split('\n').at(-1) ?? ''
}
