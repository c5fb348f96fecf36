import { defineConfig } from 'vitest/config'
import { testbench } from 'llm-testbench'

export default defineConfig({
  plugins: [
    testbench({
      suites: [
        // Your own suite: its items are the test files in suites/puzzles/.
        { name: 'puzzles', title: 'Puzzles', runsPrograms: true },
        // A suite llm-testbench brings, run beside yours.
        'humaneval',
      ],
    }),
  ],
})
