/** One SWE-bench task instance, as the dataset gives it (the two test lists decoded from their JSON strings). */
import { isRecord, stringField, type JsonRecord } from '../../harness/datasets/dataset-file.ts'
import { LOG_PARSERS, type LogParserName } from './evaluation/log-parsers.ts'
import type { RepoSpec } from './evaluation/repo-specs.ts'

export interface SwebenchInstance {
  instanceId: string
  /** `owner/name` on GitHub, e.g. `django/django`. */
  repo: string
  baseCommit: string
  /** The gold patch (non-test files). */
  patch: string
  /** The tests added by the fix, applied before the tests run. */
  testPatch: string
  problemStatement: string
  hintsText: string
  /** Selects the test command in the repository's spec. */
  version: string
  failToPass: string[]
  passToPass: string[]
  /**
   * How to run the tests, for instances of repositories SWE-bench does not cover: from the
   * row's own `test_cmd` and `log_parser` fields (and `install`, optional). Undefined for
   * SWE-bench's rows, whose repository's spec applies.
   */
  spec?: RepoSpec
}

/** A dataset row (SWE-bench's field names) as an instance; errors name the row. */
export function parseInstance(row: unknown, where: string): SwebenchInstance {
  if (!isRecord(row)) throw new Error(`${where} is not a JSON object.`)
  return {
    instanceId: stringField(row, 'instance_id', where),
    repo: stringField(row, 'repo', where),
    baseCommit: stringField(row, 'base_commit', where),
    patch: stringField(row, 'patch', where),
    testPatch: stringField(row, 'test_patch', where),
    problemStatement: stringField(row, 'problem_statement', where),
    hintsText: typeof row.hints_text === 'string' ? row.hints_text : '',
    version: stringField(row, 'version', where),
    failToPass: testList(row, 'FAIL_TO_PASS', where),
    passToPass: testList(row, 'PASS_TO_PASS', where),
    ...ownSpec(row, where),
  }
}

function ownSpec(row: JsonRecord, where: string): { spec?: RepoSpec } {
  if (row.test_cmd === undefined && row.log_parser === undefined) return {}
  const testCommand = stringField(row, 'test_cmd', where)
  const parser = stringField(row, 'log_parser', where)
  if (!(parser in LOG_PARSERS))
    throw new Error(`${where}: log_parser "${parser}" is not one of ${Object.keys(LOG_PARSERS).join(', ')}.`)
  const install = typeof row.install === 'string' ? { install: row.install } : {}
  return { spec: { testCommand, parser: parser as LogParserName, ...install } }
}

/** The test lists are JSON-encoded strings on the hub; some exports decode them into lists. */
function testList(row: JsonRecord, name: string, where: string): string[] {
  const raw = row[name]
  let value: unknown = raw
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw)
    } catch {
      throw new Error(`${where}: field "${name}" should hold a JSON list of test ids, found ${raw.slice(0, 60)}.`)
    }
  }
  if (!Array.isArray(value) || !value.every((entry) => typeof entry === 'string')) {
    throw new Error(`${where}: field "${name}" should be a list of test ids.`)
  }
  return value
}
