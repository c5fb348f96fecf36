/**
 * From a model's reply to a verdict: the patch extracted (empty or unusable is
 * `no_answer`), then evaluated in the instance's container, or, in generate-only
 * mode, checked against the repository when a clone is at hand. A SWE-bench
 * prediction (`model_patch`, replayed) is the patch itself, byte for byte, as the
 * official harness takes it: nothing extracted, repaired or normalised.
 */
import type { Verdict } from '../../../adapters/outcome.ts'
import type { Evaluation, EvaluationStatus } from '../evaluation/evaluate.ts'
import { extractPatch } from './extract-patch.ts'
import type { SwebenchInstance } from '../instance.ts'
import type { PatchCheck } from '../repo-cache.ts'

export type VerdictStatus = EvaluationStatus | 'empty_patch' | 'generated'

export interface ReplyVerdict extends Verdict {
  status: VerdictStatus
  /** The patch as extracted and repaired; empty when there was none. */
  patch: string
  /** Hunk headers whose counts were rewritten. */
  repaired: string[]
  check?: PatchCheck
  evaluation?: Evaluation
}

export interface Judges {
  /** Runs the instance's tests on the patch; undefined in generate-only mode. */
  evaluate?: (instance: SwebenchInstance, patch: string, signal?: AbortSignal) => Promise<Evaluation>
  /** Checks the patch against a clone of the repository, where one is available. */
  check?: (instance: SwebenchInstance, patch: string) => Promise<PatchCheck>
}

export async function judgeReply(
  instance: SwebenchInstance,
  reply: string,
  judges: Judges,
  signal?: AbortSignal,
): Promise<ReplyVerdict> {
  const extracted = extractPatch(reply)
  if (extracted === undefined) {
    return {
      status: 'empty_patch',
      outcome: 'no_answer',
      reason: 'The reply holds no unified diff with a hunk (@@ … @@).',
      patch: '',
      repaired: [],
    }
  }
  return judgePatch(instance, extracted.patch, judges, signal, extracted.repaired)
}

/**
 * A patch as it is, e.g. a prediction's `model_patch`. An empty one (`""`, or `null` in the
 * file) is not resolved and the model's doing, and no container is started: SWE-bench's
 * harness does not run empty predictions and counts them unresolved.
 */
export async function judgePatch(
  instance: SwebenchInstance,
  patch: string,
  judges: Judges,
  signal?: AbortSignal,
  repaired: string[] = [],
): Promise<ReplyVerdict> {
  if (patch.trim() === '') {
    return {
      status: 'empty_patch',
      outcome: 'no_answer',
      reason: 'The prediction is an empty patch: not resolved.',
      patch,
      repaired,
    }
  }
  const check = judges.check ? await judges.check(instance, patch) : undefined
  if (judges.evaluate === undefined) {
    const checked =
      check === undefined
        ? 'not checked (no clone of the repository)'
        : check.applies
          ? 'applies cleanly'
          : `does not apply with git apply: ${check.message}`
    return {
      status: 'generated',
      outcome: 'passed',
      reason: `Patch generated, not evaluated (TESTBENCH_SWEBENCH_EVALUATE=0); it ${checked}.`,
      patch,
      repaired,
      ...(check ? { check } : {}),
    }
  }
  const evaluation = await judges.evaluate(instance, patch, signal)
  return {
    status: evaluation.status,
    outcome: evaluation.outcome,
    reason: evaluation.reason,
    patch,
    repaired,
    evaluation,
    ...(check ? { check } : {}),
  }
}
