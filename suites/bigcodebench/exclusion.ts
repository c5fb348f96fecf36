/** Why a canonical solution fails in this environment, from its runs: the reason its task is excluded. */
import type { TaskRun } from './task-run.ts'
import { lastLine } from './task-run.ts'

export const EXCLUSION_CATEGORIES = [
  'missing library',
  'missing data',
  'network',
  'timeout',
  'flaky',
  'fails here',
  'infra',
] as const
export type ExclusionCategory = (typeof EXCLUSION_CATEGORIES)[number]

export interface Exclusion {
  category: ExclusionCategory
  /** One line: the missing module, the failing method and its error… */
  reason: string
}

const NETWORK_ERROR =
  /ConnectionError|NameResolutionError|Temporary failure in name resolution|Name or service not known|Network is unreachable|urlopen error|gaierror|Max retries exceeded|Connection refused|ConnectionRefusedError|No address associated with hostname/

/**
 * `first` failed; `rerun` is the same program run again. A rerun that passes, or fails in other
 * methods, makes the task flaky; otherwise the first failure names the reason.
 */
export function exclusionOf(first: TaskRun, rerun: TaskRun): Exclusion {
  if (first.outcome === 'infra_error' || rerun.outcome === 'infra_error')
    return { category: 'infra', reason: first.outcome === 'infra_error' ? first.reason : rerun.reason }
  const missing = missingModule(first)
  if (missing !== undefined) return { category: 'missing library', reason: `No module named '${missing}'` }
  const data = missingNltkData(first)
  if (data !== undefined)
    return {
      category: 'missing data',
      reason: `NLTK data '${data}' is not installed (nltk.download('${data}') needs the network)`,
    }
  if (rerun.outcome === 'passed')
    return { category: 'flaky', reason: `Failed once (${first.reason}), passed when run again.` }
  if (failureSignature(first) !== failureSignature(rerun))
    return { category: 'flaky', reason: `Failed differently when run again: ${first.reason} / ${rerun.reason}` }
  if (errorTexts(first).some((text) => NETWORK_ERROR.test(text)))
    return { category: 'network', reason: `Needs the network: ${firstError(first)}` }
  if (first.outcome === 'timeout') return { category: 'timeout', reason: first.reason }
  return { category: 'fails here', reason: `${first.reason} ${firstError(first)}`.trim() }
}

/** The top-level module a ModuleNotFoundError names, in the load error or any method's traceback. */
export function missingModule(run: TaskRun): string | undefined {
  for (const text of errorTexts(run)) {
    const name = /ModuleNotFoundError: No module named '([^'.]+)/.exec(text)?.[1]
    if (name !== undefined) return name
  }
  return undefined
}

/** The NLTK resource (`punkt`, `stopwords`…) a LookupError asks to download. */
export function missingNltkData(run: TaskRun): string | undefined {
  for (const text of errorTexts(run)) {
    const name = /nltk\.download\('([^']+)'\)/.exec(text)?.[1]
    if (name !== undefined) return name
  }
  return undefined
}

/** What failed and how, to compare two runs. */
export function failureSignature(run: TaskRun): string {
  const failing = run.methods
    .filter((method) => method.status === 'failed' || method.status === 'error')
    .map((method) => method.name)
  return [run.outcome, run.load?.stage ?? '', ...failing.sort()].join(' ')
}

function errorTexts(run: TaskRun): string[] {
  return [run.load?.error ?? '', ...run.methods.map((method) => method.detail ?? ''), run.output].filter(
    (text) => text !== '',
  )
}

function firstError(run: TaskRun): string {
  if (run.load !== undefined) return lastLine(run.load.error)
  const failing = run.methods.find((method) => method.status === 'failed' || method.status === 'error')
  return failing?.detail === undefined ? '' : `${failing.name}: ${lastLine(failing.detail)}`
}
