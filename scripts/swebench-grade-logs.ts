// node scripts/swebench-grade-logs.mjs <instance.json> <log>...: the SWE-bench suite's verdict on each evaluation log
// of one instance, as the suite reaches it after the container has run (suites/swebench/evaluation/evaluate.ts's judgeLog): one
// line per log, `<log>\t<status>`, then `grading ms\t<ms>` (the grading alone, start-up excluded). The .mjs beside it
// turns Node's compile cache on and loads this. bench:swebench runs it beside SWE-bench's own grading on the same
// logs. The instance's patch and test_patch may sit in patches/gold.diff and patches/test.diff beside instance.json
// (the fixture's layout).
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { judgeLog } from '../suites/swebench/evaluation/evaluate.ts'
import { parseInstance } from '../suites/swebench/instance.ts'
import { repoSpec } from '../suites/swebench/evaluation/repo-specs.ts'
import { refuseArguments } from './script-usage.ts'

const USAGE = `usage: node scripts/swebench-grade-logs.mjs <instance.json> <log>...
The SWE-bench suite's verdict on each evaluation log of the instance, one line per log.`
const [instanceFile, ...logs] = process.argv.slice(2)
if (instanceFile === undefined || logs.length === 0 || instanceFile.startsWith('-')) {
  refuseArguments(USAGE, [], process.argv.slice(2, 3))
  process.stderr.write(`${USAGE}\n`)
  process.exit(2)
}

const row = JSON.parse(readFileSync(instanceFile, 'utf8')) as Record<string, unknown>
const patches = join(dirname(instanceFile), 'patches')
for (const [field, file] of [
  ['patch', 'gold.diff'],
  ['test_patch', 'test.diff'],
] as const)
  if (row[field] === undefined && existsSync(join(patches, file)))
    row[field] = readFileSync(join(patches, file), 'utf8')
const instance = parseInstance(row, instanceFile)
const setup = { spec: instance.spec ?? repoSpec(instance.repo, instance.version), timeoutMs: 1_800_000 }

const started = performance.now()
const lines = logs.map((log) => `${log}\t${judgeLog(instance, setup, readFileSync(log, 'utf8'), 0, false, 0).status}`)
const gradingMs = performance.now() - started
process.stdout.write(`${lines.join('\n')}\ngrading ms\t${gradingMs.toFixed(3)}\n`)
