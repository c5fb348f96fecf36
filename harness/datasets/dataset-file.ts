/**
 * Dataset files: read from TESTBENCH_DATA_DIR when it is set, else from the
 * download cache, fetching the pinned public file on first use. Every file is
 * checked against its pinned sha256 before it is read (once per version of the file:
 * harness/datasets/verified-dataset-stamp.ts); a file the project has
 * not pinned yet is pinned by the user (`pinVariable`), and until then it is
 * refused with its actual sha256.
 */
import { createHash, randomBytes } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { Readable, Transform } from 'node:stream'
import type { ReadableStream as NodeReadableStream } from 'node:stream/web'
import { pipeline } from 'node:stream/promises'
import { gunzipSync } from 'node:zlib'
import { cacheDir, dataDir } from '../knobs.ts'
import { fileIdentity, stampVerified, verifiedBefore } from './verified-dataset-stamp.ts'

/** A public dataset file, pinned by content. */
export interface DatasetFile {
  /** The folder under the data directory: `humaneval`, `mbppplus`… */
  dataset: string
  /** The file's name in that folder: `HumanEval.jsonl.gz`. */
  file: string
  /** Where it is downloaded from when there is no data directory. */
  url: string
  /** Undefined where the project has not pinned the file yet: then the user pins it with `pinVariable`. */
  sha256: string | undefined
  /** The environment variable that pins the file's sha256 where the project has not (`TESTBENCH_SWEBENCH_SHA256`). */
  pinVariable?: string
}

export interface ResolveOptions {
  env?: NodeJS.ProcessEnv
  /** Where progress lines go; stderr by default. */
  progress?: (line: string) => void
}

/** A dataset file that is missing or is not the pinned one. */
export class DatasetFileError extends Error {
  override readonly name: string = 'DatasetFileError'
}

/** A dataset file that cannot be had here: not in TESTBENCH_DATA_DIR, or not downloadable (offline). */
export class DatasetUnavailableError extends DatasetFileError {
  override readonly name = 'DatasetUnavailableError'

  readonly spec: DatasetFile
  /** Why, in a few words: `not in TESTBENCH_DATA_DIR=…`, `could not download it: ENOTFOUND …`. */
  readonly why: string

  constructor(message: string, spec: DatasetFile, why: string) {
    super(message)
    this.spec = spec
    this.why = why
  }
}

const verified = new Map<string, Promise<void>>()

/** The local path of a dataset file, downloaded and verified if need be. */
export async function datasetFilePath(spec: DatasetFile, options: ResolveOptions = {}): Promise<string> {
  const env = options.env ?? process.env
  const expected = expectedSha256(spec, env)
  const fromDataDir = dataDir(env)
  if (fromDataDir !== undefined) {
    const path = join(fromDataDir, spec.dataset, spec.file)
    if (!(await exists(path))) {
      throw new DatasetUnavailableError(
        `${spec.dataset}/${spec.file} is not in TESTBENCH_DATA_DIR=${fromDataDir} (looked for ${path}). ` +
          `Put the file there (public source: ${spec.url}), or unset TESTBENCH_DATA_DIR to download it.`,
        spec,
        `not in TESTBENCH_DATA_DIR=${fromDataDir}`,
      )
    }
    await verifyOnce(path, spec, expected, 'in TESTBENCH_DATA_DIR', cacheDir(env))
    return path
  }
  const path = join(cacheDir(env), 'datasets', spec.dataset, spec.file)
  if (await exists(path)) {
    await verifyOnce(path, spec, expected, 'in the download cache (delete it to download it again)', cacheDir(env))
    return path
  }
  await download(spec, expected, path, options.progress ?? ((line) => process.stderr.write(`${line}\n`)))
  return path
}

/** The project's pin, else the user's (`spec.pinVariable`); undefined when neither has pinned the file. */
export function expectedSha256(spec: DatasetFile, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const variable = spec.pinVariable
  const raw = variable === undefined ? undefined : env[variable]?.trim()
  if (raw === undefined || raw === '') return spec.sha256
  const pinned = raw.toLowerCase()
  if (!/^[0-9a-f]{64}$/.test(pinned))
    throw new DatasetFileError(
      `${variable}=${raw} is not a sha256: write the 64 hex digits of ${spec.dataset}/${spec.file}'s hash.`,
    )
  if (spec.sha256 !== undefined && spec.sha256 !== pinned) {
    throw new DatasetFileError(
      `${variable}=${pinned}, but the project already pins ${spec.dataset}/${spec.file} (${spec.url}) to sha256 ${spec.sha256}. ` +
        `Unset ${variable}: it is for the files the project has not pinned.`,
    )
  }
  return pinned
}

/** The rows of a `.jsonl` or `.jsonl.gz` dataset file. */
export async function readDatasetJsonLines(spec: DatasetFile, options: ResolveOptions = {}): Promise<JsonRecord[]> {
  return readJsonLines(await datasetFilePath(spec, options))
}

/** The parsed content of a `.json` dataset file. */
export async function readDatasetJson(spec: DatasetFile, options: ResolveOptions = {}): Promise<unknown> {
  return readJson(await datasetFilePath(spec, options))
}

export type JsonRecord = Record<string, unknown>

/** One JSON object per non-empty line; gunzipped first when the name ends in `.gz`. */
export async function readJsonLines(path: string): Promise<JsonRecord[]> {
  const lines = (await readText(path)).split('\n')
  const rows: JsonRecord[] = []
  lines.forEach((line, index) => {
    if (line.trim() === '') return
    let value: unknown
    try {
      value = parsePythonJson(line)
    } catch (error) {
      throw new Error(
        `${path}:${index + 1} is not valid JSON (${error instanceof Error ? error.message : String(error)}).`,
      )
    }
    if (!isRecord(value)) throw new Error(`${path}:${index + 1} is not a JSON object.`)
    rows.push(value)
  })
  return rows
}

export async function readJson(path: string): Promise<unknown> {
  try {
    return parsePythonJson(await readText(path))
  } catch (error) {
    if (error instanceof SyntaxError) throw new Error(`${path} is not valid JSON (${error.message}).`)
    throw error
  }
}

/**
 * JSON as Python's `json.dumps` writes it, which allows `NaN`, `Infinity` and
 * `-Infinity` (EvalPlus inputs have them): they are read as those numbers.
 */
export function parsePythonJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    if (!/NaN|Infinity/.test(text)) throw error
  }
  // Outside strings, write each constant as a tagged string, then turn the tags back into numbers.
  const tag = '\u0000python-json:'
  const constants = new Map([
    [`${tag}NaN`, Number.NaN],
    [`${tag}Infinity`, Number.POSITIVE_INFINITY],
    [`${tag}-Infinity`, Number.NEGATIVE_INFINITY],
  ])
  let rewritten = ''
  let inString = false
  for (let index = 0; index < text.length; index++) {
    const char = text[index] ?? ''
    if (inString) {
      rewritten += char
      if (char === '\\') rewritten += text[++index] ?? ''
      else if (char === '"') inString = false
      continue
    }
    const constant =
      char === '"' ? undefined : ['-Infinity', 'Infinity', 'NaN'].find((name) => text.startsWith(name, index))
    if (constant === undefined) {
      inString = char === '"'
      rewritten += char
    } else {
      rewritten += JSON.stringify(`${tag}${constant}`)
      index += constant.length - 1
    }
  }
  return JSON.parse(rewritten, (_key, value: unknown) =>
    typeof value === 'string' ? (constants.get(value) ?? value) : value,
  )
}

/** A field of a dataset row that must be a string; the error names the file and row. */
export function stringField(row: JsonRecord, name: string, where: string): string {
  const value = row[name]
  if (typeof value !== 'string')
    throw new Error(`${where}: field "${name}" should be a string, found ${describe(value)}.`)
  return value
}

export function stringListField(row: JsonRecord, name: string, where: string): string[] {
  const value = row[name]
  if (!Array.isArray(value) || !value.every((entry) => typeof entry === 'string')) {
    throw new Error(`${where}: field "${name}" should be a list of strings, found ${describe(value)}.`)
  }
  return value
}

export function numberField(row: JsonRecord, name: string, where: string): number {
  const value = row[name]
  if (typeof value !== 'number')
    throw new Error(`${where}: field "${name}" should be a number, found ${describe(value)}.`)
  return value
}

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

async function readText(path: string): Promise<string> {
  const bytes = await readFile(path)
  return (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8')
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (value === null) return 'null'
  return Array.isArray(value) ? 'a list' : `a ${typeof value}`
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile()
  } catch {
    return false
  }
}

/** Hashes the file once per process, and not at all where this version of it matched before (`stamps` under the cache dir). */
function verifyOnce(
  path: string,
  spec: DatasetFile,
  expected: string | undefined,
  where: string,
  stamps: string,
): Promise<void> {
  const key = `${path}\0${expected}`
  let check = verified.get(key)
  if (check === undefined) {
    check = (async () => {
      if (expected !== undefined && (await verifiedBefore(stamps, path, expected))) return
      const identity = await fileIdentity(path)
      const actual = await sha256OfFile(path)
      if (expected === undefined) throw unpinned(spec, actual, `The file ${where} (${path})`)
      if (actual !== expected) {
        throw new DatasetFileError(
          `${spec.dataset}/${spec.file} ${where} (${path}) has sha256 ${actual}, but ${expected} is expected: ` +
            `it is another version of the file or a damaged copy. Replace it with the file from ${spec.url}.`,
        )
      }
      await stampVerified(stamps, path, identity, expected)
    })()
    check.catch(() => verified.delete(key))
    verified.set(key, check)
  }
  return check
}

function unpinned(spec: DatasetFile, actual: string, what: string): DatasetFileError {
  const pin = spec.pinVariable === undefined ? 'pin it in the project' : `pin it with ${spec.pinVariable}=${actual}`
  return new DatasetFileError(
    `${spec.dataset}/${spec.file} (${spec.url}) has no sha256 pinned in this project yet, so it cannot be verified. ` +
      `${what} has sha256 ${actual}. Check that hash against the source (a Hugging Face file page shows it as the LFS "SHA256"), then ${pin}.`,
  )
}

async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256')
  await pipeline(createReadStream(path), hash)
  return hash.digest('hex')
}

async function download(
  spec: DatasetFile,
  expected: string | undefined,
  path: string,
  progress: (line: string) => void,
): Promise<void> {
  const name = `${spec.dataset}/${spec.file}`
  let response: Response
  try {
    response = await fetch(spec.url)
  } catch (error) {
    throw new DatasetUnavailableError(
      `Could not download ${name} from ${spec.url} (${networkReason(error)}). ` +
        `If this machine is offline, set TESTBENCH_DATA_DIR to a directory that holds ${name} ` +
        `(the layout <dir>/<dataset>/<file>, as in ../shared/datasets).`,
      spec,
      `could not download it: ${networkReason(error)}`,
    )
  }
  if (!response.ok || response.body === null) {
    throw new DatasetFileError(
      `Downloading ${name} from ${spec.url} failed: HTTP ${response.status} ${response.statusText}. ` +
        `Check the address, or set TESTBENCH_DATA_DIR to a directory that holds ${name}.`,
    )
  }
  const total = Number(response.headers.get('content-length') ?? 0)
  await mkdir(dirname(path), { recursive: true })
  const partial = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.part`
  const hash = createHash('sha256')
  let received = 0
  let lastReport = 0
  progress(`Downloading ${name} from ${spec.url}${total > 0 ? ` (${kilobytes(total)})` : ''}…`)
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk)
      received += chunk.length
      const now = Date.now()
      if (total > 0 && now - lastReport > 1000) {
        lastReport = now
        progress(`  ${name}: ${Math.floor((100 * received) / total)}% (${kilobytes(received)} of ${kilobytes(total)})`)
      }
      done(null, chunk)
    },
  })
  try {
    await pipeline(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>), meter, createWriteStream(partial))
    const actual = hash.digest('hex')
    if (expected === undefined) throw unpinned(spec, actual, 'The downloaded file (discarded, not cached)')
    if (actual !== expected) {
      throw new DatasetFileError(
        `${name} downloaded from ${spec.url} has sha256 ${actual}, but ${expected} is expected; ` +
          `the download was discarded. The file at that address has changed or the download was damaged: ` +
          `try again, or set TESTBENCH_DATA_DIR to a directory with a verified copy.`,
      )
    }
    await rename(partial, path)
  } catch (error) {
    await rm(partial, { force: true })
    if (error instanceof DatasetFileError) throw error
    throw new DatasetFileError(
      `Downloading ${name} from ${spec.url} broke off after ${kilobytes(received)}: ${networkReason(error)}. Try again.`,
    )
  }
  progress(`  ${name}: done (${kilobytes(received)}, sha256 verified), saved to ${path}`)
  verified.set(`${path}\0${expected}`, Promise.resolve())
}

function networkReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause: unknown = error.cause
  if (cause instanceof Error)
    return `${error.message}: ${'code' in cause ? `${String(cause.code)} ` : ''}${cause.message}`
  return error.message
}

function kilobytes(bytes: number): string {
  return bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : `${(bytes / 1000).toFixed(1)} kB`
}
