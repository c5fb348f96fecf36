/**
 * Prints the `-t` value that runs again exactly the items of a saved report that did not pass:
 *   npx vitest run suites/euler -t "$(npm run -s failed -- .testbench/reports/euler/<run>.json)"
 * `--outcome=wrong_answer,timeout` picks outcomes (default: every one but passed, and unfinished items).
 * The pattern goes to stdout, the count to stderr; no matching item is exit code 1.
 */
import { readSavedReport, SavedReportError } from '../reporters/saved-reports/saved-report.ts'
import {
  itemsWithOutcome,
  NOT_PASSED,
  parseOutcomes,
  rerunPattern,
  SELECTABLE,
} from '../reporters/saved-reports/failed-items.ts'
import { answerHelp } from './script-usage.ts'

const USAGE = `usage: llm-testbench failed <saved report .json> [--outcome=wrong_answer,timeout,…]   (npm run failed -- …)
Prints the -t pattern that runs the report's items with those outcomes again (default: all but passed):
  npx vitest run suites/<suite> -t "$(npx llm-testbench failed <report.json>)"`

const args = process.argv.slice(2)
answerHelp(USAGE, args)
const file = args.find((arg) => !arg.startsWith('-'))
const outcomeArg = args.find((arg) => arg.startsWith('--outcome='))
if (file === undefined || args.some((arg) => arg.startsWith('-') && !arg.startsWith('--outcome='))) {
  console.error(USAGE)
  process.exit(2)
}
const outcomes = outcomeArg === undefined ? NOT_PASSED : parseOutcomes(outcomeArg.slice('--outcome='.length))
if ('unknown' in outcomes) {
  console.error(`Unknown outcome(s) ${outcomes.unknown.join(', ')}: choose from ${SELECTABLE.join(', ')}.`)
  process.exit(2)
}
try {
  const report = readSavedReport(file)
  const items = itemsWithOutcome(report, outcomes)
  if (items.length === 0) {
    console.error(`No item of ${file} has the outcome ${outcomes.join(', ')}: nothing to run again.`)
    process.exit(1)
  }
  console.error(
    `${items.length} of ${report.items.length} item(s) of ${report.benchmark} · ${report.model.label} with outcome ${outcomes.join(', ')}`,
  )
  console.log(rerunPattern(items))
} catch (error) {
  if (!(error instanceof SavedReportError)) throw error
  console.error(error.message)
  process.exit(2)
}
