/**
 * 95% intervals for scores that are shares (0…1), with coverage close to 95% at every value, 0 and 1 included,
 * and never of zero width on a finite set:
 * - `wilsonInterval`: the Wilson score interval with Brown, Cai and DasGupta's (2001) change one or three
 *   successes (or failures) from an edge, where the plain Wilson interval covers too little;
 * - `meanInterval`: the same on an effective sample size, for a mean of per-item shares (pass@k over several
 *   samples, pass^k), a weighted one (PE-Bench's points) or a macro-average over fixed classes (FaRel):
 *   n_eff = p̂(1 − p̂) / Var(p̂) (Korn and Graubard 1998), the variance taken over the items as they were drawn,
 *   at most the information the items hold, and Kish's (Σw)² / Σw² where the variance is 0 (every share at 0
 *   or 1). What n_eff gains over Kish's size from a variance estimated on few items is shrunk by (z / t)², t
 *   Student's on the variance's Satterthwaite degrees of freedom (Korn and Graubard's correction). For a macro-average over
 *   classes of fixed size, Kish's size is Yan and Su's (2010) stratified Wilson.
 */

export interface ProportionInterval {
  low: number
  high: number
}

const Z_95 = 1.959963984540054
/** One-sided level of the Poisson bound next to an edge (Brown, Cai and DasGupta's choice). */
const EDGE_ALPHA = 0.05

/** The 95% Wilson score interval of `successes` out of `trials` (both may be effective, non-whole counts). */
export function wilsonInterval(successes: number, trials: number): ProportionInterval {
  if (!(trials > 0) || successes < 0 || successes > trials + 1e-9)
    throw new RangeError(`a Wilson interval needs 0 ≤ successes ≤ trials and trials > 0, got ${successes}/${trials}.`)
  const share = Math.min(1, successes / trials)
  const z2 = Z_95 * Z_95
  const denominator = 1 + z2 / trials
  const centre = (share + z2 / (2 * trials)) / denominator
  const halfWidth = (Z_95 * Math.sqrt((share * (1 - share)) / trials + z2 / (4 * trials * trials))) / denominator
  let low = Math.max(0, centre - halfWidth)
  let high = Math.min(1, centre + halfWidth)
  // A few successes (or failures) from an edge the Wilson bound on that side sits too close to the share: the
  // one-sided Poisson bound replaces it.
  const nearEdge = trials <= 50 ? 2 : 3
  const atLow = Math.round(successes)
  const atHigh = Math.round(trials - successes)
  if (atLow >= 1 && atLow <= nearEdge && atLow < atHigh) low = Math.min(low, poissonLowerBound(atLow) / trials)
  if (atHigh >= 1 && atHigh <= nearEdge && atHigh < atLow) high = Math.max(high, 1 - poissonLowerBound(atHigh) / trials)
  return { low: Math.min(low, share), high: Math.max(high, share) }
}

/** One item (a problem, a quiz, an instance) of a mean of shares. */
export interface ShareUnit {
  /** The item's share, 0…1: passed or not, the share of its samples that passed, its pass@k or pass^k. */
  value: number
  /** Its weight in the mean (PE-Bench's points, 1 / class size for a macro-average). Default: 1. */
  weight?: number
  /** Samples behind the value. Default: 1. */
  samples?: number
}

export interface MeanInterval extends ProportionInterval {
  value: number
  /** The effective number of independent pass/fail trials behind the mean. */
  effectiveSize: number
}

/** The weighted mean of the items' shares with its 95% interval: Wilson's on the effective sample size. */
export function meanInterval(units: readonly ShareUnit[]): MeanInterval {
  if (units.length === 0) throw new RangeError('a mean interval needs at least one item.')
  let totalWeight = 0
  let squaredWeights = 0
  let weighted = 0
  let samples = 0
  for (const unit of units) {
    const weight = unit.weight ?? 1
    if (!(weight > 0) || !(unit.value >= 0 && unit.value <= 1))
      throw new RangeError(`a mean interval needs shares 0…1 with weights > 0, got ${unit.value} weighing ${weight}.`)
    totalWeight += weight
    squaredWeights += weight * weight
    weighted += weight * unit.value
    samples += unit.samples ?? 1
  }
  const value = Math.min(1, weighted / totalWeight)
  const kish = (totalWeight * totalWeight) / squaredWeights
  // Several samples per item hold more than one trial each, never more than all of them.
  const most = kish * Math.max(1, samples / units.length)
  let variance = 0
  let squaredTerms = 0
  for (const unit of units) {
    const term = ((unit.weight ?? 1) * (unit.value - value)) ** 2
    variance += term
    squaredTerms += term * term
  }
  // Satterthwaite's degrees of freedom: how many items the variance really rests on (few, when most items
  // always pass and a handful do not).
  const degreesOfFreedom = squaredTerms > 0 ? (variance * variance) / squaredTerms : units.length - 1
  variance /= totalWeight * totalWeight
  const spread = value * (1 - value)
  const estimated = variance > 1e-15 ? Math.min(most, spread / variance) : spread > 0 ? most : kish
  const effectiveSize =
    estimated > kish ? kish + (estimated - kish) * (Z_95 / studentT975(degreesOfFreedom)) ** 2 : estimated
  return { value, effectiveSize, ...wilsonInterval(value * effectiveSize, effectiveSize) }
}

/**
 * Student's t 97.5 % quantile on `df` degrees of freedom, not necessarily whole: Cornish–Fisher from 3 on
 * (within 0.1 %), between the exact values for 1, 2 and 3 below.
 */
function studentT975(df: number): number {
  if (!(df >= 1)) return Infinity
  if (df < 3) {
    const exact = [12.706204736174698, 4.302652729749464, 3.182446305284263]
    const below = Math.floor(df)
    const fraction = df - below
    return (exact[below - 1] ?? 0) * (1 - fraction) + (exact[below] ?? 0) * fraction
  }
  const z = Z_95
  return (
    z +
    (z ** 3 + z) / (4 * df) +
    (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2) +
    (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3) +
    (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / (92160 * df ** 4)
  )
}

export const WILSON = 'Wilson'
export const WILSON_EFFECTIVE = 'Wilson on the effective sample size'
export const STRATIFIED_WILSON = 'stratified Wilson'

/** Wilson's own with one sample per item; on the effective sample size with several. */
export function shareIntervalMethod(items: number, samples: number): string {
  return items === samples ? WILSON : WILSON_EFFECTIVE
}

/** λ with P(Poisson(λ) ≥ count) = EDGE_ALPHA: the one-sided lower bound of a Poisson mean from `count` events. */
function poissonLowerBound(count: number): number {
  let low = 0
  let high = count
  for (let step = 0; step < 60; step++) {
    const middle = (low + high) / 2
    if (poissonAtLeast(middle, count) < EDGE_ALPHA) low = middle
    else high = middle
  }
  return low
}

function poissonAtLeast(mean: number, count: number): number {
  let term = Math.exp(-mean)
  let below = 0
  for (let events = 0; events < count; events++) {
    below += term
    term *= mean / (events + 1)
  }
  return 1 - below
}
