import type { Outcome } from '../outcome.ts'
import type { Language } from './languages.ts'
import type { Limits } from './limits.ts'

/** What the sandbox can say about a run; judging a wrong answer is the suite's job. */
export type RunOutcome = Extract<
  Outcome,
  'passed' | 'compile_error' | 'runtime_error' | 'timeout' | 'memory' | 'infra_error'
>

/**
 * Source files by relative path. As a function, the run requires a success marker: the runner
 * draws a fresh random marker, calls the function with it, and passes the run only if the
 * program exits 0 AND prints that marker. Put the checks after the program and print the
 * marker last (`printMarker(language, marker)` writes the statement), so that a program that
 * exits early, crashes, or prints a marker it guessed does not pass. (Code written to read its
 * own source could still find the marker: the checks run in the same process as the program.)
 */
export type SourceFiles = Readonly<Record<string, string>> | ((marker: string) => Readonly<Record<string, string>>)

export interface RunRequest {
  language: Language
  files: SourceFiles
  /** The file the language's command starts from; defaults to the language's `main` (e.g. `main.py`, `Main.java`). */
  main?: string
  stdin?: string
  limits?: Partial<Limits>
  compileLimits?: Partial<Limits>
  /** Files the program writes that should come back in the result (paths relative to its work dir). */
  collect?: readonly string[]
  /**
   * Python: modules a warm interpreter imports before forking this program (each list gets servers
   * of its own), so that programs that use heavy libraries do not each pay their import. Every name
   * must import; the cold path and the container tier ignore it.
   */
  preload?: readonly string[]
  /**
   * Python: the harness's own modules the program imports (its drivers), by module name, the same from run to
   * run. A warm Python server runs each once (definitions and imports only) and hands every child that asks for
   * it the module ready in `sys.modules`, so that no run pays for compiling and running it; elsewhere each is a
   * file beside the program, `<name>.py`. In the order they import each other: a module may import those before it.
   */
  pythonModules?: Readonly<Record<string, string>>
  /**
   * The program may write anywhere in its root, as in upstream's container (BigCodeBench's tasks write
   * to /fake, /target…): the process tier makes the root a size-capped tmpfs, emptied between runs. Else
   * it is read-only. The container tier ignores it (its writable dirs are /tmp, the work dir, /var/tmp and /run).
   */
  writableRoot?: boolean
}

export interface StreamCapture {
  text: string
  /** The stream went over `limits.outputBytes`; `text` holds its beginning and `bytes` its full size. */
  truncated: boolean
  bytes: number
}

export interface RunResult {
  outcome: RunOutcome
  stdout: StreamCapture
  stderr: StreamCapture
  /** Null when the process was killed by a signal or never started. */
  exitCode: number | null
  /** E.g. `SIGKILL`, `SIGSEGV`, `SIGXCPU`; undefined when the program exited by itself. */
  signal: string | undefined
  wallMs: number
  /** User + system CPU time of the whole process tree, where measurable. */
  cpuMs: number | undefined
  /** Peak resident memory of the largest process in the tree, where measurable. */
  peakMemoryBytes: number | undefined
  /** Compiler's stdout + stderr (capped) when a compile step ran. */
  compileOutput: string | undefined
  /** Undefined when no marker was requested. */
  markerSeen: boolean | undefined
  /** One line for people: why the outcome is what it is (the limit hit, the infra failure, ...). */
  reason: string
  /** The `collect`ed files that exist as regular files after the run, each capped at `limits.outputBytes`. */
  files?: Record<string, string>
}

/** A way to run untrusted programs: the process tier (bwrap + prlimit) or the container tier (Docker/podman). */
export interface Sandbox {
  /** `none`: the process tier without bwrap, only when SANDBOX=none asked for it. */
  readonly tier: 'process' | 'docker' | 'none'
  /** The tier as the reports record it: `process (bubblewrap 0.8.0)`, `docker (image … sha256:…)`, `none (unsandboxed)`. */
  description(): string
  run(request: RunRequest): Promise<RunResult>
  /** Why `language` cannot run in this sandbox (its toolchain is missing), or undefined when it can. */
  unavailable(language: Language): Promise<string | undefined>
  /**
   * Starts what the first runs of `language` will need (the process tier's warm Python servers) in the
   * background, so that they do not wait for it; a tier with nothing to start leaves it out.
   */
  warmUp?(language: Language): void
  /** Releases long-lived resources (warm servers, engine connections). */
  close(): Promise<void>
}
