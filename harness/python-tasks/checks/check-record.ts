/**
 * The calls an upstream check makes on the canonical solution, recorded by the judge in a trusted step
 * and cached by the digest of the check (which the dataset's digest pins) and of the Python that
 * records and replays it: `<cache>/upstream-checks/`. A task's record is made the first time one of
 * its items runs.
 */
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomically } from '../../atomic-file.ts'
import { isRecord } from '../../datasets/dataset-file.ts'
import { cacheDir } from '../../knobs.ts'
import { recordCheck, type CheckRecord, type CheckSpec } from './check-judge.ts'

const SOURCES = [
  new URL('check_judge.py', import.meta.url),
  new URL('upstream_check.py', import.meta.url),
  new URL('../io/value_codec.py', import.meta.url),
]
const records = new Map<string, Promise<CheckRecord | { broken: string }>>()
let sources: Promise<string> | undefined

/** The record of `taskId`'s check, made (and cached) on first use. */
export function checkRecord(
  taskId: string,
  spec: CheckSpec,
  env: NodeJS.ProcessEnv = process.env,
): Promise<CheckRecord | { broken: string }> {
  const text = JSON.stringify(spec)
  let pending = records.get(text)
  if (pending === undefined) {
    pending = loadOrMake(taskId, spec, text, env)
    records.set(text, pending)
    pending.catch(() => records.delete(text))
  }
  return pending
}

async function loadOrMake(
  taskId: string,
  spec: CheckSpec,
  text: string,
  env: NodeJS.ProcessEnv,
): Promise<CheckRecord | { broken: string }> {
  sources ??= sourcesDigest()
  const digest = createHash('sha256')
    .update(text)
    .update(await sources)
    .digest('hex')
    .slice(0, 24)
  const path = join(cacheDir(env), 'upstream-checks', `${taskId.replace(/\W+/g, '_')}-${digest}.json`)
  const cached = await readRecord(path)
  if (cached !== undefined) return cached
  const made = await recordCheck(spec)
  // Not cached: it may be this machine's state (a run under heavy load), not the check's.
  if ('died' in made) return { broken: `recording ${taskId}'s check on the canonical solution failed: ${made.died}` }
  await writeFileAtomically(path, JSON.stringify(made))
  return made
}

async function readRecord(path: string): Promise<CheckRecord | undefined> {
  try {
    const value: unknown = JSON.parse(await readFile(path, 'utf8'))
    if (!isRecord(value)) return undefined
    if (typeof value.inProcess === 'string' && Array.isArray(value.statements))
      return { inProcess: value.inProcess, statements: value.statements.map(String) }
    const { calls, functions, refs, cpuMs } = value
    if (typeof calls === 'string' && Array.isArray(functions) && Array.isArray(refs) && typeof cpuMs === 'number') {
      return { calls, functions: functions.map(String), refs: refs.map(String), cpuMs }
    }
    return undefined
  } catch {
    return undefined
  }
}

async function sourcesDigest(): Promise<string> {
  const hash = createHash('sha256')
  for (const source of SOURCES) hash.update(await readFile(source))
  return hash.digest('hex')
}
