/**
 * Runs a solution's functions on a check's calls in the sandbox (call_driver.py) and brings back
 * what each call did as plain data, one line per call. The check is not in there: it stays with the judge.
 */
import { readFileSync } from 'node:fs'
import { runProgram, type RunResult } from '../../../adapters/sandbox/index.ts'

/** The driver and its codec, which a warm server keeps ready (RunRequest.pythonModules). */
const MODULES = {
  value_codec: readFileSync(new URL('../io/value_codec.py', import.meta.url), 'utf8'),
  call_driver: readFileSync(new URL('call_driver.py', import.meta.url), 'utf8'),
}
// Not the interpreter's own exit after the calls: the program's atexit functions and threads do not run.
const MAIN = 'import os\nimport call_driver\n\ncall_driver.main()\nos._exit(0)\n'

export interface CallRun {
  /** The calls, as the judge wrote them (JSON text). */
  calls: string
  /** The check's setup code (MBPP's test_setup_code), run after the program in its namespace, and the names of its objects that calls pass by name. */
  setup: string
  refs: readonly string[]
  /** CPU seconds for the whole run (defining the program and every call), as upstream gives the whole check one limit. */
  cpuSeconds: number
  memoryBytes: number
}

/** The wall-clock backstop: far above the CPU budget, so that a loaded machine changes no verdict; it only stops a program that sleeps. */
export function wallBackstopSeconds(cpuSeconds: number): number {
  return 10 * cpuSeconds + 5
}

export async function runCallDriver(run: CallRun, solution: string): Promise<RunResult> {
  const wallSeconds = wallBackstopSeconds(run.cpuSeconds)
  const task = { setup: run.setup, refs: run.refs, cpu_seconds: run.cpuSeconds, wall_seconds: wallSeconds }
  return runProgram({
    language: 'python',
    files: { 'main.py': MAIN, 'solution.py': solution, 'calls.json': run.calls, 'task.json': JSON.stringify(task) },
    pythonModules: MODULES,
    // The driver stops the program at its budget; the sandbox's own limits are the backstop for a program that stops the driver's clocks.
    limits: {
      wallMs: (wallSeconds + 5) * 1000,
      cpuSeconds: Math.ceil(run.cpuSeconds) + 1,
      memoryBytes: run.memoryBytes,
      outputBytes: 64 * 1024 * 1024,
    },
  })
}
