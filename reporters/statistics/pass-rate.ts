import type { ItemRecord } from '../../harness/records/item-record.ts'
import type { Score, Scorer } from '../../harness/scoring/score.ts'
import { groupBy } from '../../harness/group-by.ts'
import { NOT_THE_MODELS_FAULT } from '../../adapters/outcome.ts'
import { meanInterval, shareIntervalMethod } from '../../harness/scoring/proportion-interval.ts'
import { countSamples, passAtKScore, passHatEveryK, type SampleCount } from '../../harness/scoring/pass-at-k.ts'

/**
 * The score of a suite that names no scorer of its own: the share of items passed, per model and variant, of
 * those the model answered: an item a provider or the infrastructure failed is not the model's, and is left out.
 * Its 95% interval is Wilson's (an item's samples count as one item: Wilson on the effective sample size);
 * with two or more samples per item, pass^k follows (all k samples pass).
 */
export const passRate: Scorer = (records) => {
  const scores: Score[] = []
  for (const group of groupBy(records, (record) => `${record.model}\u0000${record.variant ?? ''}`).values()) {
    const [first] = group
    if (!first) continue
    const judged = group.filter(
      (record: ItemRecord) => record.outcome !== undefined && !NOT_THE_MODELS_FAULT.has(record.outcome),
    )
    const solved = judged.filter((record) => record.outcome === 'passed').length
    const value = judged.length === 0 ? 0 : solved / judged.length
    const name = `${first.suite}${first.variant ? `-${first.variant}` : ''} pass rate`
    const counts = [
      ...countSamples(
        judged,
        (record) => record.itemId,
        (record) => record.outcome === 'passed',
      ).values(),
    ]
    const interval =
      counts.length === 0
        ? undefined
        : meanInterval(counts.map(({ n, c }) => ({ value: c / n, weight: n, samples: n })))
    scores.push({
      suite: first.suite,
      model: first.model,
      name,
      value,
      display: `${(value * 100).toFixed(2)}%`,
      ...(interval
        ? {
            interval: {
              low: interval.low,
              high: interval.high,
              method: shareIntervalMethod(counts.length, judged.length),
            },
          }
        : {}),
      counted: { solved, total: judged.length },
      columns: { Model: first.model, [name]: `${(value * 100).toFixed(2)}%` },
    })
    scores.push(...passHatKOf(first, counts))
  }
  return scores
}

/**
 * pass^k (k ≥ 2: all k samples pass) per model and variant, for a suite whose own scorer gives none, when
 * its items have two or more samples: `farel pass^2`, `euler-java pass^3`.
 */
export function passHatKScores(records: readonly ItemRecord[]): Score[] {
  return [...groupBy(records, (record) => `${record.model}\u0000${record.variant ?? ''}`).values()].flatMap((group) => {
    const [first] = group
    if (!first) return []
    const counts = countSamples(
      group.filter((record) => record.outcome !== undefined && !NOT_THE_MODELS_FAULT.has(record.outcome)),
      (record) => record.itemId,
      (record) => record.outcome === 'passed',
    )
    return passHatKOf(first, [...counts.values()])
  })
}

function passHatKOf(first: ItemRecord, counts: readonly SampleCount[]): Score[] {
  return passHatEveryK(counts).map((result) => ({
    suite: first.suite,
    model: first.model,
    ...passAtKScore(`${first.suite}${first.variant ? `-${first.variant}` : ''} pass^${result.k}`, result),
    counted: { solved: counts.filter(({ c, n }) => c === n).length, total: counts.length },
  }))
}
