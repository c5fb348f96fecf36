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
  /** Python run after the solution: test setup, the checks, the call of the checker. */
  tests: string
  /** The canonical solution as a chat model would answer: one fenced python block with the whole function. */
  reference: string
  /**
   * Judged by inputs and outputs (EvalPlus's way) instead of `tests`: the function runs on the
   * inputs in the sandbox and the judge compares its return values outside it.
   */
  io?: OracleSource
}

/** `solution`, then the tests, then the success marker: it is printed only when every check has run. */
export function testProgram(task: Pick<PythonTask, 'tests'>, solution: string, printMarker: string): string {
  return `${solution}\n\n${task.tests}\n\n${printMarker}\n`
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
