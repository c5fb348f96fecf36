/** GNU time's format for what both tiers measure: elapsed, user and system seconds, peak RSS in KiB. */
export const TIME_FORMAT = '%e %U %S %M'

/** CPU time and peak memory from GNU time's report, whose last line is TIME_FORMAT (it may say more before it). */
export function parseTimeReport(text: string): { cpuMs: number; peakMemoryBytes: number } | undefined {
  const last = text.trim().split('\n').at(-1) ?? ''
  const [, user, system, maxKb] = last.split(' ').map(Number)
  if (user === undefined || system === undefined || maxKb === undefined || [user, system, maxKb].some(Number.isNaN))
    return undefined
  return { cpuMs: Math.round((user + system) * 1000), peakMemoryBytes: maxKb * 1024 }
}
