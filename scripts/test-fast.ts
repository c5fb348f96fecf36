/**
 * The contributor's loop: the harness's tests but the slow ones (scripts/slow-tests.ts), with Vitest's own
 * arguments passed on, e.g. `npm run test:fast -- test/benchmarks/farel` or `npm run test:fast -- --reporter=dot`.
 * `npm test` runs everything, as CI does.
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { SLOW_TESTS } from './slow-tests.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url))
const excludes = SLOW_TESTS.map((slow) => `--exclude=${slow.glob}`)
const run = spawnSync(
  process.execPath,
  [vitest, 'run', '--project', 'harness', ...excludes, ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit' },
)
process.exit(run.status ?? 1)
