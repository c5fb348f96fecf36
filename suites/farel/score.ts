/**
 * FaRel-L: the mean over relationship classes of each class's accuracy (%),
 * as the original farel-bench computes it: each class's accuracy as its log
 * prints it (2 decimals), their mean rounded as pandas rounds; a reply without
 * an answer counts as wrong. Computed from the item records alone.
 */
import type { ItemRecord } from '../../harness/records/item-record.ts'
import { NOT_THE_MODELS_FAULT } from '../../adapters/outcome.ts'
import type { Score, ScoreInterval, Scorer } from '../../harness/scoring/score.ts'
import { meanInterval, STRATIFIED_WILSON } from '../../harness/scoring/proportion-interval.ts'
import type { SampleCount } from '../../harness/scoring/pass-at-k.ts'
import { numpyRound, pythonFixed, pythonRound } from '../../harness/scoring/python-round.ts'
import { optional, scoringFacts, type FactsOf } from '../../harness/scoring/scoring-facts.ts'
import { PARSES, type Parse } from './answer.ts'

export const SUITE = 'farel'

/**
 * What each FaRel item records: its class (`child`, `niece or nephew`…), the class's relationship
 * length and position among the classes of that length (for the column order), L of FaRel-L, the
 * correct option's number and how many options there were, the system prompt and template used,
 * how the quiz set was drawn (`python-compat seed 42, 50 per class, shuffled`), whether it is
 * the published set, and the answer parse when it is not the original's (TESTBENCH_FAREL_PARSE).
 */
export const farelFacts = scoringFacts(SUITE, {
  relation: 'string',
  length: 'number',
  rank: 'number',
  maxLength: 'number',
  correct: 'number',
  options: 'number',
  system: ['none', 'default', 'custom'],
  template: ['default', 'custom'],
  set: 'string',
  published: 'boolean',
  parse: optional(PARSES),
})
export type FarelScoring = FactsOf<typeof farelFacts>

export interface ClassTally {
  relation: string
  length: number
  rank: number
  correct: number
  incorrect: number
  /** No answer tag in the reply. */
  missing: number
  /** correct / (correct + incorrect + missing), in %, to 2 decimals as the original's log prints it. */
  accuracy: number
  /** Each quiz's samples and correct samples, for the score's interval. */
  quizzes: Map<string, SampleCount>
}

/** One model's run under one configuration (length, system prompt, template, quiz set). */
export interface FarelRun {
  model: string
  maxLength: number
  system: FarelScoring['system']
  template: FarelScoring['template']
  set: string
  published: boolean
  parse: Parse
  classes: ClassTally[]
  excluded: Array<{ itemId: string; reason: string }>
}

/** The records' runs, each with its per-class tallies (classes shortest first, in branch order). */
export function farelRuns(records: readonly ItemRecord[]): FarelRun[] {
  const runs = new Map<string, FarelRun & { tallies: Map<string, ClassTally> }>()
  const withoutFacts: ItemRecord[] = []
  for (const record of records) {
    if (record.suite !== SUITE) continue
    const scoring = farelFacts.readIfRecorded(record)
    if (scoring === undefined) {
      withoutFacts.push(record)
      continue
    }
    const parse = scoring.parse ?? 'tag'
    const key = JSON.stringify([record.model, scoring.maxLength, scoring.system, scoring.template, scoring.set, parse])
    let run = runs.get(key)
    if (run === undefined) {
      run = {
        model: record.model,
        maxLength: scoring.maxLength,
        system: scoring.system,
        template: scoring.template,
        set: scoring.set,
        published: scoring.published,
        parse,
        classes: [],
        excluded: [],
        tallies: new Map(),
      }
      runs.set(key, run)
    }
    const outcome = record.outcome
    const sample = record.sample > 0 ? ` (sample ${record.sample})` : ''
    if (outcome === undefined || NOT_THE_MODELS_FAULT.has(outcome)) {
      run.excluded.push({ itemId: `${record.itemId}${sample}`, reason: outcome === undefined ? 'unfinished' : outcome })
      continue
    }
    let tally = run.tallies.get(scoring.relation)
    if (tally === undefined) {
      tally = {
        relation: scoring.relation,
        length: scoring.length,
        rank: scoring.rank,
        correct: 0,
        incorrect: 0,
        missing: 0,
        accuracy: 0,
        quizzes: new Map(),
      }
      run.tallies.set(scoring.relation, tally)
    }
    if (outcome === 'passed') tally.correct++
    else if (outcome === 'no_answer') tally.missing++
    else tally.incorrect++
    const quiz = tally.quizzes.get(record.itemId) ?? { n: 0, c: 0 }
    quiz.n++
    if (outcome === 'passed') quiz.c++
    tally.quizzes.set(record.itemId, quiz)
  }
  // An item that broke before it recorded its facts has no class to count in: each of its model's runs leaves it out.
  for (const record of withoutFacts) {
    const sample = record.sample > 0 ? ` (sample ${record.sample})` : ''
    for (const run of runs.values())
      if (run.model === record.model)
        run.excluded.push({ itemId: `${record.itemId}${sample}`, reason: record.outcome ?? 'unfinished' })
  }
  return [...runs.values()].map(({ tallies, ...run }) => ({
    ...run,
    classes: [...tallies.values()]
      .map((tally) => ({
        ...tally,
        accuracy: pythonRound((100 * tally.correct) / (tally.correct + tally.incorrect + tally.missing), 2),
      }))
      .sort((a, b) => a.length - b.length || a.rank - b.rank || a.relation.localeCompare(b.relation)),
  }))
}

/** The macro-average: the mean of the per-class accuracies, in %, rounded to 2 decimals as `compute_metrics.py` (pandas) does. */
export function macroAverage(classes: readonly ClassTally[]): number {
  if (classes.length === 0) return 0
  return numpyRound(classes.reduce((sum, tally) => sum + tally.accuracy, 0) / classes.length, 2)
}

/**
 * The macro-average's 95% interval, in %: the classes are strata of fixed size (the set draws a fixed number of
 * quizzes per class), each weighing 1 / classes; Wilson's on the effective sample size of that weighted mean
 * (with one sample per quiz and classes of one size, the number of quizzes: Yan and Su's stratified Wilson).
 */
export function macroAverageInterval(classes: readonly ClassTally[]): ScoreInterval | undefined {
  const units = classes.flatMap((tally) => {
    const samples = tally.correct + tally.incorrect + tally.missing
    return [...tally.quizzes.values()].map(({ n, c }) => ({
      value: c / n,
      weight: n / (samples * classes.length),
      samples: n,
    }))
  })
  if (units.length === 0) return undefined
  const { low, high } = meanInterval(units)
  return { low: 100 * low, high: 100 * high, method: STRATIFIED_WILSON }
}

/**
 * One score per model and configuration, named `FaRel-<L>` (`-sys` with a
 * system prompt, `-custom` with a template or system prompt of one's own,
 * ` (tag-or-boxed)` when answers were read with TESTBENCH_FAREL_PARSE=tag-or-boxed),
 * its columns in the original results-table layout (Model | FaRel-3 | child
 * | parent | …), then each class's correct/incorrect/missing counts.
 */
export const scoreFarel: Scorer = (records) => {
  const runs = farelRuns(records)
  const scores = runs.map((run) => {
    const mean = macroAverage(run.classes)
    const headline = `FaRel-${run.maxLength}`
    const sys = run.system === 'none' ? '' : '-sys'
    const custom = run.system === 'custom' || run.template === 'custom' ? '-custom' : ''
    const columns: Record<string, string> = { Model: `${run.model}${sys}`, [headline]: pythonFixed(mean, 2) }
    for (const tally of run.classes) columns[tally.relation] = pythonFixed(tally.accuracy, 2)
    for (const tally of run.classes)
      columns[`${tally.relation} C/I/M`] = `${tally.correct}/${tally.incorrect}/${tally.missing}`
    const solved = run.classes.reduce((sum, tally) => sum + tally.correct, 0)
    const total = run.classes.reduce((sum, tally) => sum + tally.correct + tally.incorrect + tally.missing, 0)
    const score: Score = {
      suite: SUITE,
      model: run.model,
      name: `${headline}${sys}${custom}${run.parse === 'tag' ? '' : ` (${run.parse})`}`,
      value: mean,
      display: pythonFixed(mean, 2),
      ...withInterval(macroAverageInterval(run.classes)),
      counted: { solved, total },
      columns,
    }
    if (run.excluded.length > 0) score.excluded = run.excluded
    return { score, run }
  })
  // Two runs of one model under one name differ in their quiz set: say which set each is.
  for (const { score, run } of scores) {
    const twins = scores.filter((other) => other.score.model === score.model && other.score.name === score.name)
    if (twins.length > 1 && !run.published) score.name = `${score.name} (${run.set})`
  }
  return scores.map(({ score }) => score)
}

function withInterval(interval: ScoreInterval | undefined): { interval?: ScoreInterval } {
  return interval === undefined ? {} : { interval }
}
