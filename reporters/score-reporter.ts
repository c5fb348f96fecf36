import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { writeFileAtomicallySync } from '../harness/atomic-file.ts'
import type { Reporter, SerializedError, TestCase, TestModule, TestRunEndReason, Vitest } from 'vitest/node'
import type { ItemRecord } from '../harness/records/item-record.ts'
import { reportDir } from '../harness/knobs.ts'
import { groupBy } from '../harness/group-by.ts'
import { collectRecords, recordOf } from './collect-records.ts'
import { appendJobSummary } from './job-summary.ts'
import { markdownTable, rowsByModel } from './markdown-table.ts'
import { buildRunReport, summaryText, type RunReport, type Shard } from './run-report.ts'
import { rawTestNamePattern } from './item-name-pattern.ts'
import { partialKey, partialRuns, type PartialRun, type RunSelection } from './run-coverage.ts'
import { resultsTableFor, scorerFor, suiteFilesFor } from './scorers.ts'
import { withIntervals } from './statistics/score-interval.ts'
import { tagOutcome } from './outcome-tags.ts'
import { showScoresInItems } from './scores-in-items.ts'
import { pricesFromEnv, type Prices } from '../harness/run-wide/prices.ts'
import { NOT_THE_MODELS_FAULT } from '../adapters/outcome.ts'
import { cutOffAdvice } from '../harness/cut-off-replies.ts'
import { runWidePaces } from '../harness/run-wide/run-slots.ts'
import { runLedgerState } from '../harness/run-wide/run-budget.ts'
import { noneSent, spentText } from '../harness/run-wide/cost-budget.ts'
import { waitsText } from '../adapters/models/requests/endpoint-pace.ts'

export interface ScoreReporterOptions {
  /** Where reports go. Default: TESTBENCH_REPORT_DIR, else `.testbench/reports`. */
  directory?: string
  /** Print the scores and results tables after the run. Default: true. */
  print?: boolean
  /** Token prices for each run's cost. Default: the file TESTBENCH_PRICES names, if any. */
  prices?: Prices
}

/**
 * Turns the items' records into each benchmark's scores, prints them, and
 * writes per suite and model a JSON report, a JSONL file (one line per item,
 * appended as items finish, so a crash keeps what finished) and a text summary.
 * On GitHub Actions the scores tables also go to the job summary. In one shard
 * of a split run the reports are marked as that shard's. The Vitest UI and the
 * html report show the same: each item is tagged with its outcome as it finishes,
 * and carries its suite's scores when the run ends.
 */
export class ScoreReporter implements Reporter {
  private readonly directory: string
  private readonly print: boolean
  private stamp = runStamp()
  private shard: Shard | undefined
  private selection: RunSelection = {}
  private readonly partial = new Map<string, ItemRecord[]>()
  private prices: Prices | undefined
  /** When each report's JSON was last brought up to date during the run (performance.now). */
  private readonly snapshotAt = new Map<string, number>()
  /** Each report's JSONL, open for appending while the run lasts: not opened and closed again for every item. */
  private readonly jsonl = new Map<string, number>()

  constructor(options: ScoreReporterOptions = {}) {
    this.directory = options.directory ?? reportDir()
    this.print = options.print ?? true
    this.prices = options.prices
  }

  onInit(vitest: Vitest): void {
    // Read here, after the plugin's settings check has stopped a run whose prices file is bad.
    this.prices ??= pricesFromEnv()
    this.shard = vitest.config.shard
    const pattern = vitest.config.testNamePattern
    const filter = pattern ? (rawTestNamePattern(process.argv) ?? pattern.source) : undefined
    this.selection = { ...(filter !== undefined ? { filter } : {}), ...(this.shard ? { shard: this.shard } : {}) }
    // A run stopped by a signal (Ctrl-C without a terminal, a CI timeout) exits without onTestRunEnd.
    process.once('exit', () => this.writeUnfinishedReports())
  }

  /** In watch mode (`vitest --ui`) each rerun is a run of its own. */
  onTestRunStart(): void {
    this.stamp = runStamp()
    this.partial.clear()
    this.snapshotAt.clear()
    this.closeJsonl()
  }

  onTestCaseResult(testCase: TestCase): void {
    const record = recordOf(testCase)
    if (!record) return
    tagOutcome(testCase, record)
    const base = this.basePath(record)
    const finished = this.partial.get(base)
    if (finished === undefined) {
      mkdirSync(join(this.directory, record.suite), { recursive: true })
      this.partial.set(base, [record])
    } else finished.push(record)
    let jsonl = this.jsonl.get(base)
    if (jsonl === undefined) {
      jsonl = openSync(`${base}.jsonl`, 'a')
      this.jsonl.set(base, jsonl)
    }
    writeSync(jsonl, `${JSON.stringify(record)}\n`)
    // The JSONL has every finished item; the JSON report is brought up to date now and then (and at exit),
    // by the clock rather than every so many items, which would cost a run of n items n² / 25 records written.
    const now = performance.now()
    if (now - (this.snapshotAt.get(base) ?? -Infinity) < SNAPSHOT_INTERVAL_MS) return
    this.snapshotAt.set(base, now)
    this.writeReport(base, this.partial.get(base) ?? [record], false)
  }

  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    _errors: ReadonlyArray<SerializedError>,
    reason: TestRunEndReason,
  ): void {
    this.closeJsonl()
    // Modules in path order, so that one run and merged shards list the items alike.
    const modules = [...testModules].sort((a, b) => a.moduleId.localeCompare(b.moduleId))
    const records = collectRecords(modules)
    if (records.length === 0) return
    const partialByGroup = partialRuns(modules, this.selection)
    const output: string[] = []
    const summary: string[] = []
    for (const [suite, suiteRecords] of groupBy(records, (record) => record.suite)) {
      const reports = [...groupBy(suiteRecords, (record) => record.model).values()].map((modelRecords) => {
        const [first] = modelRecords
        if (!first) throw new Error('empty group')
        return this.writeReport(
          this.basePath(first),
          modelRecords,
          reason !== 'interrupted',
          partialByGroup.get(partialKey(suite, first.model)),
          { intervals: true },
        )
      })
      suiteFilesFor(suite)?.(this.directory, suiteRecords)
      output.push(`\n${suite}: scores`, ...reports.map(summaryText))
      const table = markdownTable(resultsTableFor(suite)(rowsByModel(reports.flatMap((report) => report.scores))))
      showScoresInItems(modules, suite, reports, table)
      if (table) output.push('', table)
      summary.push(
        `## Scores: ${suite}`,
        '',
        ...(table ? [table, ''] : []),
        '```',
        ...reports.map(summaryText),
        '```',
        '',
      )
    }
    output.push('', `reports: ${this.directory}`)
    const advice = [...groupBy(records, (record) => `${record.suite}\u0000${record.model}`).values()].flatMap(
      (group) => cutOffAdvice(group) ?? [],
    )
    output.push(...advice)
    summary.push(...advice)
    const rateLimits = [...runWidePaces()].flatMap(([key, pace]) =>
      pace.refusals + pace.holds > 0 ? [`rate limits: ${key.replace(/^endpoint:/, '')}: ${waitsText(pace)}`] : [],
    )
    output.push(...rateLimits)
    summary.push(...rateLimits)
    const ledger = runLedgerState()
    if (ledger !== undefined) {
      const notSent =
        ledger.refused > 0
          ? `; ${ledger.refused} request(s) not sent: run again with a higher TESTBENCH_COST_LIMIT to ask only those`
          : ''
      const line = `cost limit: ${spentText(ledger, this.prices?.currency ?? '')}${notSent}${noneSent(ledger, this.prices?.currency ?? '')}`
      output.push(line)
      summary.push(line)
    }
    const notJudged = records.filter(
      (record) => record.outcome !== undefined && NOT_THE_MODELS_FAULT.has(record.outcome),
    )
    if (notJudged.length > 0) {
      // They end skipped, which would leave the run's exit code 0: a run that could not judge every item fails.
      output.push(
        `${notJudged.length} item(s) could not be judged (provider_error or infra_error: not the model's fault, left out of the scores); the run fails. Their reasons are in the reports; \`npm run -s failed -- <report.json> --outcome=provider_error,infra_error\` prints the -t pattern that re-runs them.`,
      )
      process.exitCode = 1
    }
    if (this.print) process.stdout.write(`${output.join('\n')}\n`)
    if (!this.shard) appendJobSummary(summary.join('\n'))
    this.partial.clear()
  }

  private closeJsonl(): void {
    for (const jsonl of this.jsonl.values()) closeSync(jsonl)
    this.jsonl.clear()
  }

  /** Brings the JSON reports up to the last finished item, marked incomplete. */
  private writeUnfinishedReports(): void {
    for (const [base, records] of this.partial) this.writeReport(base, records, false)
  }

  /** `intervals`: with each score's 95% interval (a bootstrap for most scores, so only once the run ends). */
  private writeReport(
    base: string,
    records: readonly ItemRecord[],
    complete: boolean,
    partial?: PartialRun,
    { intervals = false } = {},
  ): RunReport {
    const [first] = records
    const scorer = first ? scorerFor(first.suite) : undefined
    const scored = scorer ? scorer(records) : []
    const scores = scorer && intervals ? withIntervals(scored, records, scorer) : scored
    const ledger = runLedgerState()
    const report = buildRunReport(records, scores, {
      complete,
      endedAt: new Date(),
      ...(this.shard ? { shard: this.shard } : {}),
      ...(partial ? { partial } : {}),
      ...(this.prices ? { prices: this.prices } : {}),
      ...(ledger === undefined
        ? {}
        : {
            costLimit: {
              limit: ledger.limit,
              spent: ledger.spent,
              currency: this.prices?.currency ?? '',
              notSent: ledger.refused,
            },
          }),
    })
    writeFileAtomicallySync(`${base}.json`, JSON.stringify(report, null, 2))
    writeFileAtomicallySync(`${base}.txt`, `${summaryText(report)}\n`)
    return report
  }

  private basePath(record: ItemRecord): string {
    const shard = this.shard ? `__shard-${this.shard.index}-of-${this.shard.count}` : ''
    return join(
      this.directory,
      record.suite,
      `${this.stamp}__${record.model.replace(/[^A-Za-z0-9._-]+/g, '_')}${shard}`,
    )
  }
}

/** How often, at most, a running suite's JSON report is rewritten with the items finished so far. */
const SNAPSHOT_INTERVAL_MS = 10_000

function runStamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-')
}
