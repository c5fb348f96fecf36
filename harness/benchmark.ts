import { describe, inject, test, type ExpectStatic, type TestContext } from 'vitest'
import type { ChatMessage, ChatParams, ChatReply, ToolDefinition } from '../adapters/models/model-adapter.ts'
import { ProviderError } from '../adapters/models/model-adapter.ts'
import { NOT_THE_MODELS_FAULT } from '../adapters/outcome.ts'
import { sandboxInUse } from '../adapters/sandbox/index.ts'
import { replayCoverage } from '../adapters/models/answer-sources/replay.ts'
import { askerFor, type ResolvedModel } from './model-session.ts'
import type { ItemRecord } from './records/item-record.ts'
import type { DeclaredItem } from './records/declared-item.ts'
import type { FactRecord, ScoringFacts } from './scoring/scoring-facts.ts'
import { sampleCount } from './knobs.ts'
import { renderMessages } from './records/render-messages.ts'
import { displayText } from './records/display-text.ts'
import { showRecord } from './records/show-record.ts'
import { withoutAnnotationStacks } from './records/annotation-stacks.ts'
import { withoutHiddenFrames } from './records/hidden-frames.ts'
import { converse, type ConversationRequest, type ConversationResult } from './conversation/converse.ts'
import { cutOffReason } from './cut-off-replies.ts'
import { CostLimitReached } from './run-wide/cost-budget.ts'

/** One benchmark item; suites extend it with whatever their items carry. */
export interface BenchItem {
  /** Stable id, unique within the suite (`HumanEval/0`, `0022`, `child #3`). */
  id: string
  /** A few words for the test name, so `-t` finds items by title too. */
  title?: string
  /** The dataset's known-correct reply, written as a model would answer; what MODEL=reference replies. */
  reference?: string
}

/** What a test body may record: the record's fields, its scoring facts typed by the suite's declaration. */
export type RecordFields<Scoring extends object> = Partial<Omit<ItemRecord, 'scoring'>> & { scoring?: Scoring }

export interface ItemContext<Scoring extends object = FactRecord> {
  model: ResolvedModel
  sample: number
  /** Asks the model (through the reply cache) and records prompt, reply, tokens and latency. */
  ask(
    messages: string | ChatMessage[],
    params?: ChatParams,
    options?: { mode?: 'chat' | 'completion'; tools?: ToolDefinition[] },
  ): Promise<ChatReply>
  /**
   * Converses with the model through the item's tools under the request's limits, every turn through the
   * reply cache (a rerun replays the trajectory, a stopped run resumes at its turn), and records the
   * prompt, the trajectory, how it ended, tokens and latency. The suite judges what the tools delivered.
   */
  converse(request: ConversationRequest): Promise<ConversationResult>
  /** Merges facts into this item's record (task.meta.bench); `scoring` replaces the facts recorded before. */
  record(fields: RecordFields<Scoring>): void
  /** The test's own `expect`, which concurrent tests need. */
  expect: ExpectStatic
  signal: AbortSignal
}

export interface BenchmarkDefinition<Item extends BenchItem, Scoring extends object = FactRecord> {
  suite: string
  /** The suite's scoring facts (harness/scoring/scoring-facts.ts): what `bench.record({ scoring })` takes, checked as it is recorded. */
  scoring?: ScoringFacts<Scoring>
  /** A language, a dataset variant…: adds a `describe` level and is recorded as ItemRecord.variant. */
  variant?: string
  items: readonly Item[]
  /** Run the items of one model concurrently (model requests and sandbox runs are bounded separately). */
  concurrent?: boolean
  /**
   * Declare only this part of the items (1-based, in order). `--shard` splits a run by test file,
   * so a big suite split into files that each declare one part spreads over the machines.
   */
  part?: Part
  /**
   * The knob and value that narrowed `items` to a selection of the suite's set with the same score
   * name (`TESTBENCH_BIGCODEBENCH_TASKS=0-49`): the run is then reported as covering part of the set.
   */
  narrowedBy?: string
  run(item: Item, bench: ItemContext<Scoring>): Promise<void>
}

export interface Part {
  index: number
  count: number
}

interface Case<Item> {
  name: string
  item: Item
  sample: number
}

/** Declares `<model> > <suite> [> <variant>] > <item id> <title>` tests: one per model × item × sample. */
export function benchmark<Item extends BenchItem, Scoring extends object = FactRecord>(
  definition: BenchmarkDefinition<Item, Scoring>,
): void {
  const samples = sampleCount()
  const items = definition.part ? itemsOfPart(definition.items, definition.part) : definition.items
  const cases: Array<Case<Item>> = items.flatMap((item) =>
    Array.from({ length: samples }, (_, sample) => ({ name: caseName(item, sample, samples), item, sample })),
  )
  if (cases.length === 0 && definition.part && definition.items.length > 0) {
    // Vitest fails a file that declares no test: a part left empty by a small selection says so instead.
    const { index, count } = definition.part
    test.skip(
      `${definition.suite}${definition.variant ? ` ${definition.variant}` : ''}: part ${index} of ${count} holds none of the ${definition.items.length} items`,
    )
    return
  }
  const declare = definition.concurrent ? test.concurrent : test
  for (const model of inject('benchModels')) {
    if (model.provider === 'replay') checkReplayFile(model.model, definition.suite, definition.items, samples)
    describe(model.label, () => {
      describe(definition.suite, () => {
        const declared: DeclaredItem = {
          suite: definition.suite,
          model: model.label,
          ...(definition.variant === undefined ? {} : { variant: definition.variant }),
          setSize: definition.items.length * samples,
          ...(definition.narrowedBy === undefined ? {} : { narrowedBy: definition.narrowedBy }),
        }
        // One `test` per case rather than `test.for`, whose `$name` Vitest cuts at 40 characters.
        const declareCases = () => {
          for (const { name, item, sample } of cases) {
            declare(name, { meta: { declared } }, async (context) => {
              await runCase(definition, model, item, sample, context)
            })
          }
        }
        if (definition.variant === undefined) declareCases()
        else describe(definition.variant, declareCases)
      })
    })
  }
}

/** A replay file that answers none of the suite's items stops the file with one error; answers the run will not use are warned about. */
function checkReplayFile(file: string, suite: string, items: readonly BenchItem[], samples: number): void {
  const coverage = replayCoverage(
    file,
    suite,
    items.map((item) => item.id),
    samples,
  )
  for (const warning of coverage.warnings) console.warn(`testbench: ${warning}`)
  if (coverage.error === undefined) return
  const error = new ProviderError(coverage.error)
  error.stack = `ReplayError: ${coverage.error}`
  throw error
}

/** The error each suite's part files met while declaring their items, in this worker. */
const declarationErrors = new Map<string, string>()

/**
 * Declares a part file's items with `declare` (load the dataset, check the toolchain, call benchmark()).
 * When the part files of a suite that run in one worker all fail the same way (a missing dataset), the
 * first shows the whole error and the others one line each, not the same stack six or twelve times.
 */
export async function declarePart(suite: string, part: Part, declare: () => Promise<void>): Promise<void> {
  try {
    await declare()
  } catch (error) {
    if (!(error instanceof Error)) throw error
    if (declarationErrors.get(suite) !== error.message) {
      declarationErrors.set(suite, error.message)
      throw error
    }
    const again = new Error(
      `${suite} part ${part.index} of ${part.count}, as the part before it: ${error.message.split('\n')[0]}`,
    )
    again.stack = `${error.name}: ${again.message}`
    throw again
  }
}

/** Part `index` of `count` of the items: contiguous slices whose sizes differ by one at most. */
export function itemsOfPart<Item>(items: readonly Item[], { index, count }: Part): readonly Item[] {
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(index) || index < 1 || index > count) {
    throw new RangeError(
      `benchmark part ${index} of ${count}: the count must be a whole number of at least 1, and the index one from 1 to the count.`,
    )
  }
  return items.slice(Math.floor(((index - 1) * items.length) / count), Math.floor((index * items.length) / count))
}

function caseName(item: BenchItem, sample: number, samples: number): string {
  const title = item.title ? ` ${item.title}` : ''
  return samples > 1 ? `${item.id}${title} sample ${sample}` : `${item.id}${title}`
}

async function runCase<Item extends BenchItem, Scoring extends object>(
  definition: BenchmarkDefinition<Item, Scoring>,
  model: ResolvedModel,
  item: Item,
  sample: number,
  context: TestContext,
): Promise<void> {
  const record: ItemRecord = {
    suite: definition.suite,
    itemId: item.id,
    model: model.label,
    provider: model.provider,
    sample,
    ...(definition.variant === undefined ? {} : { variant: definition.variant }),
    modelDetails: model.details,
    startedAt: new Date().toISOString(),
    ...(item.title ? { title: item.title } : {}),
  }
  context.task.meta.bench = record
  const ask = askerFor(model)
  const itemKey = {
    suite: definition.suite,
    itemId: item.id,
    sample,
    ...(definition.variant === undefined ? {} : { variant: definition.variant }),
    ...(item.reference === undefined ? {} : { reference: item.reference }),
  }
  const bench: ItemContext<Scoring> = {
    model,
    sample,
    expect: context.expect,
    signal: context.signal,
    record: (fields) => {
      const problem = fields.scoring === undefined ? undefined : definition.scoring?.problem(fields.scoring)
      if (problem !== undefined)
        throw new Error(`${definition.suite} item ${item.id} recorded facts its suite does not declare: ${problem}.`)
      Object.assign(record, fields)
    },
    async ask(messages, params = {}, options = {}) {
      const chat = typeof messages === 'string' ? [{ role: 'user' as const, content: messages }] : messages
      // A replayed answer was made elsewhere, from whatever prompt its maker sent: this one was never sent.
      if (model.provider !== 'replay') record.prompt = renderMessages(chat)
      record.params = { ...params }
      try {
        const reply = await ask({
          messages: chat,
          params,
          mode: options.mode ?? 'chat',
          ...(options.tools === undefined ? {} : { tools: options.tools }),
          item: itemKey,
          signal: context.signal,
        })
        Object.assign(record, { reply: reply.text, latencyMs: reply.latencyMs })
        if (reply.reasoning) record.reasoning = reply.reasoning
        if (reply.tokens) record.tokens = reply.tokens
        if (reply.finishReason) record.finishReason = reply.finishReason
        if (reply.batch) record.batch = reply.batch
        return reply
      } catch (error) {
        if (error instanceof ProviderError) record.outcome = 'provider_error'
        if (error instanceof CostLimitReached) record.notAsked = 'cost_limit'
        throw error
      }
    },
    async converse(request) {
      if (model.provider !== 'replay') record.prompt = renderMessages(request.messages)
      record.params = { ...(request.params ?? {}) }
      const trajectory: ConversationResult['trajectory'] = []
      record.trajectory = trajectory
      try {
        const result = await converse(
          (messages, tools, params, signal) =>
            ask({ messages, params, tools, item: itemKey, mode: 'chat', ...(signal === undefined ? {} : { signal }) }),
          request,
          context.signal,
          trajectory,
        )
        Object.assign(record, {
          conversationEnd: result.end,
          tokens: result.tokens,
          latencyMs: Math.round(result.latencyMs),
        })
        if (result.cost !== undefined) record.cost = result.cost
        return result
      } catch (error) {
        if (error instanceof ProviderError) record.outcome = 'provider_error'
        if (error instanceof CostLimitReached) record.notAsked = 'cost_limit'
        throw error
      }
    },
  }
  const started = performance.now()
  let notJudged: string | undefined
  try {
    await definition.run(item, bench)
    if (record.outcome === undefined)
      throw new Error(
        `${definition.suite} item ${item.id} ended without recording an outcome: the suite must decide it.`,
      )
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    record.outcome ??= 'infra_error'
    record.reason ??= message.split('\n')[0]
    record.output ??= message
    // Not the model's fault: the item ends skipped (grey in the UI and the html report, never the red × of a
    // wrong answer), with its outcome kept in its record; the score reporter fails the run for it.
    if (NOT_THE_MODELS_FAULT.has(record.outcome)) notJudged = displayText(`${record.outcome}: ${record.reason}`)
    else {
      if (error instanceof Error) {
        // Assertion messages quote the program's output; the terminal must not obey what it printed.
        error.message = displayText(error.message)
        error.stack = withoutHiddenFrames(error.stack)
      }
      throw error
    }
  } finally {
    sayWhenCutOff(record)
    const tier = sandboxInUse()
    if (tier !== undefined) record.sandbox = tier
    record.durationMs = Math.round(performance.now() - started)
    await showRecord(record, withoutAnnotationStacks(context))
  }
  if (notJudged !== undefined) context.skip(notJudged)
}

/** The item's reason says when its reply ended at the token limit; the verdict stays the benchmark's. */
function sayWhenCutOff(record: ItemRecord): void {
  const cut = cutOffReason(record)
  if (cut === undefined || record.outcome === undefined || NOT_THE_MODELS_FAULT.has(record.outcome)) return
  const note = `the reply was cut off at the token limit (${cut})`
  record.reason = record.reason === undefined || record.reason === '' ? note : `${record.reason}; ${note}`
}
