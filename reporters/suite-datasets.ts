/**
 * Each suite's dataset, fetched and checked once per run in the main process, before any test file
 * starts: a suite split into part files would otherwise download it once per part (and scrape
 * projecteuler.net once per part), and a missing or damaged file would be reported once per part.
 */
import type { Reporter, TestSpecification, Vitest } from 'vitest/node'
import { relative } from 'node:path'
import { stopBeforeItems } from '../harness/stop-before-items.ts'
import { suiteNamed } from '../suites/registry.ts'

/**
 * The suites of the files a run is about to start: a suite's files are in a folder `suites/<name>/`, the
 * project's own (`suites/tickets/…`) and the package's (`node_modules/llm-testbench/suites/humaneval/…`) alike.
 */
export function suitesOf(specifications: readonly TestSpecification[], root: string): string[] {
  const suites = specifications.flatMap((specification) => {
    const suite = suiteOfFile(relative(root, specification.moduleId))
    return suite === undefined ? [] : [suite]
  })
  return [...new Set(suites)].sort()
}

/** The `<name>` of the last `suites/<name>/` folder on a path relative to the project's root. */
export function suiteOfFile(path: string): string | undefined {
  const segments = path.split(/[\\/]/)
  const at = segments.lastIndexOf('suites')
  return at >= 0 && at + 2 < segments.length ? segments[at + 1] : undefined
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
