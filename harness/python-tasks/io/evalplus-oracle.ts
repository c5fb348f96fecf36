/**
 * The answer key of an EvalPlus task set, made in a trusted step and cached by
 * dataset digest: the inputs read from the native file (evalplus_tasks.py), and
 * the canonical solution's outputs and CPU time per input, from a run of each
 * canonical program through the same driver the candidates go through. Only the
 * judge reads the expected outputs; the candidates get the inputs and their limits.
 */
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdir, readFile, rm, stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { HostToolchain } from '../../../adapters/sandbox/host-toolchain.ts'
import { writeFileAtomically } from '../../atomic-file.ts'
import { datasetFilePath, isRecord, type DatasetFile } from '../../dataset-file.ts'
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

export interface Oracle {
  /** The cache file the judge reads the expected outputs from. */
  path: string
  tasks: ReadonlyMap<string, OracleTask>
  /** Tasks whose canonical solution did not return on every input, with why. */
  broken: ReadonlyMap<string, string>
}

/** The canonical run's limits: generous, since a canonical solution is trusted to end (MBPP+/599 takes seconds per input). */
const CANONICAL_LIMITS = { setupCpuSeconds: 60, totalCpuSeconds: 900 }
const CANONICAL_INPUT_CPU_SECONDS = 120
/** MBPP+ tasks whose expected output is only whether the canonical output is None (EvalPlus's MBPP_OUTPUT_NOT_NONE_TASKS). */
export const NOT_NONE_ENTRY_POINTS: ReadonlySet<string> = new Set(['check_str', 'text_match_three', 'text_starta_endb'])

const loading = new Map<string, Promise<Oracle>>()

export function loadOracle(source: OracleSource, memoryBytes: number, env: NodeJS.ProcessEnv = process.env): Promise<Oracle> {
  const key = `${source.file.dataset}/${source.file.file}`
  let pending = loading.get(key)
  if (pending === undefined) {
    pending = loadOrBuild(source, memoryBytes, env)
    loading.set(key, pending)
    pending.catch(() => loading.delete(key))
  }
  return pending
}

async function loadOrBuild(source: OracleSource, memoryBytes: number, env: NodeJS.ProcessEnv): Promise<Oracle> {
  const datasetPath = await datasetFilePath(source.file, { env })
  const digest = createHash('sha256')
    .update(await readFile(datasetPath))
    .update(await sourcesDigest())
    .digest('hex')
    .slice(0, 20)
  const path = join(cacheDir(env), 'evalplus-oracles', `${source.file.dataset}-${source.file.file.replace(/\W+/g, '_')}-${digest}.json`)
  const cached = await readOracle(path)
  if (cached !== undefined) return cached
  return withLock(`${path}.lock`, async () => {
    const again = await readOracle(path)
    if (again !== undefined) return again
    const built = await buildOracle(source, datasetPath, memoryBytes)
    await writeFileAtomically(path, JSON.stringify(built))
    return toOracle(path, built)
  })
}

interface StoredTask extends OracleTask {
  /** The canonical run's result lines as a JSON list (values kept as text: they may hold big ints). */
  expected: string
}

interface StoredOracle {
  tasks: Record<string, StoredTask>
  broken: Record<string, string>
}

async function buildOracle(source: OracleSource, datasetPath: string, memoryBytes: number): Promise<StoredOracle> {
  const python = new HostToolchain().resolve('python')
  if ('missing' in python) throw new Error(`Cannot read ${datasetPath}: ${python.missing}.`)
  const script = new URL('evalplus_tasks.py', HERE).pathname
  const { stdout } = await run(python.path, ['-E', '-s', script, source.kind, datasetPath], { maxBuffer: 512 * 1024 * 1024, cwd: new URL('.', HERE).pathname })
  const rows = stdout.split('\n').filter((line) => line.trim() !== '').map((line) => taskRow(JSON.parse(line) as unknown, datasetPath))
  const tasks: Record<string, StoredTask> = {}
  const broken: Record<string, string> = {}
  await Promise.all(
    rows.map(async (row) => {
      const outcome = await runCanonical(row, source.kind, memoryBytes)
      if ('broken' in outcome) broken[row.id] = outcome.broken
      else tasks[row.id] = { entryPoint: row.entryPoint, atol: row.atol, nBase: row.nBase, inputs: row.inputs, ...outcome }
    }),
  )
  return { tasks, broken }
}

interface TaskRow {
  id: string
  entryPoint: string
  atol: number
  nBase: number
  canonical: string
  inputs: string
}

function taskRow(value: unknown, where: string): TaskRow {
  if (!isRecord(value)) throw new Error(`${where}: evalplus_tasks.py wrote something that is not a task.`)
  const { task_id, entry_point, atol, n_base, canonical, inputs } = value
  if (typeof task_id !== 'string' || typeof entry_point !== 'string' || typeof atol !== 'number' || typeof n_base !== 'number' || typeof canonical !== 'string' || typeof inputs !== 'string') {
    throw new Error(`${where}: evalplus_tasks.py wrote a task without task_id, entry_point, atol, n_base, canonical or inputs.`)
  }
  return { id: task_id, entryPoint: entry_point, atol, nBase: n_base, canonical, inputs }
}

async function runCanonical(row: TaskRow, kind: OracleKind, memoryBytes: number): Promise<{ expected: string; canonicalCpuMs: number[] } | { broken: string }> {
  const count = inputCount(row.inputs)
  const task = { entryPoint: row.entryPoint, inputs: row.inputs, cpuLimits: new Array<number>(count).fill(CANONICAL_INPUT_CPU_SECONDS), notNone: kind === 'mbpp' && NOT_NONE_ENTRY_POINTS.has(row.entryPoint) }
  const result = await runDriver(task, row.canonical, 'canonical', { memoryBytes, ...CANONICAL_LIMITS })
  const lines = result.stdout.text.split('\n').filter((line) => line.trim() !== '')
  const records = lines.map(parseLine)
  const perInput = lines.slice(1, 1 + count)
  const ok = records.slice(1, 1 + count).every((record, index) => isRecord(record) && record.i === index && record.s === 'ok')
  const done = records.at(-1)
  if (result.stdout.truncated || perInput.length !== count || !ok || !isRecord(done) || done.done !== count) {
    const said = lastLine(result.stderr.text).slice(0, 300)
    return { broken: `the canonical solution did not return on every input (${result.reason}${result.stdout.truncated ? '; its results were larger than the output limit' : ''}${said ? `; ${said}` : ''})` }
  }
  const canonicalCpuMs = records.slice(1, 1 + count).map((record) => (isRecord(record) && typeof record.cpu === 'number' ? record.cpu : 0))
  return { expected: `[${perInput.join(',')}]`, canonicalCpuMs }
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

async function readOracle(path: string): Promise<Oracle | undefined> {
  try {
    const value: unknown = JSON.parse(await readFile(path, 'utf8'))
    if (!isRecord(value) || !isRecord(value.tasks) || !isRecord(value.broken)) return undefined
    return toOracle(path, value as unknown as StoredOracle)
  } catch {
    return undefined
  }
}

function toOracle(path: string, stored: StoredOracle): Oracle {
  const tasks = new Map(Object.entries(stored.tasks).map(([id, task]) => [id, { entryPoint: task.entryPoint, atol: task.atol, nBase: task.nBase, inputs: task.inputs, canonicalCpuMs: task.canonicalCpuMs }]))
  return { path, tasks, broken: new Map(Object.entries(stored.broken)) }
}

/** One builder per cache file across Vitest's workers: the others wait for its file. A lock older than an hour is taken over. */
async function withLock<T>(lock: string, build: () => Promise<T>): Promise<T> {
  await mkdir(dirname(lock), { recursive: true })
  for (;;) {
    try {
      await mkdir(lock, { recursive: false })
      break
    } catch {
      const age = await stat(lock).then((info) => Date.now() - info.mtimeMs, () => 0)
      if (age > 3_600_000) await rm(lock, { recursive: true, force: true })
      else await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
  try {
    return await build()
  } finally {
    await rm(lock, { recursive: true, force: true })
  }
}

/** The Python that makes and reads the key: a change to it makes a new key. */
async function sourcesDigest(): Promise<string> {
  const hash = createHash('sha256')
  for (const name of ['evalplus_tasks.py', 'io_driver.py', 'value_codec.py']) hash.update(await readFile(new URL(name, HERE)))
  return hash.digest('hex')
}

function lastLine(text: string): string {
  return text.trimEnd().split('\n').at(-1) ?? ''
}
