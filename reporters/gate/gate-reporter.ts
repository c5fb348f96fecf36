import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Reporter, SerializedError, TestModule, TestRunEndReason, Vitest } from 'vitest/node'
import { reportDir } from '../../harness/knobs.ts'
import { collectRecords } from '../collect-records.ts'
import type { GateConfig } from './gate-config.ts'
import { evaluateGate, gateMarkdown, gateText, type GateVerdict } from './gate.ts'
import { appendJobSummary } from '../job-summary.ts'
import { gateAnnotations } from './gate-annotations.ts'
import type { Shard } from '../run-report.ts'

export interface GateReporterOptions {
  config: GateConfig
  /** Where `gate.json` (the verdict) goes. Default: TESTBENCH_REPORT_DIR, else `.testbench/reports`. */
  directory?: string
  /** Projects whose test files are benchmark suites; a run with files of other projects only is not gated. Default: `['suites']`. */
  benchmarkProjects?: string[]
  /** Print the verdict as GitHub Actions annotations (gate-annotations.ts). Default: on GitHub Actions (GITHUB_ACTIONS=true). */
  annotations?: boolean
}

/**
 * The model gate: after the run, judges it against the config's minimums and baselines
 * (reporters/gate/gate.ts), prints why, writes the verdict to `gate.json` and the job summary,
 * and makes the process exit code the verdict: 0 passed, 1 failed. Wrong answers alone never
 * fail the exit code; errors that are not the model's fault always do.
 *
 * In one shard of a split run (`--shard`) it only defers: the run that merges the shards
 * (`--merge-reports`) judges all the items together.
 */
export class GateReporter implements Reporter {
  private readonly config: GateConfig
  private readonly directory: string
  private readonly benchmarkProjects: string[]
  private readonly annotations: boolean
  private shard: Shard | undefined

  constructor(options: GateReporterOptions) {
    this.config = options.config
    this.directory = options.directory ?? reportDir()
    this.benchmarkProjects = options.benchmarkProjects ?? ['suites']
    this.annotations = options.annotations ?? process.env.GITHUB_ACTIONS === 'true'
  }

  onInit(vitest: Vitest): void {
    this.shard = vitest.config.shard
  }

  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
    reason: TestRunEndReason,
  ): void {
    const modules = [...testModules].sort((a, b) => a.moduleId.localeCompare(b.moduleId))
    const problems = runProblems(modules, unhandledErrors, reason)
    if (this.shard) {
      const deferred = `Model gate (${this.config.file}): deferred, this is shard ${this.shard.index}/${this.shard.count}; the run that merges the shards (--merge-reports) judges every item together.`
      print([deferred, ...problems.map((problem) => `  ✗ ${problem}`)].join('\n'))
      process.exitCode = problems.length > 0 ? 1 : 0
      return
    }
    if (modules.length > 0 && !modules.some((module) => this.benchmarkProjects.includes(module.project.name))) {
      print(
        `Model gate (${this.config.file}): not applied, this run has no benchmark test files (project ${this.benchmarkProjects.join(', ')}).`,
      )
      return
    }
    const verdict = evaluateGate({ config: this.config, records: collectRecords(modules), problems })
    print(gateText(verdict))
    if (this.annotations) print(gateAnnotations(verdict).join('\n'))
    this.writeVerdict(verdict)
    appendJobSummary(gateMarkdown(verdict))
    process.exitCode = verdict.passed ? 0 : 1
  }

  private writeVerdict(verdict: GateVerdict): void {
    mkdirSync(this.directory, { recursive: true })
    writeFileSync(
      join(this.directory, 'gate.json'),
      `${JSON.stringify({ ...verdict, decidedAt: new Date().toISOString() }, null, 2)}\n`,
    )
  }
}

/** What is wrong with the run as a whole, whatever the items say. */
export function runProblems(
  modules: readonly TestModule[],
  unhandledErrors: ReadonlyArray<SerializedError>,
  reason: TestRunEndReason,
): string[] {
  const problems: string[] = []
  if (reason === 'interrupted') problems.push('the run was interrupted: its items are not all judged.')
  if (unhandledErrors.length > 0) {
    problems.push(`${unhandledErrors.length} unhandled error(s), the first: ${errorLine(unhandledErrors[0])}`)
  }
  for (const module of modules) {
    const [error] = module.errors()
    if (error) problems.push(`${module.relativeModuleId} failed outside its tests: ${errorLine(error)}`)
    for (const testCase of module.children.allTests()) {
      if (testCase.meta().bench === undefined && testCase.result().state === 'failed') {
        problems.push(`${testCase.fullName} failed; it is a plain test, not a benchmark item, so it fails the gate.`)
      }
    }
  }
  return problems
}

function errorLine(error: SerializedError | undefined): string {
  const line = `${error?.name ? `${error.name}: ` : ''}${error?.message ?? 'unknown error'}`.split('\n')[0] ?? ''
  return line.length > 300 ? `${line.slice(0, 299)}…` : line
}

function print(text: string): void {
  process.stdout.write(`\n${text}\n`)
}
