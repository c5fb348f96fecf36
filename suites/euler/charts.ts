import { suiteAnchor, type ChartedBoard, type SizeChart } from '../../harness/scoring/leaderboard-chart.ts'
import { memoryGB } from './model-size.ts'
import { BEST_FOR_SIZE_COLUMN, BITS_COLUMN, SIZE_COLUMN } from './score.ts'

/** PE-Bench's Mem-Score view: the combined score against the memory the model needs, and the best model for each size. */
export function eulerCharts(board: ChartedBoard): SizeChart[] {
  const scoreColumn = board.rows.flatMap((row) => Object.keys(row)).find((column) => /^PE-\d+-Score$/.test(column))
  if (scoreColumn === undefined) return []
  const points = board.rows.flatMap((row) => {
    const value = Number(row[scoreColumn] || Number.NaN)
    const parameters = Number(row[SIZE_COLUMN] || Number.NaN)
    const bits = Number(row[BITS_COLUMN] || Number.NaN)
    const memory = Number.isFinite(parameters) && Number.isFinite(bits) ? memoryGB({ parameters, bits }) : undefined
    if (!Number.isFinite(value) || memory === undefined) return []
    return [{ model: row.Model ?? '', memory, value, best: (row[BEST_FOR_SIZE_COLUMN] ?? '') !== '' }]
  })
  if (points.length === 0) return []
  return [
    {
      kind: 'size',
      id: `${suiteAnchor(board.suite)}-size`,
      title: `${scoreColumn} versus memory (GB, log scale): the line joins the best model for its size`,
      score: scoreColumn,
      points,
    },
  ]
}
