import { NOT_THE_MODELS_FAULT, OUTCOMES } from '../../adapters/outcome.ts'
import type { ItemRecord } from '../../harness/records/item-record.ts'
import { completionTokenText, promptTokenText } from '../../harness/records/token-text.ts'
import type { Score, ScoreInterval } from '../../harness/scoring/score.ts'
import { markdownTable } from '../markdown-table.ts'
import { itemCluster, itemLabel, pairKey } from '../gate/gate.ts'
import {
  pairedDifference,
  pairedLine,
  type PairedDifference,
  type PairedOutcome,
} from '../statistics/paired-difference.ts'
import { exactMcNemar, formatPValue } from '../statistics/mcnemar.ts'
import { formatCost, runCost, type Cost, type Prices } from '../../harness/run-wide/prices.ts'
import { partialText } from '../run-coverage.ts'
import { countCutOff, type CutOffCount } from '../../harness/cut-off-replies.ts'
import type { RunReport } from '../run-report.ts'
import { savedScores } from './saved-scores.ts'
import { formatInterval, formatLikeScore } from '../statistics/score-interval.ts'

/**
 * Two saved reports of one suite side by side (two runs, two models, a run and its baseline): each
 * score with its 95% interval and the difference B − A, the paired difference of the items both judged
 * with its 95% interval beside the exact McNemar test, both flip lists, pass^k beside pass@k, pass
 * rates per group (each variant, e.g. PE-Bench's languages, and each scoring fact with a few values,
 * e.g. FaRel's relation, BigCodeBench's subset, SWE-bench's repo),
 * counts per outcome, and every item that one report has and the other lacks. Scores come from the
 * suite's own scorer (reporters/saved-reports/saved-scores.ts). It decides nothing: the gate does.
 */
export interface Comparison {
  suite: string
  a: RunSummary
  b: RunSummary
  scores: ScoreDelta[]
  paired: PairedItems
  groups: GroupDelta[]
  outcomes: Array<{ outcome: string; a: number; b: number; difference: number }>
  /** Items (variant, id, sample) only one report has. */
  onlyInA: string[]
  onlyInB: string[]
  /** Items both have but one did not judge: an error that is not the model's fault, or unfinished. */
  notJudgedInBoth: Array<{ item: string; a: string; b: string }>
}

export interface RunSummary {
  file: string
  model: string
  endedAt: string
  complete: boolean
  /** Why the run is not complete: partial, one shard, interrupted. */
  coverage?: string
  items: number
  tokens: RunReport['tokens']
  /** The part of `tokens` batches answered, at the batch price. */
  batchTokens?: RunReport['batchTokens']
  latencyMs: RunReport['latencyMs']
  cost?: Cost
  /** Replies cut off at the token limit (counted from the items, so older reports have it too). */
  cutOff: CutOffCount
}

export interface ScoreDelta {
  name: string
  a?: ScoreSide
  b?: ScoreSide
  /** B − A, in the score's scale. */
  difference?: number
  /** B − A as the score's display shows numbers. */
  differenceDisplay?: string
}

export interface ScoreSide {
  value: number
  display: string
  interval?: ScoreInterval
  intervalDisplay?: string
}

export interface PairedItems {
  /** Items judged in both runs. */
  compared: number
  bothPassed: number
  bothFailed: number
  passToFail: string[]
  failToPass: string[]
  /** Two-sided exact McNemar p-value on the items that flipped. */
  pValue: number
  /** B − A on these items, in points, with its paired 95% interval (reporters/statistics/paired-difference.ts). */
  difference?: PairedDifference
}

export interface GroupDelta {
  /** `variant`, or the scoring fact's name (`relation`, `subset`…). */
  by: string
  value: string
  a: { passed: number; judged: number }
  b: { passed: number; judged: number }
  /** B − A in percentage points; undefined when one side judged none. */
  difference?: number
}

export interface CompareInput {
  file: string
  report: RunReport
}

/** Groups a scoring fact forms at most to be listed (more, like PE-Bench's problem numbers, are items, not groups). */
const MAX_GROUPS = 40

export class CompareError extends Error {
  override readonly name = 'CompareError'
}

export function compareReports(a: CompareInput, b: CompareInput, prices?: Prices): Comparison {
  if (a.report.benchmark !== b.report.benchmark) {
    throw new CompareError(
      `${a.file} is a ${a.report.benchmark} report and ${b.file} a ${b.report.benchmark} report: compare two reports of one suite.`,
    )
  }
  const itemsA = byItem(a.report.items)
  const itemsB = byItem(b.report.items)
  const paired: PairedItems = { compared: 0, bothPassed: 0, bothFailed: 0, passToFail: [], failToPass: [], pValue: 1 }
  const notJudgedInBoth: Comparison['notJudgedInBoth'] = []
  const pairs: PairedOutcome[] = []
  for (const [key, recordA] of itemsA) {
    const recordB = itemsB.get(key)
    if (recordB === undefined) continue
    if (!isJudged(recordA) || !isJudged(recordB)) {
      notJudgedInBoth.push({
        item: itemLabel(recordA),
        a: recordA.outcome ?? 'unfinished',
        b: recordB.outcome ?? 'unfinished',
      })
      continue
    }
    paired.compared++
    const passedA = recordA.outcome === 'passed'
    const passedB = recordB.outcome === 'passed'
    pairs.push({ cluster: itemCluster(recordA), passedA, passedB })
    if (passedA && passedB) paired.bothPassed++
    else if (!passedA && !passedB) paired.bothFailed++
    else if (passedA) paired.passToFail.push(itemLabel(recordA))
    else paired.failToPass.push(itemLabel(recordA))
  }
  paired.pValue = exactMcNemar(paired.passToFail.length, paired.failToPass.length).pValue
  const difference = pairedDifference(pairs)
  if (difference) paired.difference = difference
  return {
    suite: a.report.benchmark,
    a: runSummary(a, prices),
    b: runSummary(b, prices),
    scores: scoreDeltas(savedScores(a.report), savedScores(b.report)),
    paired,
    groups: groupDeltas(a.report.items, b.report.items),
    outcomes: [...OUTCOMES, 'unfinished' as const]
      .map((outcome) => {
        const countA = a.report.items.filter((record) => (record.outcome ?? 'unfinished') === outcome).length
        const countB = b.report.items.filter((record) => (record.outcome ?? 'unfinished') === outcome).length
        return { outcome, a: countA, b: countB, difference: countB - countA }
      })
      .filter((row) => row.a > 0 || row.b > 0),
    onlyInA: [...itemsA].filter(([key]) => !itemsB.has(key)).map(([, record]) => itemLabel(record)),
    onlyInB: [...itemsB].filter(([key]) => !itemsA.has(key)).map(([, record]) => itemLabel(record)),
    notJudgedInBoth,
  }
}

function runSummary({ file, report }: CompareInput, prices: Prices | undefined): RunSummary {
  const cost = runCost(prices, report.model.label, report.tokens, report.batchTokens) ?? report.cost
  const coverage = report.shard
    ? `shard ${report.shard.index}/${report.shard.count}`
    : report.partial
      ? `partial: ${partialText(report.partial)}`
      : report.complete
        ? undefined
        : 'interrupted'
  return {
    file,
    model: report.model.label,
    endedAt: report.endedAt,
    complete: report.complete,
    ...(coverage ? { coverage } : {}),
    items: report.items.length,
    tokens: report.tokens,
    ...(report.batchTokens ? { batchTokens: report.batchTokens } : {}),
    latencyMs: report.latencyMs,
    ...(cost ? { cost } : {}),
    cutOff: countCutOff(report.items),
  }
}

function scoreDeltas(scoresA: readonly Score[], scoresB: readonly Score[]): ScoreDelta[] {
  const names = [...new Set([...scoresA, ...scoresB].map((score) => score.name))]
  return names.map((name) => {
    const a = scoresA.find((score) => score.name === name)
    const b = scoresB.find((score) => score.name === name)
    const delta: ScoreDelta = { name, ...(a ? { a: side(a) } : {}), ...(b ? { b: side(b) } : {}) }
    // A score over no item is no score: there is no difference to take.
    if (a && b && a.noItems === undefined && b.noItems === undefined) {
      delta.difference = b.value - a.value
      delta.differenceDisplay = signed(formatLikeScore(a, delta.difference))
    }
    return delta
  })
}

function side(score: Score): ScoreSide {
  const intervalDisplay = formatInterval(score)
  return {
    value: score.value,
    display: score.noItems === undefined ? score.display : `${score.display} (${score.noItems})`,
    ...(score.interval ? { interval: score.interval } : {}),
    ...(intervalDisplay ? { intervalDisplay } : {}),
  }
}

/** Pass rates per variant and per scoring fact with 2 to 40 values, over the judged samples of each run. */
function groupDeltas(recordsA: readonly ItemRecord[], recordsB: readonly ItemRecord[]): GroupDelta[] {
  const groupings = new Map<string, (record: ItemRecord) => string | undefined>([
    ['variant', (record) => record.variant],
  ])
  for (const record of [...recordsA, ...recordsB]) {
    for (const [fact, value] of Object.entries(record.scoring ?? {})) {
      if (typeof value !== 'number' && !groupings.has(fact))
        groupings.set(fact, (candidate) => factValue(candidate, fact))
    }
  }
  const deltas: GroupDelta[] = []
  for (const [by, groupOf] of groupings) {
    const values = [...new Set([...recordsA, ...recordsB].map(groupOf).filter((value) => value !== undefined))]
    if (values.length < 2 || values.length > MAX_GROUPS) continue
    for (const value of values) {
      const a = passRate(recordsA.filter((record) => groupOf(record) === value))
      const b = passRate(recordsB.filter((record) => groupOf(record) === value))
      const difference =
        a.judged > 0 && b.judged > 0 ? (100 * b.passed) / b.judged - (100 * a.passed) / a.judged : undefined
      deltas.push({ by, value, a, b, ...(difference === undefined ? {} : { difference }) })
    }
  }
  return deltas
}

function factValue(record: ItemRecord, fact: string): string | undefined {
  const value = record.scoring?.[fact]
  return value === undefined || typeof value === 'number' ? undefined : String(value)
}

function passRate(records: readonly ItemRecord[]): { passed: number; judged: number } {
  const judged = records.filter(isJudged)
  return { passed: judged.filter((record) => record.outcome === 'passed').length, judged: judged.length }
}

function byItem(records: readonly ItemRecord[]): Map<string, ItemRecord> {
  return new Map(records.map((record) => [pairKey(record), record]))
}

function isJudged(record: ItemRecord): boolean {
  return record.outcome !== undefined && !NOT_THE_MODELS_FAULT.has(record.outcome)
}

function signed(text: string): string {
  return /^-/.test(text) ? text.replace(/^-/, '−') : `+${text}`
}

/** The comparison in Markdown, for a terminal, a pull request or a job summary. */
export function comparisonMarkdown(comparison: Comparison): string {
  const { a, b, paired } = comparison
  const runRow = (label: string, show: (run: RunSummary) => string) => ({ '': label, A: show(a), B: show(b) })
  const lines = [
    `# ${comparison.suite}: A = ${a.model}, B = ${b.model}`,
    '',
    markdownTable([
      runRow('report', (run) => `\`${run.file}\``),
      runRow('run ended', (run) => run.endedAt.slice(0, 16).replace('T', ' ')),
      runRow('items', (run) => `${run.items}${run.coverage ? ` (${run.coverage})` : ''}`),
      runRow('tokens in / out', (run) => `${promptTokenText(run.tokens)} / ${completionTokenText(run.tokens)}`),
      ...(a.batchTokens || b.batchTokens
        ? [
            runRow('of them through batches', (run) =>
              run.batchTokens ? `${run.batchTokens.prompt} / ${run.batchTokens.completion}` : '0 / 0',
            ),
          ]
        : []),
      runRow('tokens/s', (run) =>
        run.tokens.completionPerSecond === undefined ? '' : String(run.tokens.completionPerSecond),
      ),
      runRow('latency p50 / p95', (run) => (run.latencyMs ? `${run.latencyMs.p50} / ${run.latencyMs.p95} ms` : '')),
      runRow('cost', (run) => (run.cost ? formatCost(run.cost) : '')),
      runRow(
        'cut off at the token limit',
        (run) => `${run.cutOff.cut} of ${run.cutOff.of} (${run.cutOff.failed} failed)`,
      ),
    ]),
    '',
    '## Scores',
    '',
    markdownTable(
      comparison.scores.map((score) => ({
        score: score.name,
        A: score.a?.display ?? '(none)',
        'A 95% interval': score.a?.intervalDisplay ?? '',
        B: score.b?.display ?? '(none)',
        'B 95% interval': score.b?.intervalDisplay ?? '',
        'B − A': score.differenceDisplay ?? '',
      })),
    ),
    '',
    '## Paired items',
    '',
    ...(paired.difference ? [pairedDifferenceLine(paired, paired.difference), ''] : []),
    pairedSummary(paired),
    '',
    `### pass → fail (${paired.passToFail.length})`,
    '',
    itemList(paired.passToFail),
    '',
    `### fail → pass (${paired.failToPass.length})`,
    '',
    itemList(paired.failToPass),
  ]
  if (comparison.groups.length > 0) {
    lines.push('', '## Per group (pass rate of the judged samples)', '')
    lines.push(
      markdownTable(
        comparison.groups.map((group) => ({
          group: `${group.by} = ${group.value}`,
          A: rateText(group.a),
          B: rateText(group.b),
          'B − A (points)': group.difference === undefined ? '' : signed(group.difference.toFixed(2)),
        })),
      ),
    )
  }
  lines.push(
    '',
    '## Outcomes',
    '',
    markdownTable(
      comparison.outcomes.map((row) => ({
        outcome: row.outcome,
        A: String(row.a),
        B: String(row.b),
        'B − A': signed(String(row.difference)).replace(/^\+0$/, '0'),
      })),
    ),
  )
  lines.push(
    '',
    `## Items in one report only`,
    '',
    `- only in A (${comparison.onlyInA.length}): ${inlineList(comparison.onlyInA)}`,
    `- only in B (${comparison.onlyInB.length}): ${inlineList(comparison.onlyInB)}`,
  )
  if (comparison.notJudgedInBoth.length > 0) {
    lines.push(
      '',
      `## Not judged in both (${comparison.notJudgedInBoth.length}): an error that is not the model's fault, or unfinished`,
      '',
    )
    for (const item of comparison.notJudgedInBoth) lines.push(`- ${item.item}: A ${item.a}, B ${item.b}`)
  }
  return `${lines.join('\n')}\n`
}

function rateText({ passed, judged }: { passed: number; judged: number }): string {
  return judged === 0 ? '—' : `${((100 * passed) / judged).toFixed(2)}% (${passed}/${judged})`
}

function itemList(items: readonly string[]): string {
  return items.length === 0 ? 'none' : items.map((item) => `- ${item}`).join('\n')
}

function inlineList(items: readonly string[]): string {
  return items.length === 0 ? 'none' : items.map((item) => `\`${item}\``).join(', ')
}

function pairedDifferenceLine(paired: PairedItems, difference: NonNullable<PairedItems['difference']>): string {
  const line = pairedLine(difference, paired.pValue, paired.passToFail.length, paired.failToPass.length)
  const grouped =
    difference.designEffect > 1
      ? `, samples of one item grouped: design effect ${difference.designEffect.toFixed(2)}`
      : ''
  const method = `paired interval, Tango's score method${grouped}`
  return `B − A: ${line} (pass rate on the ${paired.compared} item(s) judged in both; ${method}).`
}

function pairedSummary(paired: PairedItems): string {
  const passToFail = paired.passToFail.length
  const failToPass = paired.failToPass.length
  const both = `${paired.bothPassed} passed in both, ${paired.bothFailed} failed in both`
  const test = `Exact McNemar test on the ${passToFail + failToPass} that flipped: p = ${formatPValue(paired.pValue)} (two-sided).`
  return `${paired.compared} item(s) judged in both runs: ${both}, ${passToFail} pass → fail, ${failToPass} fail → pass. ${test}`
}
