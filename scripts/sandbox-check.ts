// npm run sandbox:check: does the tier SANDBOX picks (process by default, docker on macOS and Windows) work here?
// Runs a known program and a known hostile one in it and prints the tier, the engine, its version and pass/fail.
import { formatSelfCheck, selfCheck } from '../adapters/sandbox/self-check.ts'
import { refuseArguments } from './script-usage.ts'

const USAGE = `usage: npm run sandbox:check
Whether the sandbox tier SANDBOX picks works here: runs a known program and a known hostile one in it,
prints the tier, the engine and pass/fail; exit 1 when it fails.`
refuseArguments(USAGE)

const check = await selfCheck()
console.log(formatSelfCheck(check))
process.exitCode = check.passed ? 0 : 1
