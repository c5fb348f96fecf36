/** The program that is evaluated for a solution, as bigcodebench.evaluate builds it. */
import type { BigCodeBenchTask } from './dataset.ts'

/**
 * bigcodebench.evaluate (v0.2.2 on, `--calibrated` by default) puts the task's code prompt (its
 * imports and signature), a body of `pass` and a newline before every solution, so that a solution
 * that leans on the prompt's imports runs; its own definitions come after and win. v0.1.5 to
 * v0.2.1 did the same only for sample files whose name said `sanitized-calibrated` (v0.2.1:
 * `sanitized_calibrated`), the form the leaderboard's samples were published in; `--calibrated
 * False` (TESTBENCH_BIGCODEBENCH_CALIBRATED=off) evaluates the solution alone.
 */
export function evaluatedProgram(
  task: Pick<BigCodeBenchTask, 'codePrompt'>,
  solution: string,
  calibrated: boolean,
): string {
  return calibrated ? `${task.codePrompt}\n    pass\n${solution}` : solution
}
