/** A BigCodeBench variant (split × subset), its score name, and the exclusions its records carry. */
import { BIGCODEBENCH_VERSION, taskNumber, type Subset } from './dataset.ts'
import { EXCLUSION_CATEGORIES, type ExclusionCategory } from './exclusion.ts'
import type { Split } from './options.ts'

/** `complete`, `instruct-hard`. */
export function variantName(split: Split, subset: Subset): string {
  return subset === 'full' ? split : `${split}-${subset}`
}

/** `BigCodeBench-Complete v0.1.0`, `BigCodeBench-Instruct-Hard v0.1.0`. */
export function scoreName(variant: string | undefined, version: string = BIGCODEBENCH_VERSION): string {
  const [split = 'complete', subset] = (variant ?? 'complete').split('-')
  const title = (word: string) => word.charAt(0).toUpperCase() + word.slice(1)
  return `BigCodeBench-${title(split)}${subset === undefined ? '' : `-${title(subset)}`} ${version}`
}

/** Excluded task ids by category as `missing library: 12 45; network: 3`: short enough to go in every record. */
export function formatExclusions(groups: ReadonlyMap<ExclusionCategory, readonly string[]>): string {
  return [...groups]
    .filter(([, ids]) => ids.length > 0)
    .map(([category, ids]) => `${category}: ${ids.map(taskNumber).join(' ')}`)
    .join('; ')
}

/** The inverse of formatExclusions, as the scorer's excluded items. */
export function parseExclusions(text: string): Array<{ itemId: string; reason: string }> {
  const excluded: Array<{ itemId: string; reason: string }> = []
  for (const part of text.split(';')) {
    const match = /^\s*([^:]+):\s*([\d\s]*)$/.exec(part)
    if (match === null) continue
    const category = EXCLUSION_CATEGORIES.find((known) => known === match[1]?.trim())
    if (category === undefined) continue
    for (const number of (match[2] ?? '').trim().split(/\s+/))
      if (number !== '') excluded.push({ itemId: `BigCodeBench/${number}`, reason: category })
  }
  return excluded
}
