/**
 * How a run ends when something stops it before its first item (a bad setting, Ollama not running, an unknown
 * model, a dataset that cannot be had, no working sandbox): the message alone, then the exit code.
 *
 * Thrown instead, the error would reach Vitest after its run had ended empty, so that it first printed
 * "No test files found, exiting with code 1", the filter and every project's globs, and only then the
 * message under an "Unhandled Error" banner. Nothing has started at this point (no worker, no item, no
 * report to write), so ending the process loses nothing; Vitest ends its own start-up errors the same way.
 */
export const STOPPED_BEFORE_ITEMS_EXIT_CODE = 1

export function stopBeforeItems(message: string): never {
  process.stderr.write(`\n${message}\n\nStopped before any item; exit code ${STOPPED_BEFORE_ITEMS_EXIT_CODE}.\n`)
  process.exit(STOPPED_BEFORE_ITEMS_EXIT_CODE)
}
