/**
 * The exact McNemar test on paired pass/fail outcomes: only the items that
 * flipped count. Under "the two runs are equally good" each flip is a fair
 * coin, so the flips from pass to fail follow Binomial(flips, 1/2).
 */
export interface McNemarResult {
  /** Items that passed in the baseline and fail now. */
  passToFail: number
  /** Items that failed in the baseline and pass now. */
  failToPass: number
  /** Two-sided exact p-value: min(1, 2 · P(X ≤ min(b, c))) with X ~ Binomial(b + c, 1/2). */
  pValue: number
}

export function exactMcNemar(passToFail: number, failToPass: number): McNemarResult {
  for (const count of [passToFail, failToPass]) {
    if (!Number.isInteger(count) || count < 0)
      throw new RangeError(`exactMcNemar counts flips: ${count} is not a whole number of at least 0.`)
  }
  return {
    passToFail,
    failToPass,
    pValue: Math.min(1, 2 * binomialHalfCdf(Math.min(passToFail, failToPass), passToFail + failToPass)),
  }
}

/** P(X ≤ k) for X ~ Binomial(n, 1/2), summed in log space so that large n neither overflows nor underflows early. */
function binomialHalfCdf(k: number, n: number): number {
  const logHalfToTheN = n * Math.log(0.5)
  let logChoose = 0
  let total = 0
  for (let i = 0; i <= k; i++) {
    total += Math.exp(logChoose + logHalfToTheN)
    logChoose += Math.log(n - i) - Math.log(i + 1)
  }
  return total
}

/** `0.0060`, or `3.20e-5` below 0.001. */
export function formatPValue(p: number): string {
  return p >= 0.001 ? p.toFixed(4) : p.toExponential(2)
}
