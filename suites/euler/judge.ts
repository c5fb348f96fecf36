/** Whether a program's output is the answer: the last line of stdout, trimmed, equal to the answer as written. */

/** The last non-blank line of the output, trimmed; '' when the program printed nothing. */
export function lastLine(stdout: string): string {
  const lines = stdout.trimEnd().split(/\r?\n/)
  return (lines[lines.length - 1] ?? '').trim()
}

/** Exact comparison, no numeric normalisation: `233168.0` is not `233168`. */
export function isAnswer(stdout: string, answer: string): boolean {
  return lastLine(stdout) === answer
}

/**
 * The original's compatibility rule (TESTBENCH_EULER_ANSWER_IN_CODE=1): solved when the answer
 * appears anywhere in the code once every comma is removed from the code (`execute.py`: so
 * `233,168` in a comment counts for 233168). A known false positive: problem 35's answer is 55.
 */
export function answerInCode(code: string, answer: string): boolean {
  return answer !== '' && code.replaceAll(',', '').includes(answer)
}
