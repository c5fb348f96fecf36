import type { ItemRecord } from '../harness/records/item-record.ts'
import { OUTCOMES, type Outcome } from '../adapters/outcome.ts'
import { completionTokenText, promptTokenText } from '../harness/records/token-text.ts'
import type { Score } from '../harness/scoring/score.ts'
import { UNSANDBOXED } from '../adapters/sandbox/sandbox-tier.ts'
import { partialText, type PartialRun } from './run-coverage.ts'
import { formatInterval } from './statistics/score-interval.ts'
import { flakyItems, flakyLine, type FlakyItem } from './statistics/flaky-items.ts'
import { formatCost, runCost, type Cost, type Prices } from '../harness/run-wide/prices.ts'
import { TESTBENCH_VERSION } from '../harness/version.ts'
import type { TokenUsage } from '../adapters/models/model-adapter.ts'
import { sumTokens } from '../adapters/models/token-usage.ts'
import { countCutOff, cutOffText, type CutOffCount } from '../harness/cut-off-replies.ts'

/** Everything one run of one suite with one model produced: what the JSON report holds. */
export interface RunReport {
  /** The llm-testbench version that wrote the report (reports written before 0.1.0 have none). */
  testbench?: { version: string }
  benchmark: string
  model: { label: string; provider: string; details: Record<string, string | number> }
  parameters: Record<string, number | string | string[]>
  startedAt: string
  endedAt: string
  /** False when the run was interrupted or crashed, or covered part of the set (`partial`): the scores cover only the items that finished. */
  complete: boolean
  /** Set when the run covered part of the suite's set (filtered with -t, one shard, a narrowing knob…): "12 of 164 items". */
  partial?: PartialRun
  /** Set when this is one shard of a split run (`--shard=index/count`): its scores cover that shard's items only. */
  shard?: Shard
  /** The sandbox tiers the items' programs ran in (`process (bubblewrap 0.8.0)`…); empty when they ran none. */
  sandbox: string[]
  /** Some program of this run ran without a sandbox (SANDBOX=none): its verdicts could have been forged. */
  unsandboxed: boolean
  scores: Score[]
  /** Items whose samples disagree (some passed, some not), worst first; only with two or more samples per item. */
  flaky?: FlakyItem[]
  outcomes: Record<Outcome | 'unfinished', number>
  /** Items not asked because the run's cost limit was reached: the run is partial, a rerun asks them. */
  notAsked?: number
  /** Replies that ended at the token limit, counted apart (their verdicts stand); absent in reports written before. */
  cutOff?: CutOffCount
  tokens: TokenUsage & { completionPerSecond: number | undefined }
  /** The part of `tokens` the provider's batch API answered (TESTBENCH_BATCH), at the batch price; absent when none. */
  batchTokens?: TokenUsage
  latencyMs: { mean: number; p50: number; p95: number } | undefined
  /** What the tokens cost, when TESTBENCH_PRICES gave the model a price. */
  cost?: Cost
  /** The run's cost limit (TESTBENCH_COST_LIMIT) and what the whole run spent against it, every model together. */
  costLimit?: CostLimitFacts
  items: ItemRecord[]
}

export interface CostLimitFacts {
  limit: number
  spent: number
  currency: string
  /** Requests the limit kept from being sent: a rerun with a higher limit asks only those. */
  notSent: number
}

export interface Shard {
  index: number
  count: number
}

export interface RunFacts {
  /** False when the run ended before every item finished. */
  complete: boolean
  endedAt: Date
  shard?: Shard
  partial?: PartialRun
  /** Token prices (TESTBENCH_PRICES), for the run's cost. */
  prices?: Prices
  costLimit?: CostLimitFacts
}

export function buildRunReport(
  records: readonly ItemRecord[],
  scores: Score[],
  { complete, endedAt, shard, partial, prices, costLimit }: RunFacts,
): RunReport {
  const [first] = records
  if (!first) throw new Error('a run report needs at least one item')
  const outcomes = Object.fromEntries(
    [...OUTCOMES, 'unfinished'].map((outcome) => [outcome, 0]),
  ) as RunReport['outcomes']
  for (const record of records) outcomes[record.outcome ?? 'unfinished']++
  const latencies = records
    .flatMap((record) => (record.latencyMs === undefined ? [] : [record.latencyMs]))
    .sort((a, b) => a - b)
  const tokens = sumTokens(records.map((record) => record.tokens))
  const generationSeconds = sum(records.map((record) => (record.tokens ? (record.latencyMs ?? 0) : 0))) / 1000
  const batched = records.filter((record) => record.batch !== undefined && record.tokens !== undefined)
  const batchTokens = batched.length === 0 ? undefined : sumTokens(batched.map((record) => record.tokens))
  const cost = runCost(prices, first.model, tokens, batchTokens)
  const flaky = flakyItems(records)
  const notAsked = records.filter((record) => record.notAsked === 'cost_limit').length
  return {
    testbench: { version: TESTBENCH_VERSION },
    benchmark: first.suite,
    model: { label: first.model, provider: first.provider, details: first.modelDetails ?? {} },
    parameters: first.params ?? {},
    startedAt:
      records
        .map((record) => record.startedAt ?? '')
        .filter(Boolean)
        .sort()[0] ?? endedAt.toISOString(),
    endedAt: endedAt.toISOString(),
    complete: complete && outcomes.unfinished === 0 && partial === undefined && notAsked === 0,
    ...(partial ? { partial } : {}),
    ...(shard ? { shard } : {}),
    sandbox: [...new Set(records.flatMap((record) => (record.sandbox === undefined ? [] : [record.sandbox])))].sort(),
    unsandboxed: records.some((record) => record.sandbox === UNSANDBOXED),
    scores,
    ...(flaky.length > 0 ? { flaky } : {}),
    outcomes,
    cutOff: countCutOff(records),
    ...(notAsked > 0 ? { notAsked } : {}),
    tokens: {
      ...tokens,
      completionPerSecond: generationSeconds > 0 ? round(tokens.completion / generationSeconds, 1) : undefined,
    },
    ...(batchTokens === undefined ? {} : { batchTokens }),
    latencyMs:
      latencies.length === 0
        ? undefined
        : {
            mean: Math.round(sum(latencies) / latencies.length),
            p50: Math.round(quantile(latencies, 0.5)),
            p95: Math.round(quantile(latencies, 0.95)),
          },
    ...(cost ? { cost } : {}),
    ...(costLimit ? { costLimit } : {}),
    items: [...records],
  }
}

/** The short text a person reads after a run. */
export function summaryText(report: RunReport): string {
  const shard = report.shard
    ? ` · SHARD ${report.shard.index}/${report.shard.count} (scores cover this shard's items only; --merge-reports gives the whole run's)`
    : ''
  const partial = report.partial ? ` · PARTIAL: ${partialText(report.partial)}; scores cover those items only` : ''
  const costLimited =
    report.notAsked === undefined
      ? ''
      : ` · PARTIAL: ${report.notAsked} item(s) not asked, the cost limit was reached (TESTBENCH_COST_LIMIT); a rerun with a higher limit asks only those`
  const interrupted =
    !report.complete &&
    report.notAsked === undefined &&
    (report.partial === undefined || report.outcomes.unfinished > 0)
      ? ' · INCOMPLETE (interrupted: scores cover finished items only)'
      : ''
  const unsandboxed =
    report.unsandboxed === true
      ? ' · UNSANDBOXED (SANDBOX=none: programs ran without a sandbox; verdicts could be forged)'
      : ''
  const lines = [
    `${report.benchmark} · ${report.model.label}${shard}${partial}${costLimited}${interrupted}${unsandboxed}`,
  ]
  for (const score of report.scores) {
    if (score.noItems !== undefined) {
      lines.push(`  ${score.name}: ${score.display}: ${score.noItems}`)
      continue
    }
    const counted = score.counted ? ` (solved ${score.counted.solved}/${score.counted.total})` : ''
    const interval = formatInterval(score)
    lines.push(`  ${score.name} = ${score.display}${counted}${interval ? `, 95% interval ${interval}` : ''}`)
    if (score.excluded?.length)
      lines.push(`    excluded: ${score.excluded.length} item(s), not counted as model failures`)
    for (const note of score.notes ?? []) lines.push(`    ${note}`)
  }
  const flaky = flakyLine(report.flaky ?? [])
  if (flaky) lines.push(`  ${flaky}`)
  const outcomes = Object.entries(report.outcomes)
    .filter(([, count]) => count > 0)
    .map(([outcome, count]) => `${outcome} ${count}`)
  lines.push(`  outcomes: ${outcomes.join(', ')}`)
  if (report.cutOff !== undefined && report.cutOff.cut > 0) lines.push(`  ${cutOffText(report.cutOff)}`)
  if (report.tokens.completion > 0) {
    const speed =
      report.tokens.completionPerSecond === undefined ? '' : `, ${report.tokens.completionPerSecond} tokens/s`
    lines.push(
      `  tokens: ${promptTokenText(report.tokens)} prompt, ${completionTokenText(report.tokens)} completion${speed}`,
    )
    if (report.batchTokens) {
      const batch = report.batchTokens
      const oneByOne = `${report.tokens.prompt - batch.prompt} prompt, ${report.tokens.completion - batch.completion} completion`
      lines.push(
        `    through batches (batch price): ${batch.prompt} prompt, ${batch.completion} completion; one by one: ${oneByOne}`,
      )
    }
  }
  if (report.cost)
    lines.push(
      `  cost: ${formatCost(report.cost)} (prompt ${report.cost.input.toFixed(4)}, completion ${report.cost.output.toFixed(4)})`,
    )
  if (report.sandbox?.length) lines.push(`  sandbox: ${report.sandbox.join(', ')}`)
  if (report.latencyMs)
    lines.push(
      `  latency: mean ${report.latencyMs.mean} ms, p50 ${report.latencyMs.p50} ms, p95 ${report.latencyMs.p95} ms`,
    )
  if (report.testbench) lines.push(`  llm-testbench ${report.testbench.version}`)
  return lines.join('\n')
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0)
}

function quantile(sorted: readonly number[], q: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))
  return sorted[index] ?? 0
}

function round(value: number, digits: number): number {
  return Math.round(value * 10 ** digits) / 10 ** digits
}
