/**
 * EvalPlus's leaderboard shows two columns from one evaluation: the base tests
 * alone ("HumanEval", "MBPP": the original benchmark's tests over the EvalPlus
 * tasks) and base + plus tests ("HumanEval+", "MBPP+"). An EvalPlus item records
 * `basePassed`; this derives the base column's records from it.
 */
import type { ItemRecord } from '../records/item-record.ts'

/**
 * `records` plus, for each record that says whether its base inputs passed, a
 * record of the variant `baseVariant(variant)` that passed exactly when they did.
 * A provider or infra error stays one, so it stays out of both columns.
 */
export function withBaseRecords(
  records: readonly ItemRecord[],
  baseVariant: (variant: string | undefined) => string | undefined,
): ItemRecord[] {
  const derived: ItemRecord[] = []
  for (const record of records) {
    const variant = baseVariant(record.variant)
    const basePassed = record.scoring?.['basePassed']
    if (variant === undefined || typeof basePassed !== 'boolean') continue
    const outcome =
      record.outcome === 'provider_error' || record.outcome === 'infra_error'
        ? record.outcome
        : basePassed
          ? 'passed'
          : record.outcome === 'passed'
            ? 'wrong_answer'
            : record.outcome
    derived.push({ ...record, variant, ...(outcome === undefined ? {} : { outcome }) })
  }
  return [...records, ...derived]
}
