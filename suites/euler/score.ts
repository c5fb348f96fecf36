import { groupBy } from '../../harness/group-by.ts'
/**
 * The PE-Bench scores, from the item records alone, as the original's scripts compute them:
 * - PE-Bench-<Language>-<N> = Σ points of the solved problems / N, N the problems asked
 *   (points = 1325386 / solved_by, recorded per item), rounded to 2 decimals (`execute.py`); with
 *   several samples a problem counts with the share of its samples that passed;
 * - PE-<N>-Score (`publish.py`): the rounded language scores weighted Python 4, Java 3, Rust 2,
 *   Clojure 1, a language not run counting 0, over 10; only for a model that ran Python;
 * - the results table row: Model | Best Model for Size (GB) | PE-<N>-Score | Mem-Score | size,
 *   bits, context | one column per language. Mem-Score = 100 · PE-<N>-Score / memory (GB); the
 *   rows are ordered and "Best Model for Size" filled across models in results-table.ts.
 */
import type { ItemRecord } from '../../harness/records/item-record.ts'
import type { Score, ScoreInterval, Scorer } from '../../harness/scoring/score.ts'
import { meanInterval, WILSON_EFFECTIVE } from '../../harness/scoring/proportion-interval.ts'
import { optional, scoringFacts, type FactsOf } from '../../harness/scoring/scoring-facts.ts'
import { LANGUAGES, LANGUAGE_IDS, type LanguageId } from './languages.ts'
import { memoryGB, modelSize } from './model-size.ts'
import { ERAS, MODES, type Mode } from './knobs.ts'
import type { ThinkSetting } from '../../adapters/models/model-adapter.ts'
import { pythonFixed, pythonRound } from '../../harness/scoring/python-round.ts'

export const SUITE = 'euler'
export const THINKING = ['think', 'no_think'] as const
export type Thinking = (typeof THINKING)[number]

/** Upstream's store-name suffix for a thinking switch: `--think` gives `-think`, `--no_think` gives `-no_think`. */
export function thinkingOf(think: ThinkSetting | undefined): Thinking | undefined {
  if (think === undefined) return undefined
  return think === 'off' ? 'no_think' : 'think'
}
/**
 * What each PE-Bench item records: its problem's points (1325386 / solved_by), number and prompt
 * era, and the model's size when the user stated it (TESTBENCH_EULER_PARAMETERS, _BITS).
 */
export const eulerFacts = scoringFacts('euler', {
  points: 'number',
  problem: 'number',
  era: ERAS,
  parameters: optional('number'),
  bits: optional('number'),
  /** Absent: one-shot (the records of runs before tool mode existed). */
  mode: optional(MODES),
  /** TESTBENCH_THINK as upstream names its store: `think` (on, or an effort), `no_think` (off); absent: the model's default. */
  thinking: optional(THINKING),
})
export type EulerFacts = FactsOf<typeof eulerFacts>

/** The original's weights, in the order it adds them up (the order matters for the last bit of a float). */
export const COMBINED_WEIGHTS: ReadonlyArray<readonly [LanguageId, number]> = [
  ['python', 4],
  ['java', 3],
  ['rust', 2],
  ['clojure', 1],
]
const TOTAL_WEIGHT = 10

export const BEST_FOR_SIZE_COLUMN = 'Best Model for Size (GB)'
export const MEM_SCORE_COLUMN = 'Mem-Score'
export const SIZE_COLUMN = 'Size (B params)'
export const BITS_COLUMN = 'Quantization (bits)'
export const ERA_COLUMN = 'Era'
/** Upstream's README sections: Non-Thinking, Thinking, Non-Thinking Tool Usage, Thinking Tool Usage. */
export const SECTION_COLUMN = 'Section'

/** The combined score before printing, over the problems Python ran. */
interface CombinedValue {
  problems: number
  value: number
  interval?: ScoreInterval
}

interface ProblemResult {
  points: number
  share: number
  samples: number
}

interface LanguageScore {
  /** Each problem's points and the share of its samples that passed. */
  perProblem: Map<string, ProblemResult>
  language: string
  mode: Mode
  /** One-shot: the problems asked; tool mode: the batch's highest problem number, as upstream's `<lang>-200-tool`. */
  named: number
  problems: number
  solved: number
  /** Rounded to 2 decimals, as the original stores it. */
  value: number
}

export const scoreEuler: Scorer = (records) => {
  const scores: Score[] = []
  for (const [model, modelRecords] of groupBy(
    records.filter((record) => record.suite === SUITE),
    (record) => record.model,
  )) {
    for (const runRecords of runsOf(modelRecords)) {
      const facts = runRecords.map((record) => eulerFacts.readIfRecorded(record)).find((each) => each !== undefined)
      const mode = facts?.mode ?? 'oneshot'
      const languageScores = [...groupBy(runRecords, (record) => record.variant ?? 'python')]
        .map(([language, languageRecords]) => languageScore(language, languageRecords, mode))
        .sort((a, b) => languageOrder(a.language) - languageOrder(b.language))
      const perLanguage = languageScores.map((score) => toScore(model, score))
      const raw = combinedOf(languageScores, mode)
      const combined = raw && combinedScore(model, raw, mode)
      const row = combined ?? perLanguage[0]
      if (row) row.columns = tableRow(model, runRecords, languageScores, raw, mode, facts?.thinking)
      scores.push(...perLanguage, ...(combined ? [combined] : []))
    }
  }
  return scores
}

/** `PE-Bench-Python-100`; tool mode, after upstream's `python-200-tool`: `PE-Bench-Python-200-tool`. */
/**
 * A model's records by run (mode and thinking switch); a record that broke before it recorded its facts joins
 * the model's first run, where it counts as asked and unsolved.
 */
function runsOf(records: readonly ItemRecord[]): ItemRecord[][] {
  const runs = groupBy(
    records.filter((record) => eulerFacts.readIfRecorded(record) !== undefined),
    (record) => {
      const facts = eulerFacts.read(record)
      return `${facts.mode ?? 'oneshot'} ${facts.thinking ?? ''}`
    },
  )
  const withoutFacts = records.filter((record) => eulerFacts.readIfRecorded(record) === undefined)
  const [first] = runs.values()
  if (withoutFacts.length === 0) return [...runs.values()]
  if (first === undefined) return [withoutFacts]
  first.push(...withoutFacts)
  return [...runs.values()]
}

export function languageScoreName(language: string, problems: number, mode: Mode = 'oneshot'): string {
  return `PE-Bench-${languageName(language)}-${problems}${mode === 'tool' ? '-tool' : ''}`
}

/** `PE-100-Score`; tool mode `PE-200-tool-Score`. */
export function combinedScoreName(problems: number, mode: Mode = 'oneshot'): string {
  return `PE-${problems}-${mode === 'tool' ? 'tool-' : ''}Score`
}

/** The model as upstream's store names it: `-think` or `-no_think` after the name when the switch was set. */
export function storeName(model: string, thinking: Thinking | undefined): string {
  return thinking === undefined ? model : `${model}-${thinking}`
}

/** The README section the row belongs in; thinking left to the model's default counts as Non-Thinking. */
export function sectionOf(mode: Mode, thinking: Thinking | undefined): string {
  return `${thinking === 'think' ? 'Thinking' : 'Non-Thinking'}${mode === 'tool' ? ' Tool Usage' : ''}`
}

/**
 * `publish.py`'s combined score before it is printed: Σ weight × language score (2 decimals, as
 * stored), a language without a score counting 0, over 10. Undefined without a Python score.
 */
export function combinedValue(languageValue: (language: LanguageId) => number | undefined): number | undefined {
  if (languageValue('python') === undefined) return undefined
  let sum = 0
  for (const [language, weight] of COMBINED_WEIGHTS) sum += weight * (languageValue(language) ?? 0)
  return sum / TOTAL_WEIGHT
}

function languageScore(language: string, records: readonly ItemRecord[], mode: Mode): LanguageScore {
  let points = 0
  let solved = 0
  const perProblem = new Map<string, ProblemResult>()
  const byProblem = groupBy(records, (record) => record.itemId)
  for (const [itemId, samples] of byProblem) {
    // A sample that broke before it recorded its facts did not pass; when none of the problem's samples has
    // them, the problem still counts as asked and unsolved, as a problem whose samples broke later does.
    const problemPoints =
      samples.map((record) => eulerFacts.readIfRecorded(record)?.points).find((points) => points !== undefined) ?? 0
    const share = samples.filter((record) => record.outcome === 'passed').length / samples.length
    points += problemPoints * share
    solved += share
    perProblem.set(itemId, { points: problemPoints, share, samples: samples.length })
  }
  const problems = byProblem.size
  const highest = Math.max(
    0,
    ...records.map((record) => eulerFacts.readIfRecorded(record)?.problem ?? (Number(record.itemId) || 0)),
  )
  // Over every problem asked, solved or not: upstream's tool mode divides by the problems recorded so far (see the README).
  return {
    perProblem,
    language,
    mode,
    named: mode === 'tool' ? highest : problems,
    problems,
    solved,
    value: problems === 0 ? 0 : pythonRound(points / problems, 2),
  }
}

function toScore(model: string, score: LanguageScore): Score {
  return {
    suite: SUITE,
    model,
    name: languageScoreName(score.language, score.named, score.mode),
    value: score.value,
    display: pythonFixed(score.value, 2),
    ...pointsInterval(
      [...score.perProblem.values()].map(({ points, share, samples }) => ({ points, share, samples })),
      score.value,
    ),
    counted: { solved: score.solved, total: score.problems },
  }
}

/**
 * The 95% interval of Σ points × share / problems: the problems' mean points times the points-weighted share
 * solved, whose interval is Wilson's on the effective sample size of that weighted mean (a few problems worth
 * many points count as few trials). Kept around `value`, which is rounded as the original rounds it.
 */
function pointsInterval(
  problems: ReadonlyArray<{ points: number; share: number; samples: number }>,
  value: number,
): { interval?: ScoreInterval } {
  const weighted = problems.filter(({ points }) => points > 0)
  if (weighted.length === 0) return {}
  const meanPoints = weighted.reduce((sum, { points }) => sum + points, 0) / problems.length
  const { low, high } = meanInterval(
    weighted.map(({ points, share, samples }) => ({ value: share, weight: points, samples })),
  )
  return {
    interval: {
      low: Math.min(value, meanPoints * low),
      high: Math.max(value, meanPoints * high),
      method: WILSON_EFFECTIVE,
    },
  }
}

/** The combined score over the problems Python ran; a language run on other problems counts as not run. */
function combinedOf(scores: readonly LanguageScore[], mode: Mode): CombinedValue | undefined {
  const problems = scores.find((score) => score.language === 'python')?.named
  if (problems === undefined) return undefined
  const counted = (language: LanguageId) =>
    scores.find((score) => score.language === language && score.named === problems && score.mode === mode)
  const value = combinedValue((language) => counted(language)?.value)
  if (value === undefined) return undefined
  // Per Python problem, the weighted share of its languages' samples that passed (a language not run counts 0).
  const python = counted('python')?.perProblem ?? new Map<string, ProblemResult>()
  const perProblem = [...python].map(([problem, { points, samples }]) => {
    let share = 0
    for (const [language, weight] of COMBINED_WEIGHTS)
      share += (weight / TOTAL_WEIGHT) * (counted(language)?.perProblem.get(problem)?.share ?? 0)
    return { points, share: Math.min(1, share), samples }
  })
  const rounded = Number(pythonFixed(value, 2))
  return { problems, value, ...pointsInterval(perProblem, rounded) }
}

function combinedScore(model: string, combined: CombinedValue, mode: Mode): Score {
  const display = pythonFixed(combined.value, 2)
  return {
    suite: SUITE,
    model,
    name: combinedScoreName(combined.problems, mode),
    value: Number(display),
    display,
    ...(combined.interval ? { interval: combined.interval } : {}),
  }
}

/** Model | Best Model for Size (GB) | PE-<N>-Score | Mem-Score | Size (B params) | Quantization (bits) | Context (K) | PE-Bench-Python-<N> | … */
function tableRow(
  model: string,
  records: readonly ItemRecord[],
  scores: readonly LanguageScore[],
  combined: CombinedValue | undefined,
  mode: Mode,
  thinking: Thinking | undefined,
): Record<string, string> {
  const [first] = records
  const details = first?.modelDetails ?? {}
  const facts = records.map((record) => eulerFacts.readIfRecorded(record)).find((each) => each !== undefined)
  const size = modelSize(model, details, {
    ...(facts?.parameters === undefined ? {} : { parameters: facts.parameters }),
    ...(facts?.bits === undefined ? {} : { bits: facts.bits }),
  })
  const row: Record<string, string> = { Model: storeName(model, thinking), [BEST_FOR_SIZE_COLUMN]: '' }
  if (combined) {
    const memory = memoryGB(size)
    row[combinedScoreName(combined.problems, mode)] = pythonFixed(combined.value, 2)
    // 100 · the combined score before printing / memory, no decimals.
    row[MEM_SCORE_COLUMN] = memory === undefined ? '' : pythonFixed((100 * combined.value) / memory, 0)
  }
  // In full: the memory columns are computed from it (0.354 B at 4 bits is 0.27 GB, 0.35 B would give 0.26).
  row[SIZE_COLUMN] = size.parameters === undefined ? '' : String(size.parameters)
  row[BITS_COLUMN] = size.bits === undefined ? '' : String(size.bits)
  row['Context (K)'] = contextKilo(details.contextLength)
  for (const score of scores)
    row[languageScoreName(score.language, score.named, score.mode)] = pythonFixed(score.value, 2)
  if (facts?.era === 'pe100') row[ERA_COLUMN] = 'pe100'
  if (mode === 'tool' || thinking !== undefined) row[SECTION_COLUMN] = sectionOf(mode, thinking)
  return row
}

/** Context length in tokens → thousands of tokens as the original writes them (32768 → 32, 131072 → 128). */
export function contextKilo(length: string | number | undefined): string {
  const tokens = Number(length)
  return length === undefined || length === '' || !Number.isFinite(tokens) || tokens <= 0
    ? ''
    : String(Math.round(tokens / 1024))
}

function languageName(language: string): string {
  return isLanguageId(language) ? LANGUAGES[language].name : language
}

function languageOrder(language: string): number {
  return isLanguageId(language) ? LANGUAGE_IDS.indexOf(language) : LANGUAGE_IDS.length
}

function isLanguageId(value: string): value is LanguageId {
  return (LANGUAGE_IDS as readonly string[]).includes(value)
}
