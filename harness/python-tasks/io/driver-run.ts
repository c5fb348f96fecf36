/**
 * Runs a solution's function on a task's inputs in the sandbox (io_driver.py) and
 * brings back what it returned as plain data, one line per input. The expected
 * outputs are not in there: they stay with the judge.
 */
import { readFileSync } from 'node:fs'
import { runProgram, type RunResult } from '../../../adapters/sandbox/index.ts'

/** The driver and its codec, which a warm server keeps ready (RunRequest.pythonModules). */
const MODULES = {
  value_codec: readFileSync(new URL('value_codec.py', import.meta.url), 'utf8'),
  io_driver: readFileSync(new URL('io_driver.py', import.meta.url), 'utf8'),
}
const MAIN = 'import io_driver\n\nio_driver.main()\n'

/** What the driver needs besides the solution: the function, the inputs, the limits. */
export interface DriverTask {
  entryPoint: string
  /** The argument lists, in value_codec's format (a JSON string never parsed here: it holds ints JavaScript cannot). */
  inputs: string
  /** CPU seconds each input may use; its wall-clock backstop is derived from it. */
  cpuLimits: readonly number[]
  /** MBPP+'s three tasks whose outputs are match objects: only `output is not None` comes back. */
  notNone: boolean
}

export interface DriverLimits {
  memoryBytes: number
  /** CPU seconds for defining the function (imports, module-level code). */
  setupCpuSeconds: number
  /** The most CPU seconds the whole run may take, whatever the per-input limits add up to. */
  totalCpuSeconds: number
}

/** An input's wall-clock backstop: far above its CPU limit, so that a loaded machine does not change a verdict; it only stops a program that sleeps. */
export function wallBackstopSeconds(cpuSeconds: number): number {
  return 10 * cpuSeconds + 5
}

/** The whole run's limits: the per-input limits added up (capped), the setup, and a wall clock three times that. */
export function runLimits(
  task: Pick<DriverTask, 'cpuLimits'>,
  limits: DriverLimits,
): { cpuSeconds: number; wallMs: number } {
  const inputs = task.cpuLimits.reduce((sum, seconds) => sum + seconds, 0)
  const cpuSeconds = Math.ceil(Math.min(inputs, limits.totalCpuSeconds) + limits.setupCpuSeconds)
  return { cpuSeconds, wallMs: 3 * cpuSeconds * 1000 + 10_000 }
}

export async function runDriver(
  task: DriverTask,
  solution: string,
  mode: 'candidate' | 'canonical',
  limits: DriverLimits,
): Promise<RunResult> {
  const spec = {
    entry_point: task.entryPoint,
    mode,
    not_none: task.notNone,
    cpu_limits: task.cpuLimits,
    wall_limits: task.cpuLimits.map(wallBackstopSeconds),
    setup_cpu_seconds: limits.setupCpuSeconds,
    setup_wall_seconds: wallBackstopSeconds(limits.setupCpuSeconds),
  }
  const { cpuSeconds, wallMs } = runLimits(task, limits)
  return runProgram({
    language: 'python',
    files: { 'main.py': MAIN, 'solution.py': solution, 'inputs.json': task.inputs, 'task.json': JSON.stringify(spec) },
    pythonModules: MODULES,
    limits: { wallMs, cpuSeconds, memoryBytes: limits.memoryBytes, outputBytes: 64 * 1024 * 1024 },
  })
}
