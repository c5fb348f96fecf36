import type { KnobGroup } from '../../adapters/knob.ts'
import { bigCodeBenchOptions } from './options.ts'

export const bigCodeBenchKnobs: KnobGroup = {
  title: 'bigcodebench',
  knobs: [
    { name: 'TESTBENCH_BIGCODEBENCH_SPLIT', kind: 'list', default: 'complete', accepted: 'a comma list of complete, instruct', readme: 'which splits run, each with its own score' },
    { name: 'TESTBENCH_BIGCODEBENCH_SUBSET', kind: 'choice', default: 'full', accepted: 'full (1140) or hard (148)', readme: 'which tasks' },
    { name: 'TESTBENCH_BIGCODEBENCH_VERSION', kind: 'text', default: 'v0.1.0', accepted: "v0.1.0 (pinned JSON files), v0.1.4 (the leaderboard's) or another release on the hub", readme: "the dataset release, named in the score" },
    { name: 'TESTBENCH_BIGCODEBENCH_SHA256', kind: 'text', default: 'the pinned file', accepted: 'a sha256 in hex', readme: 'pins a hub release the project has not pinned (only v0.1.4 is)' },
    { name: 'TESTBENCH_BIGCODEBENCH_PROMPT_MODE', kind: 'choice', default: 'TESTBENCH_PROMPT_MODE', accepted: 'chat or completion', readme: "this suite's prompt form, over `TESTBENCH_PROMPT_MODE`" },
    { name: 'TESTBENCH_BIGCODEBENCH_TASKS', kind: 'list', default: 'all', accepted: 'task numbers and ranges, e.g. `0-49,148`', readme: 'which tasks run' },
    { name: 'TESTBENCH_BIGCODEBENCH_MEMORY_MB', kind: 'number', default: '4096', accepted: 'megabytes, above 0', readme: 'memory per task' },
    { name: 'TESTBENCH_BIGCODEBENCH_TIME_LIMIT', kind: 'number', default: '240', accepted: 'seconds, above 0', readme: "CPU time per task, as the official TIMEOUT_LIMIT: max(this, the canonical solution's time) + 1 s; wall clock stops at twice that + 30 s" },
    { name: 'TESTBENCH_BIGCODEBENCH_CALIBRATED', kind: 'boolean', default: 'on', accepted: '1/on/true or 0/off/false', readme: "bigcodebench.evaluate's `--calibrated`: the code prompt and `pass` go before each solution" },
    { name: 'TESTBENCH_BIGCODEBENCH_TEMPERATURE', kind: 'number', default: '0 (0.8 with SAMPLES>1)', accepted: 'a number ≥ 0', readme: 'sampling temperature' },
  ],
  check: (env) => bigCodeBenchOptions(1, env),
}
