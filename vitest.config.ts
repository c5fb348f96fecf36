import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'
import { benchmarkTestOptions } from './reporters/benchmark-project.ts'
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
          globalSetup: ['test/support/temp-root.ts', 'test/support/leftover-processes.ts'],
          testTimeout: 60_000,
          // The harness's tests mostly wait (on sandboxes, child runs, servers, browsers), so two workers
          // are worth it even on two cores, where Vitest's default (cores - 1) would run one file at a time.
          maxWorkers: Math.max(2, availableParallelism() - 1),
        },
      },
      {
        test: {
          name: 'suites',
          ...benchmarkTestOptions(['suites/**/*.test.ts']),
          // Projects with their own maxWorkers need their own group; the harness's tests (group 0) come first.
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
})
