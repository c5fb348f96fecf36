/**
 * llm-testbench's public API: everything a project that installs the package may import from `llm-testbench`.
 * What is not exported here is private and may change in any release. test/package/public-api.test.ts holds
 * the signature of every name below: changing one is a deliberate edit of that file (and of CHANGELOG.md).
 */

// The Vitest plugin: reporters, gate, progress, the run-wide slot server, and a project's own suites.
export { testbench, type TestbenchPluginOptions } from './reporters/testbench-plugin.ts'
export type { BuiltInSuiteName } from './suites/registry.ts'
export type { SuiteDeclaration, PrepareDatasets, ResultsTable, SuiteFiles } from './harness/suite-declaration.ts'
export {
  booleanKnob,
  choiceKnob,
  listKnob,
  numberKnob,
  pathKnob,
  textKnob,
  wholeNumberKnob,
  type Knob,
  type KnobGroup,
} from './adapters/knob.ts'

// Items: one Vitest test each, asking the model (once, or in a conversation with tools) and recording the verdict.
export {
  benchmark,
  type BenchItem,
  type BenchmarkDefinition,
  type ItemContext,
  type RecordFields,
} from './harness/benchmark.ts'
export { scoringFacts, optional, type ScoringFacts, type FactsOf } from './harness/scoring/scoring-facts.ts'
export type { ItemRecord, TokenUsage } from './harness/records/item-record.ts'
export type { ResolvedModel } from './harness/model-session.ts'
export type { ConversationRequest, ConversationResult } from './harness/conversation/converse.ts'
export type { ConversationLimits } from './harness/conversation/limits.ts'
export { toolSucceeded, toolFailed, type ConversationTool, type ToolAnswer } from './harness/conversation/tool.ts'
export type { ConversationEnd, TrajectoryTurn } from './harness/conversation/trajectory.ts'
export type {
  ChatMessage,
  ChatParams,
  ChatReply,
  SendBack,
  ToolCall,
  ToolDefinition,
  JsonValue,
} from './adapters/models/model-adapter.ts'
export { fencedBlocks, largestBlock, stripReasoning, type FencedBlock } from './harness/extract-code.ts'

// The sandbox: a model-written program run in a language under limits.
export {
  runProgram,
  printMarker,
  LANGUAGES,
  DEFAULT_RUN_LIMITS,
  DEFAULT_COMPILE_LIMITS,
  type Language,
  type Limits,
  type RunRequest,
  type RunResult,
  type RunOutcome,
} from './adapters/sandbox/index.ts'

// Verdicts and scores.
export { OUTCOMES, NOT_THE_MODELS_FAULT, isOutcome, type Outcome } from './adapters/outcome.ts'
export type { Score, ScoreInterval, Scorer } from './harness/scoring/score.ts'
export { passRate } from './reporters/statistics/pass-rate.ts'
export {
  passAtK,
  passHatK,
  meanPassAtK,
  meanPassHatK,
  scorePassAtK,
  type PassAtK,
  type PassAtKScoreOptions,
  type SampleCount,
} from './harness/scoring/pass-at-k.ts'
export { withIntervals } from './reporters/statistics/score-interval.ts'
export { wilsonInterval, meanInterval, type ShareUnit } from './harness/scoring/proportion-interval.ts'
export type { RunReport } from './reporters/run-report.ts'
export type { FlakyItem } from './reporters/statistics/flaky-items.ts'

export { TESTBENCH_VERSION } from './harness/version.ts'
