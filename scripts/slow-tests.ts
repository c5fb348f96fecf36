/**
 * The harness's test files that `npm run test:fast` leaves out, each for what makes it slow: the end-to-end
 * hostile tables, BigCodeBench's calibrations, container runs, runs over a whole dataset, and the four slowest
 * end-to-end runs of the rest. `npm test` (CI) runs them all. Paths are globs from the repository root, as Vitest's `--exclude` takes them.
 */
export interface SlowTests {
  glob: string
  why: string
}

export const SLOW_TESTS: readonly SlowTests[] = [
  {
    glob: 'test/security/hostile-table.test.ts',
    why: 'the hostile table through PE-Bench in five languages, as root and as an ordinary user',
  },
  { glob: 'test/security/bigcodebench/hostile-programs.test.ts', why: "BigCodeBench's hostile programs, end to end" },
  {
    glob: 'test/security/python-tasks/upstream-checks-hostile.test.ts',
    why: "hostile programs against HumanEval's and MBPP's own checks",
  },
  {
    glob: 'test/benchmarks/humaneval/evalplus-replay.test.ts',
    why: 'HumanEval+ rules and hostile programs, end to end, and a run on a machine kept busy',
  },
  {
    glob: 'test/benchmarks/mbpp/evalplus-replay.test.ts',
    why: "MBPP+ replays against evalplus's verdicts, end to end",
  },
  { glob: 'test/benchmarks/bigcodebench/calibration.test.ts', why: "BigCodeBench's calibration" },
  {
    glob: 'test/benchmarks/bigcodebench/bigcodebench-suite.test.ts',
    why: 'the calibrated BigCodeBench suite with MODEL=reference',
  },
  {
    glob: 'test/benchmarks/bigcodebench/upstream-rules.test.ts',
    why: 'a calibrated sample file scored as bigcodebench.evaluate does',
  },
  { glob: 'test/benchmarks/humaneval/upstream-check-record.test.ts', why: "all 164 of HumanEval's checks recorded" },
  { glob: 'test/benchmarks/mbpp/upstream-check-record.test.ts', why: "all of MBPP's checks recorded" },
  {
    glob: 'test/benchmarks/humaneval/humaneval-suite.test.ts',
    why: 'the whole of HumanEval and HumanEval+ with MODEL=reference',
  },
  {
    glob: 'test/benchmarks/mbpp/mbpp-suite.test.ts',
    why: 'the whole of MBPP, MBPP sanitized and MBPP+ with MODEL=reference',
  },
  {
    glob: 'test/benchmarks/swebench/swebench-suite.test.ts',
    why: 'the 300 instances of SWE-bench Lite, generate-only',
  },
  {
    glob: 'test/package/consumer.test.ts',
    why: 'the package packed, installed into a fresh project and run there',
  },
  { glob: 'test/adapters/sandbox/container/docker-sandbox.test.ts', why: 'the container tier' },
  { glob: 'test/adapters/sandbox/container/sandbox-image.test.ts', why: "the container tier's image" },
  {
    glob: 'test/benchmarks/swebench/evaluation/container-evaluation.test.ts',
    why: "SWE-bench's evaluation in its container",
  },
  {
    glob: 'test/benchmarks/swebench/agent/agent-episode.test.ts',
    why: "the bash-only agent's episodes in the instance's container",
  },
  {
    glob: 'test/benchmarks/swebench/agent/agent-replay.test.ts',
    why: 'the bash-only track with tool calls through two SDKs, and its trajectories replayed, in containers',
  },
  {
    glob: 'test/benchmarks/swebench/agent/agent-suite.test.ts',
    why: 'the bash-only track end to end, with Ctrl-C and a crash in the middle',
  },
  { glob: 'test/adapters/sandbox/self-check.test.ts', why: "the container tier's self-check on each engine" },
  {
    glob: 'test/adapters/sandbox/container/container-tier-probe.test.ts',
    why: "the container tier's up-front probe on each engine",
  },
  {
    glob: 'test/security/fail-closed-engine.test.ts',
    why: 'a run stopped before its first item by an engine that answers but cannot run the tier, on each engine',
  },
  {
    glob: 'test/adapters/models/wire-recordings-runs.test.ts',
    why: "the recorded provider responses through suites/demo and PE-Bench's tool mode, some fourteen runs",
  },
  {
    glob: 'test/adapters/models/openai/openai-responses-runs.test.ts',
    why: "HumanEval and PE-Bench's tool mode through the Responses API, each run twice",
  },
  {
    glob: 'test/adapters/models/tool-call-faults.test.ts',
    why: 'tool-call streams through every wire protocol with every fault kind',
  },
  // The slowest of the rest, measured (npm test's per-file times): without them the loop stays near 3 minutes on 2 cores.
  {
    glob: 'test/benchmarks/euler/euler-suite.test.ts',
    why: 'PE-Bench with MODEL=reference in every language the sandbox runs',
  },
  {
    glob: 'test/adapters/models/flaky-provider-farel.test.ts',
    why: 'FaRel through every wire protocol, clean and with every fault kind',
  },
  { glob: 'test/harness/bad-input.test.ts', why: 'a run of a suite for each of some sixty bad inputs' },
  { glob: 'test/ui/item-view.test.ts', why: 'the html report and the UI in Chromium' },
  {
    glob: 'test/harness/batches/batch-openai.test.ts',
    why: 'whole demo runs through OpenAI batches, one killed and resumed',
  },
  {
    glob: 'test/harness/batches/batch-providers.test.ts',
    why: 'whole demo runs through Anthropic and Gemini batches, killed and resumed',
  },
  {
    glob: 'test/harness/batches/batch-lost-create.test.ts',
    why: 'demo runs killed while each provider creates its batch',
  },
  {
    glob: 'test/harness/batches/batch-humaneval.test.ts',
    why: "HumanEval through each provider's batches, killed and resumed",
  },
]
