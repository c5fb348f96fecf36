import { readdirSync, readFileSync } from 'node:fs'

/**
 * Host processes whose command line, its arguments joined by spaces as `pgrep -f` sees it, holds `text` (a run's
 * token), but this one. Read from /proc, so that no test depends on procps being installed.
 */
export function processesWith(text: string): number[] {
  const found: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').includes(text)) found.push(Number(entry))
    } catch {
      // the process ended while we looked
    }
  }
  return found
}
