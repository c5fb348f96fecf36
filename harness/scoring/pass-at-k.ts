import { groupBy } from '../group-by.ts'
import type { ItemRecord } from '../records/item-record.ts'
import { NOT_THE_MODELS_FAULT, OUTCOMES } from '../../adapters/outcome.ts'
import { meanInterval, shareIntervalMethod } from './proportion-interval.ts'
import type { Score } from './score.ts'

/**
 * pass@k (Chen et al. 2021): the chance that at least one of k samples drawn
 * from a problem's n samples, c of them correct, passes; and pass^k, the chance
 * that all k pass (the consistency figure); each averaged over problems, with
 * a 95% interval that holds at 0 and 1 (harness/scoring/proportion-interval.ts).
 */

/** One problem's samples: n asked, c correct. */
export interface SampleCount {
  n: number
  c: number
}

export interface PassAtK {
  k: number
  /** Mean over problems, 0…1. */
  value: number
  /** Standard error of that mean over problems (0 for a single problem). */
  standardError: number
  /** The 95% interval: Wilson's on the effective number of trials, never of zero width. */
  low: number
  high: number
  problems: number
  /** Samples over all problems. */
  samples: number
}

/**
 * The unbiased estimator 1 − C(n−c, k)/C(n, k), computed as
 * 1 − ∏_{i=n−c+1}^{n} (1 − k/i) so that no binomial coefficient overflows.
 */
export function passAtK(n: number, c: number, k: number): number {
  if (!Number.isInteger(n) || !Number.isInteger(c) || !Number.isInteger(k)) {
    throw new Error(`pass@k needs whole numbers, got n=${n}, c=${c}, k=${k}.`)
  }
  if (n < 1 || c < 0 || c > n) throw new Error(`pass@k needs 0 ≤ c ≤ n and n ≥ 1, got n=${n}, c=${c}.`)
  if (k < 1 || k > n)
    throw new Error(`pass@${k} needs 1 ≤ k ≤ n, got n=${n}: ask for at least ${k} samples (SAMPLES=${k}).`)
  if (n - c < k) return 1
  let allFail = 1
  for (let i = n - c + 1; i <= n; i++) allFail *= 1 - k / i
  return 1 - allFail
}

/**
 * pass^k, the unbiased estimator C(c, k)/C(n, k) of the chance that k samples drawn from the n are all
 * correct, computed as ∏_{i=0}^{k−1} (c − i)/(n − i).
 */
export function passHatK(n: number, c: number, k: number): number {
  passAtK(n, c, k)
  let allPass = 1
  for (let i = 0; i < k; i++) allPass *= Math.max(0, c - i) / (n - i)
  return allPass
}

/** pass@k averaged over problems, each with its own n ≥ k. */
export function meanPassAtK(problems: readonly SampleCount[], k: number): PassAtK {
  if (problems.length === 0) throw new Error(`pass@${k} over no problems is undefined.`)
  return meanOverProblems(problems, k, passAtK)
}

/** pass^k averaged over problems, each with its own n ≥ k. */
export function meanPassHatK(problems: readonly SampleCount[], k: number): PassAtK {
  if (problems.length === 0) throw new Error(`pass^${k} over no problems is undefined.`)
  return meanOverProblems(problems, k, passHatK)
}

function meanOverProblems(
  problems: readonly SampleCount[],
  k: number,
  estimate: (n: number, c: number, k: number) => number,
): PassAtK {
  const values = problems.map(({ n, c }) => estimate(n, c, k))
  const value = mean(values)
  const standardError = problems.length > 1 ? Math.sqrt(sampleVariance(values, value) / problems.length) : 0
  const { low, high } = meanInterval(values.map((share, index) => ({ value: share, samples: problems[index]?.n ?? 1 })))
  return { k, value, standardError, low, high, problems: problems.length, samples: sum(problems.map(({ n }) => n)) }
}

/** Every k from 1 to the smallest n over the problems (pass@k needs n ≥ k for each problem). */
export function passAtEveryK(problems: readonly SampleCount[]): PassAtK[] {
  const smallestN = Math.min(...problems.map(({ n }) => n))
  return Array.from({ length: problems.length === 0 ? 0 : smallestN }, (_, index) => meanPassAtK(problems, index + 1))
}

/**
 * Counts samples and correct samples per key (a problem id), from any list of
 * judged samples: e.g. ItemRecords grouped by item.
 */
export function countSamples<T>(
  samples: readonly T[],
  key: (sample: T) => string,
  correct: (sample: T) => boolean,
): Map<string, SampleCount> {
  const counts = new Map<string, SampleCount>()
  for (const sample of samples) {
    const id = key(sample)
    const count = counts.get(id) ?? { n: 0, c: 0 }
    count.n += 1
    if (correct(sample)) count.c += 1
    counts.set(id, count)
  }
  return counts
}

/** `61.6%`, as EvalPlus prints pass@k. */
export function formatPassAtK(result: PassAtK): string {
  return `${(result.value * 100).toFixed(1)}%`
}

/** `61.6% (53.9–68.7)`: a results table's cell, with the 95% interval. */
export function formatPassAtKWithInterval(result: PassAtK): string {
  return `${formatPassAtK(result)} (${(result.low * 100).toFixed(1)}–${(result.high * 100).toFixed(1)})`
}

/** Every k from 2 to the smallest n: pass^k (pass^1 is pass@1). */
export function passHatEveryK(problems: readonly SampleCount[]): PassAtK[] {
  const smallestN = Math.min(...problems.map(({ n }) => n))
  return problems.length === 0
    ? []
    : Array.from({ length: Math.max(0, smallestN - 1) }, (_, index) => meanPassHatK(problems, index + 2))
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0)
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length
}

function sampleVariance(values: readonly number[], average: number): number {
  return values.reduce((sum, value) => sum + (value - average) ** 2, 0) / (values.length - 1)
}

export interface PassAtKScoreOptions {
  /** The benchmark's name for a variant's scores: `HumanEval+` gives `HumanEval+ pass@1`. */
  scoreName(variant: string | undefined): string
  /** Items left out of a variant's score, with the reason (e.g. a broken canonical solution). */
  excluded?(variant: string | undefined): Array<{ itemId: string; reason: string }>
}

/**
 * pass@1 … pass@n for each model and variant from item records, each pass^k
 * (k ≥ 2) after its pass@k: each record is one sample; `provider_error` and
 * `infra_error` samples are not the model's answers and are left out (and
 * counted in the outcomes column). One results row per model: each variant's
 * pass@k with its interval, and its outcomes.
 */
export function scorePassAtK(records: readonly ItemRecord[], options: PassAtKScoreOptions): Score[] {
  const scores: Score[] = []
  for (const group of groupBy(records, (record) => `${record.model}\u0000${record.variant ?? ''}`).values()) {
    const first = group[0]
    if (first === undefined) continue
    const name = options.scoreName(first.variant)
    const answered = group.filter((record) => record.outcome !== undefined && !NOT_THE_MODELS_FAULT.has(record.outcome))
    const counts = [
      ...countSamples(
        answered,
        (record) => record.itemId,
        (record) => record.outcome === 'passed',
      ).values(),
    ]
    const excluded = options.excluded?.(first.variant) ?? []
    const columns: Record<string, string> = { Model: first.model }
    const consistency = new Map(passHatEveryK(counts).map((result) => [result.k, result]))
    const variantScores = passAtEveryK(counts).flatMap((result): Score[] => {
      columns[`${name} pass@${result.k}`] = formatPassAtKWithInterval(result)
      const common = { suite: first.suite, model: first.model, ...(excluded.length > 0 ? { excluded } : {}) }
      const passAt: Score = {
        ...common,
        ...passAtKScore(`${name} pass@${result.k}`, result),
        counted: { solved: counts.filter(({ c }) => c > 0).length, total: counts.length },
      }
      const allOf = consistency.get(result.k)
      if (allOf === undefined) return [passAt]
      columns[`${name} pass^${result.k}`] = formatPassAtKWithInterval(allOf)
      return [
        passAt,
        {
          ...common,
          ...passAtKScore(`${name} pass^${result.k}`, allOf),
          counted: { solved: counts.filter(({ c, n }) => c === n).length, total: counts.length },
        },
      ]
    })
    columns[`${name} outcomes`] = outcomeSummary(group)
    const [passAt1] = variantScores
    if (passAt1 !== undefined) passAt1.columns = columns
    scores.push(...variantScores)
  }
  return scores
}

/** A pass@k or pass^k as a score's value, display and interval. */
export function passAtKScore(name: string, result: PassAtK): Pick<Score, 'name' | 'value' | 'display' | 'interval'> {
  return {
    name,
    value: result.value,
    display: formatPassAtK(result),
    interval: { low: result.low, high: result.high, method: shareIntervalMethod(result.problems, result.samples) },
  }
}

/** `passed 160, wrong_answer 3, timeout 1`, in the order of OUTCOMES. */
export function outcomeSummary(records: readonly ItemRecord[]): string {
  const counts = new Map<string, number>()
  for (const record of records)
    counts.set(record.outcome ?? 'unfinished', (counts.get(record.outcome ?? 'unfinished') ?? 0) + 1)
  return [...OUTCOMES, 'unfinished']
    .filter((outcome) => counts.has(outcome))
    .map((outcome) => `${outcome} ${counts.get(outcome)}`)
    .join(', ')
}
