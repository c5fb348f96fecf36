/**
 * MBPP scores: pass@1 … pass@n per model and variant with a 95% interval: `MBPP pass@1` (the original test split),
 * `MBPP sanitized`, `MBPP+ v0.2.0`, `MBPP+ v0.1.0`, and EvalPlus's base column for each MBPP+ version
 * (`MBPP (base tests of MBPP+ v0.2.0)`: the original asserts' inputs over the MBPP+ tasks).
 */
import { scorePassAtK } from '../../harness/scoring/pass-at-k.ts'
import { withBaseRecords } from '../../harness/python-tasks/base-column.ts'
import type { Scorer } from '../../harness/scoring/score.ts'
import { excludedTasks } from './dataset.ts'

const NAMES: Record<string, string> = {
  mbpp: 'MBPP',
  'mbpp-sanitized': 'MBPP sanitized',
  'mbpp+': 'MBPP+ v0.2.0',
  'mbpp+v0.1.0': 'MBPP+ v0.1.0',
  'mbpp+ base': 'MBPP (base tests of MBPP+ v0.2.0)',
  'mbpp+v0.1.0 base': 'MBPP (base tests of MBPP+ v0.1.0)',
}

export const scoreMbpp: Scorer = (records) =>
  scorePassAtK(
    withBaseRecords(
      records.filter((record) => record.suite === 'mbpp'),
      (variant) => (variant === 'mbpp+' || variant === 'mbpp+v0.1.0' ? `${variant} base` : undefined),
    ),
    {
      scoreName: (variant) => NAMES[variant ?? 'mbpp'] ?? `MBPP ${variant}`,
      excluded: (variant) => excludedTasks((variant ?? 'mbpp').replace(/ base$/, '')),
    },
  )
