import { NOT_THE_MODELS_FAULT } from '../../adapters/outcome.ts'
import { groupBy } from '../../harness/group-by.ts'
import type { ItemRecord } from '../../harness/records/item-record.ts'

/** An item whose judged samples disagree: some passed, some did not. */
export interface FlakyItem {
  /** `java > 0022`: the variant and item id, as flip lists name items. */
  item: string
  passed: number
  samples: number
}

/**
 * The items whose samples disagree, worst first: the closest to an even split first (the least
 * predictable), then the one with fewer passes, then by name. Samples a provider or the harness
 * failed are not the model's and are left out.
 */
export function flakyItems(records: readonly ItemRecord[]): FlakyItem[] {
  const judged = records.filter((record) => record.outcome !== undefined && !NOT_THE_MODELS_FAULT.has(record.outcome))
  const flaky: FlakyItem[] = []
  for (const samples of groupBy(judged, (record) => JSON.stringify([record.variant ?? '', record.itemId])).values()) {
    const [first] = samples
    if (first === undefined) continue
    const passed = samples.filter((record) => record.outcome === 'passed').length
    if (passed === 0 || passed === samples.length) continue
    flaky.push({
      item: `${first.variant ? `${first.variant} > ` : ''}${first.itemId}`,
      passed,
      samples: samples.length,
    })
  }
  const split = ({ passed, samples }: FlakyItem) => Math.abs(passed / samples - 0.5)
  return flaky.sort(
    (a, b) => split(a) - split(b) || a.passed / a.samples - b.passed / b.samples || a.item.localeCompare(b.item),
  )
}

/** Flaky items shown in a summary at most (the JSON report has every one). */
const SHOWN = 10

/** `flaky (samples disagree, worst first): HumanEval/12 2/4, HumanEval/7 1/4 … and 3 more (all in the JSON report)`. */
export function flakyLine(flaky: readonly FlakyItem[]): string | undefined {
  if (flaky.length === 0) return undefined
  const shown = flaky
    .slice(0, SHOWN)
    .map((entry) => `${entry.item} ${entry.passed}/${entry.samples}`)
    .join(', ')
  const more = flaky.length > SHOWN ? ` … and ${flaky.length - SHOWN} more (all in the JSON report)` : ''
  return `flaky: ${flaky.length} item(s) whose samples disagree, worst first (passed/samples): ${shown}${more}`
}
