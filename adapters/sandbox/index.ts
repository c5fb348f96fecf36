/**
 * Runs untrusted programs. A suite calls
 *
 *   const result = await runProgram({
 *     language: 'python',
 *     files: (marker) => ({ 'main.py': `${completion}\n${checks}\n${printMarker('python', marker)}\n` }),
 *     limits: { wallMs: 5_000 },
 *   })
 *
 * and reads `result.outcome`: `passed` only when the program exited 0 and printed this run's marker,
 * which only the end of the checks prints. SANDBOX picks the tier; both implement `Sandbox`.
 */
import { DockerSandbox } from './container/docker-sandbox.ts'
import { ProcessSandbox } from './process/process-sandbox.ts'
import type { RunRequest, RunResult, Sandbox } from './sandbox.ts'
import { configuredTier } from './sandbox-tier.ts'

export type { RunRequest, RunResult, RunOutcome, Sandbox, SourceFiles, StreamCapture } from './sandbox.ts'
export type { Limits } from './limits.ts'
export { DEFAULT_COMPILE_LIMITS, DEFAULT_RUN_LIMITS } from './limits.ts'
export { LANGUAGES, isLanguage, printMarker, type Language } from './languages.ts'

let configured: Sandbox | undefined

/** The sandbox picked by SANDBOX: `process` (default), `docker` or `none`. One per process, created on first use. */
export function sandbox(env: NodeJS.ProcessEnv = process.env): Sandbox {
  configured ??= createSandbox(configuredTier(env))
  return configured
}

/** How the reports name the sandbox this process ran programs in; undefined when it ran none. */
export function sandboxInUse(): string | undefined {
  return configured?.description()
}

export function createSandbox(tier: string): Sandbox {
  switch (tier) {
    case 'process':
      return new ProcessSandbox()
    case 'docker':
      return new DockerSandbox()
    case 'none':
      // The run's banner comes from its up-front check (reporters/sandbox-check.ts), once, not from every worker.
      return new ProcessSandbox({ unsandboxed: true })
    default:
      throw new RangeError(
        `SANDBOX is "${tier}"; set it to "process" (the default), "docker", or "none" (unsandboxed).`,
      )
  }
}

/** Runs one program in the configured sandbox. */
export function runProgram(request: RunRequest): Promise<RunResult> {
  return sandbox().run(request)
}
