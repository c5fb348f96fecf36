import { SANDBOX_TMPFS_MB } from './knobs.ts'

export interface Limits {
  /** Wall-clock time before the whole process tree is killed. Default 10 s for a run, 60 s for a compile. */
  wallMs: number
  /** CPU seconds per process (RLIMIT_CPU). Default 10 for a run, 60 for a compile. */
  cpuSeconds: number
  /** Memory the program may use. Default 512 MiB for a run, 2 GiB for a compile. */
  memoryBytes: number
  /** Captured bytes per stream (stdout, stderr); the rest is counted and dropped. Default 1 MiB. */
  outputBytes: number
  /** Largest file the program may write (RLIMIT_FSIZE). Default 64 MiB for a run, 512 MiB for a compile. */
  fileBytes: number
  /** Processes and threads the sandbox may hold at once. Default 64 for a run, 512 for a compile. */
  processes: number
}

const MiB = 1024 * 1024

/** Default size of a run's /tmp (which holds its work dir) and of its /dev/shm, each. */
export const DEFAULT_TMPFS_MIB = SANDBOX_TMPFS_MB.defaultValue

/**
 * The size of each of a run's size-capped tmpfs mounts, /tmp (with the work dir in it) and /dev/shm:
 * TESTBENCH_SANDBOX_TMPFS_MB. What a program writes there is memory; a cgroup, where the sandbox has one,
 * counts it in the run's memory limit, otherwise it comes on top of that limit, at most twice this size.
 */
export function tmpfsBytes(env: NodeJS.ProcessEnv = process.env): number {
  return SANDBOX_TMPFS_MB.read(env) * MiB
}

export const DEFAULT_RUN_LIMITS: Readonly<Limits> = {
  wallMs: 10_000,
  cpuSeconds: 10,
  memoryBytes: 512 * MiB,
  outputBytes: 1 * MiB,
  fileBytes: 64 * MiB,
  processes: 64,
}

export const DEFAULT_COMPILE_LIMITS: Readonly<Limits> = {
  wallMs: 60_000,
  cpuSeconds: 60,
  memoryBytes: 2048 * MiB,
  outputBytes: 1 * MiB,
  fileBytes: 512 * MiB,
  processes: 512,
}

export function withDefaults(defaults: Readonly<Limits>, given: Partial<Limits> | undefined): Limits {
  const limits = { ...defaults, ...given }
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isFinite(value) || value <= 0) {
      throw new RangeError(`Sandbox limit ${name} is ${value}; give a positive number or leave it out for the default.`)
    }
  }
  return limits
}
