/**
 * How every command of this folder (the package's `llm-testbench` and each `npm run` script) answers its
 * arguments: `-h` and `--help` print its usage on stdout and exit 0 before it does anything else; an argument
 * it does not take prints the usage on stderr and exits 2.
 */

/** Prints `usage` and exits 0 when the arguments ask for help. */
export function answerHelp(usage: string, args: readonly string[] = process.argv.slice(2)): void {
  if (!args.includes('-h') && !args.includes('--help')) return
  process.stdout.write(`${usage.trim()}\n`)
  process.exit(0)
}

/** For a command that takes no arguments but `allowed`: answers help, and refuses anything else with the usage. */
export function refuseArguments(
  usage: string,
  allowed: readonly string[] = [],
  args: readonly string[] = process.argv.slice(2),
): void {
  answerHelp(usage, args)
  const unknown = args.filter((arg) => !allowed.includes(arg))
  if (unknown.length === 0) return
  process.stderr.write(`unknown argument ${unknown.map((arg) => `"${arg}"`).join(', ')}.\n${usage.trim()}\n`)
  process.exit(2)
}
