import { groupBy } from './group-by.ts'
import type { ItemRecord } from './item-record.ts'
import { NOT_THE_MODELS_FAULT, OUTCOMES } from '../adapters/outcome.ts'
import type { Score } from './score.ts'

/**
 * pass@k (Chen et al. 2021): the chance that at least one of k samples drawn
 * from a problem's n samples, c of them correct, passes; averaged over problems,
 * with a 95% interval from the standard error over problems.
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
  /** The 95% interval, value ± 1.96 standard errors, clipped to 0…1. */
  low: number
  high: number
  problems: number
}

const Z_95 = 1.959963984540054

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

/** pass@k averaged over problems, each with its own n ≥ k. */
export function meanPassAtK(problems: readonly SampleCount[], k: number): PassAtK {
  if (problems.length === 0) throw new Error(`pass@${k} over no problems is undefined.`)
  const values = problems.map(({ n, c }) => passAtK(n, c, k))
  const value = mean(values)
  const standardError = problems.length > 1 ? Math.sqrt(sampleVariance(values, value) / problems.length) : 0
  return {
    k,
    value,
    standardError,
    low: Math.max(0, value - Z_95 * standardError),
    high: Math.min(1, value + Z_95 * standardError),
    problems: problems.length,
  }
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

/** `61.6% ± 3.8` (half-width of the 95% interval, in points). */
export function formatPassAtK(result: PassAtK): string {
  const halfWidth = Z_95 * result.standardError * 100
  return `${(result.value * 100).toFixed(1)}% ± ${halfWidth.toFixed(1)}`
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
 * pass@1 … pass@n for each model and variant from item records: each record is
 * one sample; `provider_error` and `infra_error` samples are not the model's
 * answers and are left out (and counted in the outcomes column). One results
 * row per model: each variant's pass@k with its interval, and its outcomes.
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
    const variantScores = passAtEveryK(counts).map((result): Score => {
      const display = formatPassAtK(result)
      columns[`${name} pass@${result.k}`] = display
      return {
        suite: first.suite,
        model: first.model,
        name: `${name} pass@${result.k}`,
        value: result.value,
        interval: { low: result.low, high: result.high },
        display,
        counted: { solved: counts.filter(({ c }) => c > 0).length, total: counts.length },
        ...(excluded.length > 0 ? { excluded } : {}),
      }
    })
    columns[`${name} outcomes`] = outcomeSummary(group)
    const [passAt1] = variantScores
    if (passAt1 !== undefined) passAt1.columns = columns
    scores.push(...variantScores)
  }
  return scores
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
