/**
 * Each suite's dataset, fetched and checked once per run in the main process, before any test file
 * starts: a suite split into part files would otherwise download it once per part (and scrape
 * projecteuler.net once per part), and a missing or damaged file would be reported once per part.
 */
import type { Reporter, TestSpecification, Vitest } from 'vitest/node'
import { relative, sep } from 'node:path'
import { sampleCount } from '../harness/knobs.ts'
import { stopBeforeItems } from '../harness/stop-before-items.ts'
import { codeSuiteOptions } from '../harness/python-tasks/options.ts'
import { loadBigCodeBench } from '../suites/bigcodebench/dataset.ts'
import { bigCodeBenchOptions } from '../suites/bigcodebench/options.ts'
import { eulerProblems } from '../suites/euler/data-source.ts'
import { eulerOptions } from '../suites/euler/options.ts'
import { HUMANEVAL_VARIANTS, loadHumanEval } from '../suites/humaneval/dataset.ts'
import { loadMbpp, MBPP_DEFAULT_VARIANTS, MBPP_VARIANTS } from '../suites/mbpp/dataset.ts'
import { loadInstances } from '../suites/swebench/dataset.ts'
import { swebenchOptions } from '../suites/swebench/options.ts'

/** The loads a suite's items need, one per file it reads; each is reported on its own when it fails. */
type Prepare = (env: NodeJS.ProcessEnv) => Array<Promise<unknown>>

/** By suite folder: what loading the suite's items needs from outside (downloads, pinned files). FaRel generates its own. */
const PREPARE: Readonly<Record<string, Prepare>> = {
  euler: (env) => [eulerProblems(eulerOptions(env), env)],
  humaneval: (env) => codeSuiteOptions('HUMANEVAL', HUMANEVAL_VARIANTS, HUMANEVAL_VARIANTS, 1, env).variants.map((variant) => loadHumanEval(variant, env)),
  mbpp: (env) => codeSuiteOptions('MBPP', MBPP_VARIANTS, MBPP_DEFAULT_VARIANTS, 1, env).variants.map((variant) => loadMbpp(variant, env)),
  bigcodebench: (env) => [loadBigCodeBench(bigCodeBenchOptions(sampleCount(env), env).subset, env)],
  swebench: (env) => {
    const options = swebenchOptions(env)
    return [loadInstances({ datasetFile: options.datasetFile, instances: options.instances, env })]
  },
}

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
      const loads = await Promise.allSettled(PREPARE[suite]?.(process.env) ?? [])
      for (const load of loads) if (load.status === 'rejected') problems.push(`${suite}: ${(load.reason as Error).message}`)
    }
    if (problems.length === 0) return
    stopBeforeItems(`A dataset is not usable; nothing was asked or run:\n  ${problems.join('\n  ')}`)
  }
}
