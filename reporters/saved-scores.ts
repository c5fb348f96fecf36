import type { Score } from '../harness/score.ts'
import type { RunReport } from './run-report.ts'
import { withIntervals } from './score-interval.ts'
import { reportScores, scorerFor } from './scorers.ts'
import { suiteNamed } from '../suites/registry.ts'

/**
 * A saved report's scores for its model, computed again from its items by the suite's scorer (so a
 * report written by an older version is scored as today's), each with its 95% interval: the one the
 * report stored when its score is the same, else computed again (reporters/score-interval.ts).
 */
export function savedScores(report: RunReport): Score[] {
  const scores = reportScores(report)
  // A suite this process does not know keeps what its run stored, intervals too (reporters/scorers.ts).
  if (suiteNamed(report.benchmark) === undefined) return scores
  const stored = scores.map((score) => {
    const saved = report.scores.find((candidate) => candidate.name === score.name && candidate.model === score.model)
    return score.interval === undefined && saved?.interval !== undefined && saved.value === score.value
      ? { ...score, interval: saved.interval }
      : score
  })
  return stored.some((score) => score.interval === undefined)
    ? withIntervals(stored, report.items, scorerFor(report.benchmark))
    : stored
}
