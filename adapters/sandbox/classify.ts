import { constants } from 'node:os'
import type { LanguageSpec } from './languages.ts'
import type { Limits } from './limits.ts'
import type { RunOutcome } from './sandbox.ts'

/** How one step (compile or run) ended, as far as the tier could see. */
export interface Ending {
  step: 'compile' | 'run'
  exitCode: number | null
  signal: string | undefined
  /** The tier killed the step itself for passing the wall limit. */
  wallLimitHit: boolean
  /** The engine reports that the kernel's OOM killer ended it (container tier). */
  oomKilled?: boolean
  stderr: string
  cpuMs: number | undefined
  peakMemoryBytes: number | undefined
  markerRequired: boolean
  markerSeen: boolean
}

export interface Verdict {
  outcome: RunOutcome
  reason: string
}

const SIGNAL_NAMES = new Map<number, string>(Object.entries(constants.signals).map(([name, number]) => [number, name]))

/** Sandboxes (bwrap, GNU time, shells, container engines) report death by signal n as exit status 128 + n. */
export function signalFromStatus(status: number): string | undefined {
  return status > 128 ? SIGNAL_NAMES.get(status - 128) : undefined
}

export function classify(ending: Ending, spec: LanguageSpec, limits: Limits): Verdict {
  const what = ending.step === 'compile' ? 'The compile step' : 'The program'
  if (ending.wallLimitHit)
    return { outcome: 'timeout', reason: `${what} ran past the wall limit of ${limits.wallMs} ms and was killed.` }
  const failed = ending.exitCode !== 0 || ending.signal !== undefined
  if (!failed) {
    if (ending.step === 'run' && ending.markerRequired && !ending.markerSeen) {
      return {
        outcome: 'runtime_error',
        reason: 'The program exited 0 without printing the success marker: the checks did not run to the end.',
      }
    }
    return {
      outcome: 'passed',
      reason:
        ending.step === 'compile'
          ? 'Compiled.'
          : 'Exited 0' + (ending.markerRequired ? ' after printing the success marker.' : '.'),
    }
  }
  const cpuLimitMs = limits.cpuSeconds * 1000
  if (
    ending.signal === 'SIGXCPU' ||
    (ending.signal === 'SIGKILL' && ending.cpuMs !== undefined && ending.cpuMs >= cpuLimitMs * 0.95)
  ) {
    return { outcome: 'timeout', reason: `${what} used up its CPU limit of ${limits.cpuSeconds} s.` }
  }
  if (ending.oomKilled === true)
    return {
      outcome: 'memory',
      reason: `${what} was killed for going over its memory limit of ${limits.memoryBytes} bytes.`,
    }
  if (spec.memoryError?.test(ending.stderr) === true) {
    return { outcome: 'memory', reason: `${what} ran out of memory (limit ${limits.memoryBytes} bytes).` }
  }
  if (ending.peakMemoryBytes !== undefined && ending.peakMemoryBytes >= limits.memoryBytes * 0.9) {
    return {
      outcome: 'memory',
      reason: `${what} failed at ${ending.peakMemoryBytes} bytes of memory, near its limit of ${limits.memoryBytes}.`,
    }
  }
  if (ending.signal === 'SIGXFSZ')
    return {
      outcome: 'runtime_error',
      reason: `${what} wrote a file larger than its limit of ${limits.fileBytes} bytes.`,
    }
  const status = ending.signal === undefined ? `exit status ${ending.exitCode}` : `signal ${ending.signal}`
  if (ending.step === 'compile') return { outcome: 'compile_error', reason: `The compiler failed with ${status}.` }
  if (spec.compileError?.(ending.stderr) === true)
    return { outcome: 'compile_error', reason: `The source did not compile (${status}).` }
  return { outcome: 'runtime_error', reason: `The program failed with ${status}.` }
}
