import { suiteAnchor, type ChartedBoard, type RelationChart } from '../../harness/scoring/leaderboard-chart.ts'
import { farelRuns } from './score.ts'

/** One chart of per-relation accuracies per model, best first. */
export function farelCharts(board: ChartedBoard): RelationChart[] {
  return board.entries.flatMap((entry, index) => {
    const [run] = farelRuns(entry.items)
    if (run === undefined) return []
    const headline = entry.headline
    return [
      {
        kind: 'relations',
        id: `${suiteAnchor(board.suite)}-relations-${index}`,
        title: `${index + 1}. ${entry.model}${headline ? ` · ${headline.name} ${headline.display}` : ''}`,
        relations: run.classes.map((tally) => tally.relation),
        accuracies: run.classes.map((tally) => tally.accuracy),
      },
    ]
  })
}
