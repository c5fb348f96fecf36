/**
 * BigCodeBench scores, per model and variant: pass@1 … pass@n with the 95% interval over the tasks
 * that calibration kept (`BigCodeBench-Complete v0.1.0 pass@1`), and the same over all tasks of the
 * selection, the excluded ones counted as failed, as the official leaderboard counts every task
 * (`BigCodeBench-Complete v0.1.0 pass@1 over all tasks`). The excluded tasks are listed with their
 * category, and the outcomes column counts the failure categories. With two or more samples, pass^k (all k
 * samples pass) follows each pass@k.
 */
import { NOT_THE_MODELS_FAULT } from '../../adapters/outcome.ts'
import { groupBy } from '../../harness/group-by.ts'
import {
  countSamples,
  formatPassAtKWithInterval,
  meanPassAtK,
  outcomeSummary,
  passAtEveryK,
  passAtKScore,
  passHatEveryK,
} from '../../harness/scoring/pass-at-k.ts'
import type { Score, Scorer } from '../../harness/scoring/score.ts'
import { bigCodeBenchFacts } from './facts.ts'
import { parseExclusions, scoreName } from './variant.ts'

export const scoreBigCodeBench: Scorer = (records) => {
  const scores: Score[] = []
  const own = records.filter((record) => record.suite === 'bigcodebench')
  for (const group of groupBy(own, (record) => `${record.model}\u0000${record.variant ?? ''}`).values()) {
    const first = group[0]
    // The version and the exclusions come from the records, so a saved or merged report keeps them. A record
    // without facts (a task that broke before recording them) brings neither; its outcome counts as any other's.
    const facts = group.map((record) => bigCodeBenchFacts.readIfRecorded(record)).filter((each) => each !== undefined)
    const version = facts[0]?.version
    // Not one record says which version ran: there is no score to name; the report still lists every outcome.
    if (first === undefined || version === undefined) continue
    const name = scoreName(first.variant, version)
    const excludedById = new Map<string, string>()
    for (const { excluded: exclusions } of facts)
      for (const { itemId, reason } of parseExclusions(exclusions)) excludedById.set(itemId, reason)
    const excluded = [...excludedById].map(([itemId, reason]) => ({ itemId, reason }))
    const answered = group.filter((record) => record.outcome !== undefined && !NOT_THE_MODELS_FAULT.has(record.outcome))
    const counts = [
      ...countSamples(
        answered,
        (record) => record.itemId,
        (record) => record.outcome === 'passed',
      ).values(),
    ]
    const columns: Record<string, string> = { Model: first.model }
    const solved = counts.filter(({ c }) => c > 0).length
    const consistency = new Map(passHatEveryK(counts).map((result) => [result.k, result]))
    for (const result of passAtEveryK(counts)) {
      const smallestN = Math.min(...counts.map(({ n }) => n))
      const overAll = meanPassAtK([...counts, ...excluded.map(() => ({ n: smallestN, c: 0 }))], result.k)
      const scoredName = `${name} pass@${result.k}`
      const allName = `${scoredName} over all tasks`
      columns[scoredName] = formatPassAtKWithInterval(result)
      columns[allName] = formatPassAtKWithInterval(overAll)
      const common = { suite: first.suite, model: first.model }
      scores.push(
        {
          ...common,
          ...passAtKScore(scoredName, result),
          counted: { solved, total: counts.length },
          ...(excluded.length > 0 ? { excluded } : {}),
        },
        {
          ...common,
          ...passAtKScore(allName, overAll),
          counted: { solved, total: counts.length + excluded.length },
        },
      )
      const allOf = consistency.get(result.k)
      if (allOf !== undefined)
        scores.push({
          ...common,
          ...passAtKScore(`${name} pass^${result.k}`, allOf),
          counted: { solved: counts.filter(({ c, n }) => c === n).length, total: counts.length },
          ...(excluded.length > 0 ? { excluded } : {}),
        })
    }
    columns[`${name} outcomes`] = outcomeSummary(group)
    const firstScore = scores.find((score) => score.model === first.model && score.name === `${name} pass@1`)
    if (firstScore !== undefined) firstScore.columns = columns
  }
  return scores
}
