import { groupBy } from '../../harness/group-by.ts'
import { formatPValue } from './mcnemar.ts'

/**
 * B − A between two runs on the same items, with its 95% interval: Tango's (1998) score interval for
 * the difference of paired proportions, which holds near 0 and ±1 and is never of zero width, even when
 * no item flipped. With several samples per item the pairs of one item are not independent: their counts
 * are divided by the design effect of the difference (Rao and Scott 1992), which widens the interval as
 * much as the items' samples agree with each other.
 */
export interface PairedOutcome {
  /** What groups the pairs of one item (its variant and id); its samples share it. */
  cluster: string
  passedA: boolean
  passedB: boolean
}

export interface PairedDifference {
  /** B − A in percentage points. */
  points: number
  /** The 95% interval of B − A, in points. */
  low: number
  high: number
  /** The design effect the flips were divided by (1 with one sample per item). */
  designEffect: number
}

const Z_95 = 1.959963984540054

export function pairedDifference(pairs: readonly PairedOutcome[]): PairedDifference | undefined {
  const total = pairs.length
  if (total === 0) return undefined
  const failToPass = pairs.filter((pair) => pair.passedB && !pair.passedA).length
  const passToFail = pairs.filter((pair) => pair.passedA && !pair.passedB).length
  const designEffect = clusterDesignEffect(pairs)
  const { low, high } = tangoInterval(failToPass / designEffect, passToFail / designEffect, total / designEffect)
  return { points: (100 * (failToPass - passToFail)) / total, low: 100 * low, high: 100 * high, designEffect }
}

/**
 * Tango's interval of Δ = (n12 − n21)/N: the Δ0 whose score statistic
 * (n12 − n21 − NΔ0) / √(N(2p̃21 + Δ0(1 − Δ0))) lies within ±1.96, p̃21 the constrained maximum-likelihood
 * estimate under Δ0. The statistic falls as Δ0 rises, so each end is found by bisection.
 */
export function tangoInterval(n12: number, n21: number, total: number): { low: number; high: number } {
  const estimate = (n12 - n21) / total
  const statistic = (delta: number): number => {
    const a = 2 * total
    const b = -n12 - n21 + (2 * total - n12 + n21) * delta
    const c = -n21 * delta * (1 - delta)
    const p21 = (Math.sqrt(Math.max(0, b * b - 4 * a * c)) - b) / (2 * a)
    const variance = total * (2 * p21 + delta * (1 - delta))
    const numerator = n12 - n21 - total * delta
    if (numerator === 0) return 0
    return variance > 0 ? numerator / Math.sqrt(variance) : Math.sign(numerator) * Infinity
  }
  const solve = (target: number, from: number, to: number): number => {
    let low = from
    let high = to
    for (let step = 0; step < 80; step++) {
      const middle = (low + high) / 2
      if (statistic(middle) > target) low = middle
      else high = middle
    }
    return (low + high) / 2
  }
  return {
    low: estimate <= -1 ? -1 : solve(Z_95, -1, estimate),
    high: estimate >= 1 ? 1 : solve(-Z_95, estimate, 1),
  }
}

/**
 * The variance of the mean difference with the pairs grouped by item, over its variance were every pair
 * independent; at least 1. Pairs that are all alike (no flip) leave it at 1.
 */
function clusterDesignEffect(pairs: readonly PairedOutcome[]): number {
  const clusters = [...groupBy(pairs, (pair) => pair.cluster).values()]
  if (clusters.length < 2 || clusters.length === pairs.length) return 1
  const differences = pairs.map((pair) => Number(pair.passedB) - Number(pair.passedA))
  const mean = differences.reduce((sum, value) => sum + value, 0) / pairs.length
  const independent = differences.reduce((sum, value) => sum + (value - mean) ** 2, 0) / pairs.length
  if (!(independent > 0)) return 1
  let grouped = 0
  for (const cluster of clusters) {
    const residual = cluster.reduce((sum, pair) => sum + Number(pair.passedB) - Number(pair.passedA) - mean, 0)
    grouped += residual * residual
  }
  grouped = (grouped / pairs.length) * (clusters.length / (clusters.length - 1))
  return Math.max(1, grouped / independent)
}

/** `+4.3 points (95 % interval +1.2 to +7.4), p = 0.0060, 12 items pass → fail, 19 fail → pass`. */
export function pairedLine(
  difference: PairedDifference,
  pValue: number,
  passToFail: number,
  failToPass: number,
): string {
  return `${formatPairedDifference(difference)}, p = ${formatPValue(pValue)}, ${passToFail} items pass → fail, ${failToPass} fail → pass`
}

/** `+4.3 points (95 % interval +1.2 to +7.4)`. */
export function formatPairedDifference(difference: PairedDifference): string {
  return `${signedPoints(difference.points)} points (95 % interval ${signedPoints(difference.low)} to ${signedPoints(difference.high)})`
}

function signedPoints(points: number): string {
  const text = Math.abs(points).toFixed(1)
  if (text === '0.0') return '0.0'
  return points < 0 ? `−${text}` : `+${text}`
}
