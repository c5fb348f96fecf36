/**
 * BigCodeBench scores: pass@1 … pass@n per model and variant, with the 95% interval, over the
 * tasks that calibration kept (`BigCodeBench-Complete v0.1.0 pass@1`, `BigCodeBench-Instruct-Hard
 * v0.1.0 pass@1`); the excluded tasks are listed with their category, and the outcomes column
 * counts the failure categories.
 */
import { scorePassAtK } from '../../harness/pass-at-k.ts'
import type { Scorer } from '../../harness/score.ts'
import { bigCodeBenchFacts } from './run-item.ts'
import { parseExclusions, scoreName } from './variant.ts'

export const scoreBigCodeBench: Scorer = (records) => {
  const own = records.filter((record) => record.suite === 'bigcodebench')
  const exclusions = new Map<string, string>()
  const versions = new Map<string, string>()
  for (const record of own) {
    const { excluded, version } = bigCodeBenchFacts.read(record)
    if (!exclusions.has(record.variant ?? '')) exclusions.set(record.variant ?? '', excluded)
    if (!versions.has(record.variant ?? '')) versions.set(record.variant ?? '', version)
  }
  return scorePassAtK(own, {
    // The version comes from the records, so a saved or merged report keeps the name it was run under.
    scoreName: (variant) => scoreName(variant, versions.get(variant ?? '')),
    excluded: (variant) => parseExclusions(exclusions.get(variant ?? '') ?? ''),
  })
}
