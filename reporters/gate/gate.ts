import type { ItemRecord } from '../../harness/records/item-record.ts'
import { NOT_THE_MODELS_FAULT } from '../../adapters/outcome.ts'
import type { Score } from '../../harness/scoring/score.ts'
import { groupBy } from '../../harness/group-by.ts'
import { gateFor, type Baseline, type GateConfig } from './gate-config.ts'
import { exactMcNemar, formatPValue } from '../statistics/mcnemar.ts'
import { scorerFor } from '../scorers.ts'
import {
  pairedDifference,
  pairedLine,
  type PairedDifference,
  type PairedOutcome,
} from '../statistics/paired-difference.ts'

/** The gate's answer for one run, with every reason it gives. */
export interface GateVerdict {
  passed: boolean
  configFile: string
  /** What is wrong with the run as a whole: unhandled errors, files that did not load, nothing ran… */
  problems: string[]
  groups: GroupVerdict[]
}

/** One model on one suite. */
export interface GroupVerdict {
  suite: string
  model: string
  passed: boolean
  minimums: MinimumCheck[]
  baseline?: BaselineCheck
  /** Items the model could not be asked about, or that our side broke on: never the model's fault, always a failed gate. */
  errors: Array<{ itemId: string; outcome: string; output?: string }>
  /** Items that started but have no outcome: stopped before they finished, or skipped from inside. */
  unfinished: string[]
}

export interface MinimumCheck {
  score: string
  minimum: number
  /** Undefined when the suite has no score of that name. */
  value?: number
  display?: string
  passed: boolean
}

export interface BaselineCheck {
  file: string
  baselineModel: string
  alpha: number
  /** Items judged in both runs. */
  compared: number
  /** Items of this run that the baseline does not have. */
  notInBaseline: number
  /** Items the baseline judged that this run did not run (filtered out, a shard not merged…): each fails the gate. */
  missing: string[]
  passToFail: string[]
  failToPass: string[]
  pValue: number
  /** This run − the baseline on the items both judged, in points, with its paired 95% interval. */
  difference?: PairedDifference
  /** The config's `maxDrop`, when set: the verdict is on the interval instead of the p-value. */
  maxDrop?: number
  passed: boolean
}

export interface GateInput {
  config: GateConfig
  records: readonly ItemRecord[]
  /** Problems with the run as a whole, found by the reporter. */
  problems: readonly string[]
}

/**
 * Decides the gate: every gated model on every gated suite meets its minimums and is not
 * significantly worse than its baseline (exact McNemar on the items both runs judged; or, with
 * `maxDrop`, not worse by more than that many points by the paired 95% interval of the difference), and
 * the run itself is sound (no errors, nothing unfinished, something ran, every gated suite ran).
 */
export function evaluateGate({ config, records, problems }: GateInput): GateVerdict {
  const runProblems = [...problems]
  if (records.length === 0) runProblems.push('no benchmark item ran: an empty run proves nothing about the model.')
  for (const suite of Object.keys(config.suites)) {
    if (!records.some((record) => record.suite === suite))
      runProblems.push(
        `suite ${suite} is gated in ${config.file} but did not run: run it too, or take it out of the config.`,
      )
  }
  if (config.model !== undefined && records.length > 0 && !records.some((record) => record.model === config.model)) {
    runProblems.push(
      `the gate is for model ${config.model} (${config.file}), which did not run: set MODEL=${config.model}.`,
    )
  }
  const groups: GroupVerdict[] = []
  for (const [suite, suiteRecords] of groupBy(records, (record) => record.suite)) {
    const scores = scorerFor(suite)(suiteRecords)
    for (const [model, modelRecords] of groupBy(suiteRecords, (record) => record.model)) {
      groups.push(
        judgeGroup(
          config,
          suite,
          model,
          modelRecords,
          scores.filter((score) => score.model === model),
        ),
      )
    }
  }
  return {
    passed: runProblems.length === 0 && groups.every((group) => group.passed),
    configFile: config.file,
    problems: runProblems,
    groups,
  }
}

function judgeGroup(
  config: GateConfig,
  suite: string,
  model: string,
  records: readonly ItemRecord[],
  scores: readonly Score[],
): GroupVerdict {
  const gate = gateFor(config, suite, model)
  const errors = records
    .filter((record) => record.outcome !== undefined && NOT_THE_MODELS_FAULT.has(record.outcome))
    .map((record) => ({
      itemId: itemLabel(record),
      outcome: record.outcome ?? '',
      ...(record.output ? { output: record.output } : {}),
    }))
  const unfinished = records.filter((record) => record.outcome === undefined).map(itemLabel)
  const minimums = Object.entries(gate?.minimum ?? {}).map(([name, minimum]): MinimumCheck => {
    const score = scores.find((candidate) => candidate.name === name)
    if (!score) return { score: name, minimum, passed: false }
    // A score over no item is no score: it meets no minimum, and says why.
    if (score.noItems !== undefined)
      return { score: name, minimum, value: score.value, display: `${score.display} (${score.noItems})`, passed: false }
    return { score: name, minimum, value: score.value, display: score.display, passed: score.value >= minimum }
  })
  const baseline = gate?.baseline ? compareWithBaseline(records, gate.baseline, config.alpha, gate.maxDrop) : undefined
  const passed =
    errors.length === 0 &&
    unfinished.length === 0 &&
    minimums.every((check) => check.passed) &&
    (baseline?.passed ?? true)
  return { suite, model, passed, minimums, ...(baseline ? { baseline } : {}), errors, unfinished }
}

/**
 * Pairs the items judged in both runs and counts the flips. Without `maxDrop`, significantly more pass→fail than
 * fail→pass fails (exact McNemar at `alpha`); with it, a drop of more than `maxDrop` points with 95% confidence
 * fails: the whole paired interval of this run − the baseline lies below −maxDrop.
 */
export function compareWithBaseline(
  records: readonly ItemRecord[],
  baseline: Baseline,
  alpha: number,
  maxDrop?: number,
): BaselineCheck {
  const judgedBefore = baseline.report.items.filter(isJudged)
  const before = new Map(judgedBefore.map((record) => [pairKey(record), record.outcome === 'passed']))
  const ranNow = new Set(records.map(pairKey))
  const missing = judgedBefore.filter((record) => !ranNow.has(pairKey(record))).map(itemLabel)
  const passToFail: string[] = []
  const failToPass: string[] = []
  let compared = 0
  let notInBaseline = 0
  const pairs: PairedOutcome[] = []
  for (const record of records.filter(isJudged)) {
    const passedBefore = before.get(pairKey(record))
    if (passedBefore === undefined) {
      notInBaseline++
      continue
    }
    compared++
    const passedNow = record.outcome === 'passed'
    pairs.push({ cluster: itemCluster(record), passedA: passedBefore, passedB: passedNow })
    if (passedBefore && !passedNow) passToFail.push(itemLabel(record))
    if (!passedBefore && passedNow) failToPass.push(itemLabel(record))
  }
  const { pValue } = exactMcNemar(passToFail.length, failToPass.length)
  const difference = pairedDifference(pairs)
  const worse =
    maxDrop === undefined
      ? passToFail.length > failToPass.length && pValue < alpha
      : difference !== undefined && difference.high < -maxDrop
  return {
    file: baseline.file,
    baselineModel: baseline.report.model.label,
    alpha,
    compared,
    notInBaseline,
    missing,
    passToFail,
    failToPass,
    pValue,
    ...(difference ? { difference } : {}),
    ...(maxDrop === undefined ? {} : { maxDrop }),
    passed: compared > 0 && !worse && missing.length === 0,
  }
}

/** What groups the samples of one item: its variant and id. */
export function itemCluster(record: ItemRecord): string {
  return JSON.stringify([record.variant ?? '', record.itemId])
}

function isJudged(record: ItemRecord): boolean {
  return record.outcome !== undefined && !NOT_THE_MODELS_FAULT.has(record.outcome)
}

/** What pairs an item of one run with the same item of another: its variant, id and sample. */
export function pairKey(record: ItemRecord): string {
  return JSON.stringify([record.variant ?? '', record.itemId, record.sample])
}

/** `java > 0022 (sample 1)`: an item as flip lists and error lists name it. */
export function itemLabel(record: ItemRecord): string {
  const variant = record.variant ? `${record.variant} > ` : ''
  return record.sample > 0 ? `${variant}${record.itemId} (sample ${record.sample})` : `${variant}${record.itemId}`
}

/** The verdict as the terminal shows it: every reason, and every item that flipped. */
export function gateText(verdict: GateVerdict): string {
  const lines = [`Model gate (${verdict.configFile}): ${verdict.passed ? 'PASSED' : 'FAILED'}`]
  for (const problem of verdict.problems) lines.push(`  ✗ ${problem}`)
  for (const group of verdict.groups) {
    lines.push(`  ${group.suite} · ${group.model}`)
    for (const check of group.minimums) lines.push(`    ${mark(check.passed)} ${minimumLine(check)}`)
    if (group.baseline) {
      lines.push(`    ${mark(group.baseline.passed)} ${baselineLine(group.baseline)}`)
      lines.push(`      pass → fail (${group.baseline.passToFail.length}):${itemList(group.baseline.passToFail)}`)
      lines.push(`      fail → pass (${group.baseline.failToPass.length}):${itemList(group.baseline.failToPass)}`)
      if (group.baseline.missing.length > 0)
        lines.push(`    ✗ ${missingLine(group.baseline)}:${itemList(group.baseline.missing)}`)
    }
    if (group.errors.length > 0) {
      lines.push(
        `    ✗ ${group.errors.length} item(s) hit an error that is not the model's fault, so the run cannot judge the model:`,
      )
      for (const error of group.errors)
        lines.push(`        ${error.itemId}: ${error.outcome}${error.output ? ` (${firstLine(error.output)})` : ''}`)
    }
    if (group.unfinished.length > 0)
      lines.push(
        `    ✗ ${group.unfinished.length} item(s) have no outcome (stopped before they finished, or skipped):${itemList(group.unfinished)}`,
      )
    if (group.minimums.length === 0 && !group.baseline && group.errors.length === 0 && group.unfinished.length === 0) {
      lines.push('    ✓ no error (no minimum or baseline for this suite and model)')
    }
  }
  return lines.join('\n')
}

/** The verdict for a GitHub job summary. */
export function gateMarkdown(verdict: GateVerdict): string {
  const lines = [
    `## Model gate: ${verdict.passed ? '✅ passed' : '❌ failed'}`,
    '',
    `Config: \`${verdict.configFile}\``,
    '',
  ]
  for (const problem of verdict.problems) lines.push(`- ❌ ${problem}`)
  for (const group of verdict.groups) {
    lines.push(`- ${group.passed ? '✅' : '❌'} **${group.suite}** · \`${group.model}\``)
    for (const check of group.minimums) lines.push(`  - ${check.passed ? '✅' : '❌'} ${minimumLine(check)}`)
    if (group.baseline) {
      const baseline = group.baseline
      lines.push(`  - ${baseline.passed ? '✅' : '❌'} ${baselineLine(baseline)}`)
      lines.push(`    - pass → fail (${baseline.passToFail.length}): ${markdownItems(baseline.passToFail)}`)
      lines.push(`    - fail → pass (${baseline.failToPass.length}): ${markdownItems(baseline.failToPass)}`)
      if (baseline.missing.length > 0)
        lines.push(`    - ❌ ${missingLine(baseline)}: ${markdownItems(baseline.missing)}`)
    }
    if (group.errors.length > 0)
      lines.push(
        `  - ❌ ${group.errors.length} item(s) with provider or infrastructure errors: ${group.errors.map((error) => `${error.itemId} (${error.outcome})`).join(', ')}`,
      )
    if (group.unfinished.length > 0)
      lines.push(`  - ❌ ${group.unfinished.length} item(s) have no outcome (stopped before they finished, or skipped)`)
  }
  return `${lines.join('\n')}\n`
}

/** Item ids in code spans, at most 100 (gate.json has every one). */
function markdownItems(items: readonly string[]): string {
  if (items.length === 0) return 'none'
  const shown = items
    .slice(0, 100)
    .map((item) => `\`${item}\``)
    .join(', ')
  return items.length > 100 ? `${shown} … and ${items.length - 100} more (all in gate.json)` : shown
}

function missingLine(check: BaselineCheck): string {
  return `${check.missing.length} item(s) of the baseline did not run, so the run cannot be compared with it (filtered out, or a shard not merged)`
}

function minimumLine(check: MinimumCheck): string {
  if (check.value === undefined) return `${check.score}: the suite has no score of that name (minimum ${check.minimum})`
  return `${check.score} = ${check.display ?? check.value} ${check.passed ? '≥' : '<'} minimum ${check.minimum}`
}

function baselineLine(check: BaselineCheck): string {
  if (check.compared === 0)
    return `baseline ${check.file} (${check.baselineModel}) shares no judged item with this run: was it made with other options?`
  const change = check.difference
    ? pairedLine(check.difference, check.pValue, check.passToFail.length, check.failToPass.length)
    : `p = ${formatPValue(check.pValue)}, ${check.passToFail.length} items pass → fail, ${check.failToPass.length} fail → pass`
  const verdict =
    check.maxDrop !== undefined
      ? check.difference !== undefined && check.difference.high < -check.maxDrop
        ? `the whole interval is below −${check.maxDrop} points: dropped by more than maxDrop = ${check.maxDrop} points`
        : `not a drop of more than maxDrop = ${check.maxDrop} points (the interval reaches above −${check.maxDrop})`
      : check.passToFail.length > check.failToPass.length && check.pValue < check.alpha
        ? `exact McNemar p < α = ${check.alpha}: significantly worse`
        : check.pValue < check.alpha
          ? `exact McNemar p < α = ${check.alpha}, and better`
          : `exact McNemar p ≥ α = ${check.alpha}: not significantly worse`
  const extra = check.notInBaseline > 0 ? `; ${check.notInBaseline} item(s) not in the baseline were not compared` : ''
  const compared = `${check.compared} items compared`
  return `vs baseline ${check.file} (${check.baselineModel}): ${compared}, ${change}; ${verdict}${extra}`
}

function mark(passed: boolean): string {
  return passed ? '✓' : '✗'
}

function itemList(items: readonly string[]): string {
  return items.length === 0 ? ' none' : items.map((item) => `\n        ${item}`).join('')
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? ''
  return line.length > 160 ? `${line.slice(0, 159)}…` : line
}
