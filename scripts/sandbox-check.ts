// npm run sandbox:check: does the tier SANDBOX picks (process by default, docker on macOS and Windows) work here?
// Runs a known program and a known hostile one in it and prints the tier, the engine, its version and pass/fail.
import { formatSelfCheck, selfCheck } from '../adapters/sandbox/self-check.ts'

const check = await selfCheck()
console.log(formatSelfCheck(check))
process.exitCode = check.passed ? 0 : 1
