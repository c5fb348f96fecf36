/**
 * Each suite's dataset, fetched and checked once per run in the main process, before any test file
 * starts: a suite split into part files would otherwise download it once per part (and scrape
 * projecteuler.net once per part), and a missing or damaged file would be reported once per part.
 */
import type { Reporter, TestSpecification, Vitest } from 'vitest/node'
import { relative, sep } from 'node:path'
import { stopBeforeItems } from '../harness/stop-before-items.ts'
import { suiteNamed } from '../suites/registry.ts'

/** The suite folders (`suites/<name>/…`) of the files a run is about to start. */
export function suitesOf(specifications: readonly TestSpecification[], root: string): string[] {
  const suites = specifications.flatMap((specification) => {
    const [top, suite] = relative(root, specification.moduleId).split(sep)
    return top === 'suites' && suite !== undefined ? [suite] : []
  })
  return [...new Set(suites)].sort()
}

export class SuiteDatasets implements Reporter {
  private vitest: Vitest | undefined

  onInit(vitest: Vitest): void {
    this.vitest = vitest
  }

  async onTestRunStart(specifications: readonly TestSpecification[]): Promise<void> {
    // Merging shards replays results: nothing is loaded then.
    if (this.vitest === undefined || this.vitest.config.mergeReports) return
    const problems: string[] = []
    for (const suite of suitesOf(specifications, this.vitest.config.root)) {
      const loads = await Promise.allSettled(suiteNamed(suite)?.prepareDatasets?.(process.env) ?? [])
      for (const load of loads)
        if (load.status === 'rejected') problems.push(`${suite}: ${(load.reason as Error).message}`)
    }
    if (problems.length === 0) return
    stopBeforeItems(`A dataset is not usable; nothing was asked or run:\n  ${problems.join('\n  ')}`)
  }
}
