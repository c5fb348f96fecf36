/**
 * PE-Bench results that outlive a run: one JSON line per judged item in
 * `<report dir>/euler-results.jsonl`, appended as each item ends. A later run reuses them, so
 * `MODEL=ollama:*` over a large collection resumes where it stopped and does not run a
 * model × language twice (TESTBENCH_EULER_OVERWRITE=1 runs it again). Appending one line per
 * write is crash-safe: a run killed mid-write leaves at most a torn last line, which is skipped.
 */
import { existsSync, readFileSync } from 'node:fs'
import { appendFile, mkdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { ItemRecord } from '../../harness/records/item-record.ts'
import { isOutcome, NOT_THE_MODELS_FAULT } from '../../adapters/outcome.ts'
import type { Era, Mode } from './options.ts'
import type { ThinkSetting } from '../../adapters/models/model-adapter.ts'

/** What makes two runs of an item the same run. */
export interface ResultKey {
  model: string
  /** The provider's digest of the model, when it reports one: a re-pulled model is a new model. */
  digest: string
  language: string
  itemId: string
  sample: number
  era: Era
  answerInCode: boolean
  /** Absent: one-shot, as every result stored before tool mode existed. */
  mode?: Mode
  /** TESTBENCH_THINK; absent: the model's default. */
  think?: ThinkSetting
}

/** The judged item as the test recorded it; prompt and points are left out, they come from the data. */
export type StoredFields = Required<Pick<ItemRecord, 'outcome' | 'output' | 'extracted'>> &
  Pick<ItemRecord, 'reason' | 'reply' | 'reasoning' | 'tokens' | 'latencyMs' | 'trajectory' | 'conversationEnd'>

export interface StoredResult extends ResultKey {
  savedAt: string
  record: StoredFields
}

export function resultsFile(reportDir: string): string {
  return join(reportDir, 'euler-results.jsonl')
}

/** Models whose answers come from the data (`reference`, `replay:`) are checked afresh every run, never stored. */
export function isStoredProvider(provider: string): boolean {
  return provider !== 'reference' && provider !== 'replay'
}

export class ResultsFile {
  readonly path: string
  readonly #results = new Map<string, StoredResult>()

  constructor(path: string) {
    this.path = path
    if (!existsSync(path)) return
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      const result = parseLine(line)
      // A later line for the same key is a newer run of it.
      if (result) this.#results.set(keyOf(result), result)
    }
  }

  /** The stored result for this key, when it is one to reuse: the model's own doing, not a provider or infra failure. */
  reusable(key: ResultKey): StoredResult | undefined {
    const result = this.#results.get(keyOf(key))
    return result && !NOT_THE_MODELS_FAULT.has(result.record.outcome) ? result : undefined
  }

  async save(key: ResultKey, record: StoredFields): Promise<void> {
    const result: StoredResult = { ...key, savedAt: new Date().toISOString(), record }
    this.#results.set(keyOf(key), result)
    await mkdir(dirname(this.path), { recursive: true })
    // One write of one line with O_APPEND: concurrent items in this process never interleave.
    await appendFile(this.path, `${JSON.stringify(result)}\n`)
  }
}

function keyOf(key: ResultKey): string {
  const fields: unknown[] = [key.model, key.digest, key.language, key.itemId, key.sample, key.era, key.answerInCode]
  // Only when set, so that the keys of results stored before tool mode and the thinking switch still hold.
  if ((key.mode ?? 'oneshot') !== 'oneshot' || key.think !== undefined)
    fields.push(key.mode ?? 'oneshot', key.think ?? null)
  return JSON.stringify(fields)
}

function parseLine(line: string): StoredResult | undefined {
  if (line.trim() === '') return undefined
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    return undefined
  }
  if (typeof value !== 'object' || value === null) return undefined
  const result = value as Partial<StoredResult>
  const complete =
    typeof result.model === 'string' &&
    typeof result.digest === 'string' &&
    typeof result.language === 'string' &&
    typeof result.itemId === 'string' &&
    typeof result.sample === 'number' &&
    typeof result.era === 'string' &&
    typeof result.answerInCode === 'boolean' &&
    typeof result.record === 'object' &&
    result.record !== null &&
    isOutcome(result.record.outcome) &&
    typeof result.record.output === 'string' &&
    typeof result.record.extracted === 'string'
  return complete ? (result as StoredResult) : undefined
}
