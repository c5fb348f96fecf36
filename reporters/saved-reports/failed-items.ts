import type { ItemRecord } from '../../harness/records/item-record.ts'
import { OUTCOMES } from '../../adapters/outcome.ts'
import { exactNamesPattern } from '../item-name-pattern.ts'
import type { RunReport } from '../run-report.ts'

/** An outcome to select by, or `unfinished` (started, never judged). */
export type Selectable = (typeof OUTCOMES)[number] | 'unfinished'

export const SELECTABLE: readonly Selectable[] = [...OUTCOMES, 'unfinished']

/** Every outcome but `passed`: what "the items that failed" means by default. */
export const NOT_PASSED: readonly Selectable[] = SELECTABLE.filter((outcome) => outcome !== 'passed')

/** The items of a saved report whose outcome is one of `outcomes`. */
export function itemsWithOutcome(report: RunReport, outcomes: readonly Selectable[]): ItemRecord[] {
  return report.items.filter((item) => outcomes.includes(item.outcome ?? 'unfinished'))
}

/**
 * The `-t` value that selects exactly these items again (every sample of each), by the start of
 * their test names: `<model> > <suite> [> <variant>] > <item id>`.
 */
export function rerunPattern(items: readonly ItemRecord[]): string {
  const prefixes = [
    ...new Set(
      items.map((item) =>
        [item.model, item.suite, ...(item.variant === undefined ? [] : [item.variant]), item.itemId].join(' > '),
      ),
    ),
  ]
  return exactNamesPattern(prefixes)
}

/** `wrong_answer,timeout` as outcomes, or the unknown names with what is accepted. */
export function parseOutcomes(text: string): Selectable[] | { unknown: string[] } {
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean)
  const unknown = names.filter((name) => !(SELECTABLE as readonly string[]).includes(name))
  return unknown.length > 0 ? { unknown } : (names as Selectable[])
}
