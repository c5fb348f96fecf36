import type { Score } from '../../harness/scoring/score.ts'
import type { RunReport } from '../run-report.ts'
import { withIntervals } from '../statistics/score-interval.ts'
import { reportScores, scorerFor } from '../scorers.ts'
import { suiteNamed } from '../../suites/registry.ts'

/**
 * A saved report's scores for its model, computed again from its items by the suite's scorer (so a
 * report written by an older version is scored as today's), each with its 95% interval: today's
 * method's; for a report written before intervals named their method (before they held at 0 % and
 * 100 %), the interval it stored, marked as saved (`asSaved`), when its score is the same; a score
 * still without one gets the bootstrap's (reporters/statistics/score-interval.ts).
 */
export function savedScores(report: RunReport): Score[] {
  const scores = reportScores(report)
  // A suite this process does not know keeps what its run stored (reporters/scorers.ts); old intervals are marked.
  if (suiteNamed(report.benchmark) === undefined) return scores.map(markedIfOld)
  const stored = scores.map((score) => {
    const saved = report.scores.find((candidate) => candidate.name === score.name && candidate.model === score.model)
    return saved?.interval !== undefined && saved.interval.method === undefined && saved.value === score.value
      ? { ...score, interval: { ...saved.interval, asSaved: true } }
      : score
  })
  return stored.some((score) => score.interval === undefined)
    ? withIntervals(stored, report.items, scorerFor(report.benchmark))
    : stored
}

function markedIfOld(score: Score): Score {
  return score.interval !== undefined && score.interval.method === undefined
    ? { ...score, interval: { ...score.interval, asSaved: true } }
    : score
}
