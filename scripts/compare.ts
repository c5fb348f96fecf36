/**
 * Compares two saved reports of one suite:
 *   npx llm-testbench compare <a.json> <b.json> [--json]   (npm run compare -- … in this repository)
 * prints the comparison in Markdown (or as JSON with --json): scores with their 95% intervals and
 * B − A, the exact McNemar test on the paired items and both flip lists, per-group pass rates,
 * outcomes, and the items one report lacks. Exits 0 whatever the difference: the gate decides.
 * TESTBENCH_PRICES adds each run's cost.
 */
import { compareReports, comparisonMarkdown, CompareError } from '../reporters/saved-reports/compare.ts'
import { pricesFromEnv, PricesError } from '../harness/run-wide/prices.ts'
import { readSavedReport, SavedReportError } from '../reporters/saved-reports/saved-report.ts'
import { answerHelp } from './script-usage.ts'

const USAGE = `usage: llm-testbench compare <a.json> <b.json> [--json]   (npm run compare -- … in this repository)
Compares two saved JSON reports of one suite (from TESTBENCH_REPORT_DIR/<suite>/): scores with their 95 %
intervals, the paired McNemar test, both flip lists, outcomes; --json prints it as JSON. TESTBENCH_PRICES adds costs.`

const args = process.argv.slice(2)
answerHelp(USAGE, args)
const json = args.includes('--json')
const files = args.filter((arg) => arg !== '--json')
if (files.length !== 2 || files.some((file) => file.startsWith('-'))) {
  console.error(USAGE)
  process.exit(2)
}
const [fileA = '', fileB = ''] = files
try {
  const comparison = compareReports(
    { file: fileA, report: readSavedReport(fileA) },
    { file: fileB, report: readSavedReport(fileB) },
    pricesFromEnv(),
  )
  process.stdout.write(json ? `${JSON.stringify(comparison, null, 2)}\n` : comparisonMarkdown(comparison))
} catch (error) {
  if (!(error instanceof SavedReportError || error instanceof CompareError || error instanceof PricesError)) throw error
  console.error(error.message)
  process.exit(1)
}
