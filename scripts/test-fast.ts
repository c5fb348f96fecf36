/**
 * The contributor's loop: the harness's tests but the slow ones (scripts/slow-tests.ts), with Vitest's own
 * arguments passed on, e.g. `npm run test:fast -- test/benchmarks/farel` or `npm run test:fast -- --reporter=dot`.
 * `npm test` runs everything, as CI does.
 */
import { spawnSync } from 'node:child_process'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { SLOW_TESTS } from './slow-tests.ts'
import { answerHelp } from './script-usage.ts'

const USAGE = `usage: npm run test:fast [-- <vitest arguments>…]
The harness's tests but the slow ones (scripts/slow-tests.ts), one test file per core; the arguments go to
Vitest, e.g. npm run test:fast -- test/benchmarks/farel, or -- --maxWorkers=1. npm test runs everything.`
answerHelp(USAGE)

const root = fileURLToPath(new URL('..', import.meta.url))
const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url))
const excludes = SLOW_TESTS.map((slow) => `--exclude=${slow.glob}`)
const passedOn = process.argv.slice(2)
// One test file per core, not Vitest's cores - 1: these files spend most of their time waiting on the child
// processes they start (child Vitest runs, sandboxed programs, loopback servers); on 2 cores one worker kept
// the machine under half busy.
const workers = passedOn.some((arg) => arg.startsWith('--maxWorkers')) ? [] : [`--maxWorkers=${availableParallelism()}`]
const run = spawnSync(process.execPath, [vitest, 'run', '--project', 'harness', ...excludes, ...workers, ...passedOn], {
  cwd: root,
  stdio: 'inherit',
})
if (run.error !== undefined) console.error(`test:fast: Vitest could not start: ${run.error.message}`)
process.exit(run.status ?? 1)
