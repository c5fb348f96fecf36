import { optional, scoringFacts, type FactsOf } from '../../harness/scoring/scoring-facts.ts'
import { SUBSETS } from './dataset.ts'
import { SPLITS } from './options.ts'

/**
 * What each BigCodeBench item records: its split, subset, release and prompt mode; the exclusions
 * of its part of the set (formatExclusions), which the scorer lists and counts; and, once it ran,
 * how the program was found, its time limit and times, and how many test methods passed.
 */
export const bigCodeBenchFacts = scoringFacts('bigcodebench', {
  split: SPLITS,
  subset: SUBSETS,
  version: 'string',
  mode: ['chat', 'completion'],
  calibrated: 'boolean',
  excluded: 'string',
  solutionFrom: optional('string'),
  timeLimitMs: optional('number'),
  cpuMs: optional('number'),
  wallMs: optional('number'),
  idleWallMs: optional('number'),
  methodsPassed: optional('number'),
  methodsTotal: optional('number'),
})
export type BigCodeBenchFacts = FactsOf<typeof bigCodeBenchFacts>
