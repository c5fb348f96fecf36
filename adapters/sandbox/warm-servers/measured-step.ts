import type { CappedOutput } from '../output.ts'

/** What a measured step (an exec server's, or a warm Python child's) reports: the init's wait4, never the program's word. */
export interface MeasuredStep {
  stdout: CappedOutput
  stderr: CappedOutput
  exitCode: number | null
  signal: string | undefined
  wallLimitHit: boolean
  /** The kernel killed a process of the step for passing its memory cgroup's limit (as root). */
  oomKilled: boolean
  wallMs: number
  cpuMs: number | undefined
  peakMemoryBytes: number | undefined
}
