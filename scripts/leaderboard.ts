/**
 * Regenerates each suite's leaderboard from its saved reports:
 *   npx llm-testbench leaderboard [suite…]   (npm run leaderboard -- … in this repository)
 * writes <TESTBENCH_REPORT_DIR>/<suite>/LEADERBOARD.md (every suite with reports when none is named)
 * and prints it, and writes every one of them, with charts, to <TESTBENCH_REPORT_DIR>/leaderboard.html,
 * one file that opens from disk. TESTBENCH_PRICES adds each run's cost.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { reportDir } from '../harness/knobs.ts'
import {
  leaderboard,
  leaderboardMarkdown,
  type Leaderboard,
  type SavedRun,
} from '../reporters/leaderboard/leaderboard.ts'
import { leaderboardPage } from '../reporters/leaderboard/leaderboard-page.ts'
import { pricesFromEnv, PricesError } from '../harness/run-wide/prices.ts'
import {
  readSavedReport,
  savedReportFiles,
  savedSuites,
  SavedReportError,
} from '../reporters/saved-reports/saved-report.ts'
import { answerHelp } from './script-usage.ts'

const USAGE = `usage: llm-testbench leaderboard [suite…]   (npm run leaderboard -- … in this repository)
Writes each suite's LEADERBOARD.md from its saved reports in TESTBENCH_REPORT_DIR (every suite with reports
when none is named), prints it, and writes them all, with charts, to leaderboard.html. TESTBENCH_PRICES adds costs.`

const named = process.argv.slice(2)
answerHelp(USAGE, named)
const unknownFlag = named.find((arg) => arg.startsWith('-'))
if (unknownFlag !== undefined) {
  console.error(`unknown argument "${unknownFlag}".\n${USAGE}`)
  process.exit(2)
}
const directory = reportDir()
const suites = named.length > 0 ? named : savedSuites(directory)
if (suites.length === 0) {
  console.error(
    `No saved reports in ${directory}: run a suite first (MODEL=… npx vitest run suites/<name>), or set TESTBENCH_REPORT_DIR to where the reports are.`,
  )
  process.exit(1)
}
let prices
try {
  prices = pricesFromEnv()
} catch (error) {
  if (!(error instanceof PricesError)) throw error
  console.error(error.message)
  process.exit(1)
}
let failed = false
const boards: Leaderboard[] = []
for (const suite of suites) {
  const runs: SavedRun[] = []
  for (const file of savedReportFiles(directory, suite)) {
    try {
      runs.push({ file, report: readSavedReport(file) })
    } catch (error) {
      if (!(error instanceof SavedReportError)) throw error
      console.error(`skipped: ${error.message}`)
    }
  }
  if (runs.length === 0) {
    console.error(
      `No saved reports of ${suite} in ${join(directory, suite)}: run it first (MODEL=… npx vitest run suites/${suite}).`,
    )
    failed = true
    continue
  }
  const markdown = leaderboardMarkdown(suite, runs, prices)
  const file = join(directory, suite, 'LEADERBOARD.md')
  writeFileSync(file, markdown)
  console.log(`${markdown}\n→ ${file}\n`)
  boards.push(leaderboard(suite, runs, prices))
}
if (boards.length > 0) {
  const page = join(directory, 'leaderboard.html')
  writeFileSync(page, leaderboardPage(boards, new Date()))
  console.log(`→ ${page} (tables and charts, one file that opens from disk)`)
}
process.exitCode = failed ? 1 : 0
