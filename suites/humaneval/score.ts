/**
 * HumanEval scores: pass@1 … pass@n per model and variant (`HumanEval pass@1`, `HumanEval+ pass@1`) with a 95% interval,
 * and EvalPlus's base column (`HumanEval (base tests of HumanEval+) pass@1`: the original tests' inputs over the HumanEval+ tasks).
 */
import { scorePassAtK } from '../../harness/scoring/pass-at-k.ts'
import { withBaseRecords } from '../../harness/python-tasks/base-column.ts'
import type { Scorer } from '../../harness/scoring/score.ts'
import { excludedTasks } from './dataset.ts'

const NAMES: Record<string, string> = {
  humaneval: 'HumanEval',
  'humaneval+': 'HumanEval+',
  'humaneval+ base': 'HumanEval (base tests of HumanEval+ v0.1.10)',
}

export const scoreHumanEval: Scorer = (records) =>
  scorePassAtK(
    withBaseRecords(
      records.filter((record) => record.suite === 'humaneval'),
      (variant) => (variant === 'humaneval+' ? 'humaneval+ base' : undefined),
    ),
    {
      scoreName: (variant) => NAMES[variant ?? 'humaneval'] ?? `HumanEval ${variant}`,
      excluded: (variant) => excludedTasks((variant ?? 'humaneval').replace(/ base$/, '')),
    },
  )
