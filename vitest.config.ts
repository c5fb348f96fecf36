import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'
import { CONCURRENCY, providerConcurrency } from './adapters/models/knobs.ts'
import { SANDBOX_CONCURRENCY } from './adapters/sandbox/knobs.ts'
import { sandboxConcurrency } from './adapters/sandbox/concurrency.ts'
import { PartSequencer } from './reporters/part-sequencer.ts'
import { testbench } from './reporters/testbench-plugin.ts'

export default defineConfig({
  // Adds the score and gate reporters even when --reporter flags replace the ones below.
  plugins: [testbench()],
  test: {
    // Modules transformed once are kept in node_modules/.vitest-cache: a run no longer transforms every
    // module its workers and reporters load (about 0.8 s of CPU per HumanEval run). Where that folder
    // cannot be made (a clone the user cannot write), Vitest warns once and transforms as before.
    fsModuleCache: true,
    // --shard deals each suite's part files evenly over the shards (reporters/part-sequencer.ts).
    sequence: { sequencer: PartSequencer },
    // On GitHub Actions, failing items become annotations; the items' own annotations (prompt, reply…) stay in the UI.
    reporters:
      process.env.GITHUB_ACTIONS === 'true'
        ? ['default', ['github-actions', { displayAnnotations: false }]]
        : ['default'],
    projects: [
      {
        test: {
          name: 'harness',
          include: ['test/**/*.test.ts'],
          globalSetup: ['test/support/temp-root.ts'],
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'suites',
          include: ['suites/**/*.test.ts'],
          globalSetup: ['harness/global-setup.ts'],
          // Items wait on models and sandboxes, which bound themselves; a test's own limit is the request timeout.
          testTimeout: 0,
          maxConcurrency: itemsAtOnce(process.env),
          // Parts of one suite run at once, so that one part's last requests overlap the next part's first ones.
          maxWorkers: Math.max(2, availableParallelism() - 1),
          // Part files of a suite share one worker's modules: datasets, the warm Python fork server, connections.
          isolate: false,
          // Projects with their own maxWorkers need their own group; the harness's tests (group 0) come first.
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
})

/**
 * Items of one part file started at once. TESTBENCH_CONCURRENCY bounds the model requests in flight across
 * workers (harness/run-slots.ts) and the sandbox bounds its programs; this only keeps 10,000 items from all
 * waiting in memory at once, and is 4 times what either may run, so that it never caps them.
 */
function itemsAtOnce(env: NodeJS.ProcessEnv): number {
  // A bad value is reported by the plugin before any item; here it counts as unset.
  const requests = Number(CONCURRENCY.raw(env)) || providerConcurrency('any', {})
  const programs = Number(SANDBOX_CONCURRENCY.raw(env)) || sandboxConcurrency({})
  return 4 * Math.max(requests, programs, 8)
}
