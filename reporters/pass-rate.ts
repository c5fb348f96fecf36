import type { ItemRecord } from '../harness/item-record.ts'
import type { Score, Scorer } from '../harness/score.ts'
import { groupBy } from '../harness/group-by.ts'
import { NOT_THE_MODELS_FAULT } from '../adapters/outcome.ts'

/**
 * The score of a suite that names no scorer of its own: the share of items passed, per model and variant, of
 * those the model answered: an item a provider or the infrastructure failed is not the model's, and is left out.
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
    scores.push({
      suite: first.suite,
      model: first.model,
      name,
      value,
      display: `${(value * 100).toFixed(2)}%`,
      counted: { solved, total: judged.length },
      columns: { Model: first.model, [name]: `${(value * 100).toFixed(2)}%` },
    })
  }
  return scores
}
