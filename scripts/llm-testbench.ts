#!/usr/bin/env node
/**
 * The package's command, `npx llm-testbench <command> …`: compare two saved reports, write the leaderboards,
 * or print the `-t` pattern of a report's failed items. Each command is one of this folder's scripts.
 */
const USAGE = `usage: llm-testbench <command> …
  compare <a.json> <b.json> [--json]     two JSON reports of one suite: scores, paired test, flips
  leaderboard [suite…]                   each suite's leaderboard from its saved reports, and leaderboard.html
  failed <report.json> [--outcome=…]     the -t pattern that runs a report's failed items again
llm-testbench <command> --help prints the command's own usage.`

const [command, ...rest] = process.argv.slice(2)
if (command === '--help' || command === '-h' || command === 'help') {
  console.log(USAGE)
  process.exit(0)
}
// The command's own script reads its arguments where it would if run by itself.
process.argv.splice(2, process.argv.length - 2, ...rest)
switch (command) {
  case 'compare':
    await import('./compare.ts')
    break
  case 'leaderboard':
    await import('./leaderboard.ts')
    break
  case 'failed':
    await import('./failed-items.ts')
    break
  default:
    console.error(command === undefined ? USAGE : `llm-testbench: unknown command "${command}".\n${USAGE}`)
    process.exitCode = 2
}
