// How the bench scripts print their timings: medians with their spread, and the machine's load beside them.
import { loadavg } from 'node:os'

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? (sorted[middle] ?? NaN) : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2
}

/** The 1-minute load average, as printed beside each round. */
export function load(): string {
  return loadavg()[0]?.toFixed(1) ?? '?'
}

/** `median s  (min–max)` of times in ms, in seconds with `digits` decimals, the median padded to `width`. */
export function spread(values: readonly number[], digits: number, width: number): string {
  const seconds = (ms: number): string => (ms / 1000).toFixed(digits)
  return `${seconds(median(values)).padStart(width)} s  (${seconds(Math.min(...values))}–${seconds(Math.max(...values))})`
}
