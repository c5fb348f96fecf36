/**
 * One instance judged in its evaluation image: the model's patch and the test
 * patch applied, the tests run, the log parsed with the repository's parser and
 * graded. What broke on our side (image, engine, container, a test run that never
 * got going) is `infra_error`, never "not resolved"; tests that run past the time
 * limit once started are the patch's `timeout`.
 */
import type Docker from 'dockerode'
import type { Verdict } from '../../../adapters/outcome.ts'
import { InfraError, runInContainer } from './container-run.ts'
import { EVAL_DIR, MARKERS, evalScript } from './eval-script.ts'
import { gradeInstance, type Grade, type Resolution } from './grading.ts'
import type { SwebenchInstance } from '../instance.ts'
import { parseTestLog } from './log-parsers.ts'
import { testFiles } from '../patches/patch-files.ts'
import { testDirectives, type RepoSpec } from './repo-specs.ts'

export type EvaluationStatus = Resolution | 'patch_error' | 'timeout' | 'infra_error'

/** Which command of SWE-bench's apply chain took the model's patch. */
export const APPLIED_WITH = ['git apply', 'git apply --reject', 'patch --fuzz'] as const
export type AppliedWith = (typeof APPLIED_WITH)[number]

export interface Evaluation extends Verdict {
  status: EvaluationStatus
  grade?: Grade
  appliedWith?: AppliedWith
  log: string
  wallMs: number
}

export interface EvaluationSetup {
  image: string
  spec: RepoSpec
  timeoutMs: number
  network: string
  memoryBytes: number
  signal?: AbortSignal
  /** Told which images this evaluation pulled, so that they can be removed afterwards. */
  pulled?: { markPulled(image: string): void }
}

export async function evaluatePatch(
  docker: Docker,
  instance: SwebenchInstance,
  modelPatch: string,
  setup: EvaluationSetup,
): Promise<Evaluation> {
  const script = evalScript({
    baseCommit: instance.baseCommit,
    spec: setup.spec,
    testFiles: testFiles(instance.testPatch),
    testDirectives: testDirectives(instance.repo, instance.testPatch),
  })
  const dir = EVAL_DIR.slice(1)
  let run
  try {
    run = await runInContainer(docker, {
      image: setup.image,
      command: ['bash', `${EVAL_DIR}/run.sh`],
      files: {
        [`${dir}/run.sh`]: script,
        [`${dir}/model.patch`]: modelPatch,
        [`${dir}/test.patch`]: instance.testPatch,
      },
      timeoutMs: setup.timeoutMs,
      network: setup.network,
      memoryBytes: setup.memoryBytes,
      ...(setup.signal ? { signal: setup.signal } : {}),
      ...(setup.pulled ? { onPulled: (image: string) => setup.pulled?.markPulled(image) } : {}),
    })
  } catch (error) {
    if (!(error instanceof InfraError)) throw error
    return { status: 'infra_error', outcome: 'infra_error', reason: error.message, log: '', wallMs: 0 }
  }
  return judgeLog(instance, setup, run.log, run.exitCode, run.timedOut, run.wallMs)
}

/** The verdict from the container's log alone (exported for tests of the log reading). */
export function judgeLog(
  instance: SwebenchInstance,
  setup: Pick<EvaluationSetup, 'spec' | 'timeoutMs'>,
  log: string,
  exitCode: number | null,
  timedOut: boolean,
  wallMs: number,
): Evaluation {
  const lines = log.split('\n')
  const has = (marker: string) => lines.some((line) => line.startsWith(marker))
  const appliedWith: AppliedWith | undefined = has(MARKERS.appliedWithGit)
    ? 'git apply'
    : has(MARKERS.appliedWithReject)
      ? 'git apply --reject'
      : has(MARKERS.appliedWithFuzz)
        ? 'patch --fuzz'
        : undefined
  const base: Pick<Evaluation, 'log' | 'wallMs' | 'appliedWith'> = {
    log,
    wallMs,
    ...(appliedWith ? { appliedWith } : {}),
  }
  const infra = (reason: string): Evaluation => ({ ...base, status: 'infra_error', outcome: 'infra_error', reason })
  const seconds = Math.round(setup.timeoutMs / 1000)

  if (has(MARKERS.patchFailed)) {
    return {
      ...base,
      status: 'patch_error',
      outcome: 'no_answer',
      reason:
        'The patch does not apply at the base commit (git apply, git apply --reject and patch --fuzz=5 all refused it).',
    }
  }
  if (has(MARKERS.testPatchFailed))
    return infra(
      `The instance's test patch did not apply in ${instance.instanceId}'s image: the image or the instance is broken.`,
    )
  const start = lines.findIndex((line) => line.startsWith(MARKERS.startTests))
  if (start < 0) {
    return infra(
      timedOut
        ? `The evaluation timed out after ${seconds} s before the tests started (raise TESTBENCH_SWEBENCH_TIMEOUT).`
        : `The container ended (exit ${String(exitCode)}) before the tests started: ${tail(log)}`,
    )
  }
  const end = lines.findIndex((line, index) => index > start && line.startsWith(MARKERS.endTests))
  const testLog = lines.slice(start + 1, end < 0 ? undefined : end).join('\n')
  // As SWE-bench's grading: when nothing is read between the markers, the whole log is read.
  const between = parseTestLog(setup.spec.parser, testLog)
  const statuses = between.size > 0 ? between : parseTestLog(setup.spec.parser, log)
  if (end < 0) {
    // The tests started: a run past the limit is the patch's doing (a hang, an endless loop).
    if (timedOut)
      return {
        ...base,
        status: 'timeout',
        outcome: 'timeout',
        reason: `The tests ran past the ${seconds} s limit (TESTBENCH_SWEBENCH_TIMEOUT).`,
      }
    return infra(`The container ended (exit ${String(exitCode)}) in the middle of the tests: ${tail(log)}`)
  }
  const testExit = testExitCode(lines[end] ?? '')
  if (
    testExit !== undefined &&
    testExit !== 0 &&
    statuses.size > 0 &&
    ![...statuses.values()].some((status) => status === 'FAILED' || status === 'ERROR')
  ) {
    // SWE-bench's grading (since v5.0): a patch can print its own PASSED lines, so a test command
    // that exits non-zero while the log shows no failure means the log does not describe the run.
    return {
      ...base,
      status: 'not_resolved',
      outcome: 'wrong_answer',
      reason: `not resolved: the test command exited ${testExit} but its log reports no failing test, so the log does not describe the run.`,
    }
  }
  const grade = gradeInstance(statuses, instance.failToPass, instance.passToPass)
  const failToPass = `FAIL_TO_PASS ${grade.failToPass.passed.length}/${instance.failToPass.length}`
  const counts = `${failToPass}, PASS_TO_PASS ${grade.passToPass.passed.length}/${instance.passToPass.length} pass`
  return {
    ...base,
    status: grade.resolution,
    outcome: grade.resolution === 'resolved' ? 'passed' : 'wrong_answer',
    reason: `${grade.resolution.replace('_', ' ')}: ${counts}.`,
    grade,
  }
}

/** The test command's exit status from the end marker line (`>>>>> End Test Output (exit 1)`). */
export function testExitCode(endLine: string): number | undefined {
  const match = /\(exit (-?\d+)\)\s*$/.exec(endLine)
  return match ? Number(match[1]) : undefined
}

function tail(log: string): string {
  const lines = log.trimEnd().split('\n')
  return lines.slice(-5).join(' | ') || '(no output)'
}
