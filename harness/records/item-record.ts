import type { TokenUsage } from '../../adapters/models/model-adapter.ts'
import type { Outcome } from '../../adapters/outcome.ts'
import type { ItemMark } from './item-marks.ts'
import type { ConversationEnd, TrajectoryTurn } from '../conversation/trajectory.ts'

/** The JSON a record's `scoring` holds (its shape declared by the suite's scoring facts, scoring/scoring-facts.ts). */
export type FactValue = string | number | boolean
export type FactRecord = Readonly<Record<string, FactValue>>

/**
 * Everything a test body records about one item × model × sample. It lives in
 * `task.meta.bench`, so every score can be computed from meta alone: from one
 * run, from merged shard blobs, or from a saved report.
 */
export interface ItemRecord {
  suite: string
  itemId: string
  title?: string
  /** The model's label as in MODEL (`ollama:qwen2.5`, `reference`…). */
  model: string
  provider: string
  /** 0-based sample index (SAMPLES=n gives 0…n-1). */
  sample: number
  outcome?: Outcome
  /** Why the outcome is what it is, in one line for people (`output` has the long story). */
  reason?: string
  /** Set when the item was not asked because the run's cost limit (TESTBENCH_COST_LIMIT) was reached: a rerun asks it. */
  notAsked?: 'cost_limit'
  /** What the score is grouped by within a suite: a language, a variant, a quiz length… */
  variant?: string
  /** What a reader should look at beside the outcome (harness/records/item-marks.ts), shown as tags. */
  marks?: ItemMark[]
  /** The suite's own scoring facts (points, relation class, split…), declared by it with `scoringFacts` and read back through that declaration. */
  scoring?: FactRecord
  /** The request parameters the model was asked with. */
  params?: Record<string, number | string | string[]>
  tokens?: TokenUsage
  latencyMs?: number
  /** How the model ended its reply, in the provider's words (`stop`, `length`, `end_turn`…); absent when it was not asked. */
  finishReason?: string
  /** The id of the provider's batch that answered (TESTBENCH_BATCH); its tokens cost the batch price. */
  batch?: string
  prompt?: string
  reply?: string
  reasoning?: string
  /** A conversation's turns (`bench.converse`): each turn's text, reasoning, tool calls and results, tokens, latency. */
  trajectory?: TrajectoryTurn[]
  /** How the conversation ended: a tool ended it, a turn made no tool call, or a limit was reached. */
  conversationEnd?: ConversationEnd
  /** What the conversation's tokens cost, in TESTBENCH_PRICES's currency, where a price was given. */
  cost?: number
  /** The extracted answer or code. */
  extracted?: string
  /** The sandbox tier its program ran in (`process (bubblewrap 0.8.0)`, `docker (image …)`, `none (unsandboxed)`); absent when the item ran none. */
  sandbox?: string
  /** Execution output, or the reason an item could not be judged. */
  output?: string
  /** The model's details as the provider reports them (digest, size, quantization…). */
  modelDetails?: Record<string, string | number>
  startedAt?: string
  durationMs?: number
}

export type { TokenUsage } from '../../adapters/models/model-adapter.ts'

declare module 'vitest' {
  interface TaskMeta {
    bench?: ItemRecord
  }
}
