/**
 * Fail closed: before the first item of a suite that runs model-written programs, the configured
 * sandbox tier must work here. When it does not, the run stops with one message (what is missing,
 * how to install it, or SANDBOX=docker); programs never run unsandboxed unless SANDBOX=none asked
 * for it, which prints a banner and marks the run's reports.
 */
import type { Reporter, TestSpecification, Vitest } from 'vitest/node'
import { tierReadiness, UNSANDBOXED_BANNER } from '../adapters/sandbox/sandbox-tier.ts'
import { stopBeforeItems } from '../harness/stop-before-items.ts'
import { suiteNamed } from '../suites/registry.ts'
import { suitesOf } from './suite-datasets.ts'

export class SandboxCheck implements Reporter {
  private vitest: Vitest | undefined

  onInit(vitest: Vitest): void {
    this.vitest = vitest
  }

  async onTestRunStart(specifications: readonly TestSpecification[]): Promise<void> {
    // Merging shards replays results: nothing runs then.
    if (this.vitest === undefined || this.vitest.config.mergeReports) return
    // A folder without a declaration is held to the check.
    const suites = suitesOf(specifications, this.vitest.config.root).filter(
      (suite) => suiteNamed(suite)?.runsPrograms ?? true,
    )
    if (suites.length === 0) return
    const readiness = await tierReadiness()
    if ('problem' in readiness) {
      stopBeforeItems(
        `${suites.join(', ')} run(s) model-written programs, and no sandbox can run them here; nothing was asked or run:\n  ${readiness.problem}`,
      )
    }
    if (readiness.description.startsWith('none')) process.stderr.write(`${UNSANDBOXED_BANNER}\n`)
  }
}
