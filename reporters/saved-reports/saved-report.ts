import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ItemRecord } from '../../harness/records/item-record.ts'
import { isOutcome } from '../../adapters/outcome.ts'
import type { RunReport } from '../run-report.ts'

export class SavedReportError extends Error {
  override readonly name = 'SavedReportError'
}

/**
 * A JSON report the score reporter wrote (`<report dir>/<suite>/<run>__<model>.json`), read back
 * for the leaderboard and as a gate's baseline. Checks what those rely on: the benchmark, the
 * model, completeness and every item's id, sample and outcome.
 */
export function readSavedReport(file: string): RunReport {
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new SavedReportError(
      `${file} cannot be read as a JSON report (${reason}): give a .json file the score reporter wrote.`,
    )
  }
  const problem = reportProblem(parsed)
  if (problem) throw new SavedReportError(`${file} is not a report the score reporter wrote: ${problem}.`)
  return parsed as RunReport
}

/** Every saved JSON report of a suite, oldest first (file names start with the run's time). */
export function savedReportFiles(directory: string, suite: string): string[] {
  let names: string[]
  try {
    names = readdirSync(join(directory, suite))
  } catch {
    return []
  }
  return names
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => join(directory, suite, name))
}

/** The suites that have a folder of saved reports. */
export function savedSuites(directory: string): string[] {
  try {
    return readdirSync(directory, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort()
  } catch {
    return []
  }
}

function reportProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'it is not a JSON object'
  if (typeof value.benchmark !== 'string') return 'it has no "benchmark" name'
  if (!isObject(value.model) || typeof value.model.label !== 'string') return 'it has no "model.label"'
  if (typeof value.complete !== 'boolean') return 'it has no "complete" flag'
  if (!Array.isArray(value.items)) return 'it has no "items" list'
  for (const [index, item] of value.items.entries()) {
    const problem = itemProblem(item)
    if (problem) return `items[${index}] ${problem}`
  }
  return undefined
}

function itemProblem(item: unknown): string | undefined {
  if (!isObject(item)) return 'is not an object'
  const record = item as Partial<Record<keyof ItemRecord, unknown>>
  if (typeof record.itemId !== 'string') return 'has no "itemId"'
  if (typeof record.suite !== 'string') return 'has no "suite"'
  if (typeof record.sample !== 'number') return 'has no "sample" number'
  if (record.outcome !== undefined && !isOutcome(record.outcome))
    return `has the unknown outcome ${JSON.stringify(record.outcome)}`
  return undefined
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
