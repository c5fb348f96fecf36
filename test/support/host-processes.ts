import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'

/**
 * The word of this test run, which every process-leaving token carries (`leftoverToken`): set by the global setup
 * (test/support/leftover-processes.ts), inherited by the workers, looked for in every command line when the run ends.
 */
export const RUN_WORD_VARIABLE = 'LLM_TESTBENCH_TEST_RUN'

/**
 * A unique word for leftover-process checks, `testbench-<name>-<run word>-<random>`: a test puts it in the command
 * line of what a program may leave behind, looks for it afterwards, and the run's end looks for every one of them.
 */
export function leftoverToken(name: string): string {
  return `testbench-${name}-${process.env[RUN_WORD_VARIABLE] ?? 'norun'}-${randomBytes(6).toString('hex')}`
}

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

/** Kills every host process whose command line holds `text`; returns their command lines. */
export function killProcessesWith(text: string): string[] {
  const killed: string[] = []
  for (const pid of processesWith(text)) {
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim()
      process.kill(pid, 'SIGKILL')
      killed.push(`${pid} ${command}`)
    } catch {
      // it ended meanwhile, or is not ours to kill
    }
  }
  return killed
}
