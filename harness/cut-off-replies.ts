import { isCutOffAtTokenLimit } from '../adapters/models/cut-off.ts'
import { NOT_THE_MODELS_FAULT } from '../adapters/outcome.ts'
import type { ItemRecord } from './records/item-record.ts'

/**
 * Replies that ended at the token limit keep the verdict their benchmark gives them (upstream scores them so),
 * and are counted apart: a larger limit could change the score.
 */
export interface CutOffCount {
  /** Items whose reply (a conversation's last turn) ended at the token limit. */
  cut: number
  /** Of those, the ones that did not pass. */
  failed: number
  /** Items the model answered (those not asked are left out). */
  of: number
}

/** The finish reason that cut the item's reply at the token limit: the reply's, or a conversation's last turn's. */
export function cutOffReason(record: ItemRecord): string | undefined {
  const finishReason = record.finishReason ?? record.trajectory?.at(-1)?.finishReason
  return isCutOffAtTokenLimit(finishReason) ? finishReason : undefined
}

export function countCutOff(records: readonly ItemRecord[]): CutOffCount {
  const answered = records.filter((record) => record.outcome !== undefined && !NOT_THE_MODELS_FAULT.has(record.outcome))
  const cut = answered.filter((record) => cutOffReason(record) !== undefined)
  return { cut: cut.length, failed: cut.filter((record) => record.outcome !== 'passed').length, of: answered.length }
}

/** `cut off at the token limit: 37 of 164 (35 of them failed)` */
export function cutOffText(count: CutOffCount): string {
  return `cut off at the token limit: ${count.cut} of ${count.of} (${count.failed} of them failed)`
}

/** The share of answered items above which a run says, once, which limit to raise. */
export const CUT_OFF_WARNING_SHARE = 0.1

/** Said once at the end of a run where more than a tenth of the replies were cut, per suite and model; else nothing. */
export function cutOffAdvice(records: readonly ItemRecord[]): string | undefined {
  const count = countCutOff(records)
  if (count.of === 0 || count.cut <= CUT_OFF_WARNING_SHARE * count.of) return undefined
  const [first] = records
  const limits = [
    ...new Set(
      records.filter((record) => cutOffReason(record) !== undefined).map((record) => record.params?.maxTokens),
    ),
  ]
  const asked = limits.filter((limit) => limit !== undefined)
  const limit =
    asked.length > 0
      ? `the request's maxTokens (${asked.join(', ')}) in ${first?.suite ?? 'the suite'}'s request parameters`
      : `the provider's default output limit: set maxTokens in ${first?.suite ?? 'the suite'}'s request parameters`
  const percent = Math.round((100 * count.cut) / count.of)
  return `${first?.suite ?? ''} · ${first?.model ?? ''}: ${count.cut} of ${count.of} replies (${percent} %) were cut off at the token limit, ${count.failed} of them failed; a larger limit may change the score: raise ${limit}, or lower the thinking effort (TESTBENCH_THINK).`
}
