import { NOT_THE_MODELS_FAULT } from '../adapters/outcome.ts'
import type { TestCase, TestModule } from 'vitest/node'
import type { ItemRecord } from '../harness/records/item-record.ts'

/** The record a benchmark test wrote in its meta, or undefined for a test that is not a benchmark item. */
export function recordOf(testCase: TestCase): ItemRecord | undefined {
  const record = testCase.meta().bench
  if (!record) return undefined
  const state = testCase.result().state
  // An item the run could not judge (provider_error, infra_error) ends skipped with its outcome recorded;
  // any other test that ended without a verdict (cancelled, killed mid-way) has no outcome to score.
  if (state === 'skipped' && record.outcome !== undefined && NOT_THE_MODELS_FAULT.has(record.outcome)) return record
  if (state === 'pending' || state === 'skipped') return { ...record, outcome: undefined }
  return record
}

export function collectRecords(testModules: ReadonlyArray<TestModule>): ItemRecord[] {
  const records: ItemRecord[] = []
  for (const testModule of testModules) {
    for (const testCase of testModule.children.allTests()) {
      const record = recordOf(testCase)
      if (record) records.push(record)
    }
  }
  return records
}
