/**
 * Rounding as the benchmarks' own Python scripts do it, for figures that must equal theirs:
 * `round(x, 2)` and `f"{x:.2f}"` round the exact binary value of x, and an exact half goes to the
 * even digit; `Math.round(x * 100) / 100` does neither (1.005, really 1.00499999…, goes up, and
 * so does 0.125). numpy's and pandas' `.round(2)` are different again: `rint(x * 100) / 100`.
 */

/** `f"{x:.{digits}f}"` as Python writes it. */
export function pythonFixed(x: number, digits: number): string {
  if (!Number.isFinite(x) || Math.abs(x) >= 1e21) return String(x)
  // toFixed(100) is the exact decimal expansion of any double this large (its bits end before 10^-100).
  const [whole = '0', fraction = ''] = Math.abs(x).toFixed(100).split('.')
  const kept = BigInt(whole + fraction.slice(0, digits))
  const rest = fraction.slice(digits)
  const firstDropped = rest.charAt(0)
  const exactHalf = firstDropped === '5' && /^0*$/.test(rest.slice(1))
  const roundUp = firstDropped > '5' || (firstDropped === '5' && !exactHalf) || (exactHalf && kept % 2n === 1n)
  const digitsText = (roundUp ? kept + 1n : kept).toString().padStart(digits + 1, '0')
  const sign = x < 0 || Object.is(x, -0) ? '-' : ''
  return digits === 0 ? `${sign}${digitsText}` : `${sign}${digitsText.slice(0, -digits)}.${digitsText.slice(-digits)}`
}

/** `round(x, digits)` as Python computes it. */
export function pythonRound(x: number, digits: number): number {
  return Number(pythonFixed(x, digits))
}

/** numpy's (and pandas') `round(x, digits)`: x scaled by 10^digits, rounded half to even, scaled back. */
export function numpyRound(x: number, digits: number): number {
  const scale = 10 ** digits
  const scaled = x * scale
  const floor = Math.floor(scaled)
  const diff = scaled - floor
  const rounded = diff > 0.5 || (diff === 0.5 && floor % 2 !== 0) ? floor + 1 : floor
  return rounded / scale
}
