import { readdirSync, readFileSync } from 'node:fs'

/** Host processes whose command line holds `text` (a run's token), but this one. */
export function processesWith(text: string): number[] {
  const found: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(text)) found.push(Number(entry))
    } catch {
      // the process ended while we looked
    }
  }
  return found
}
