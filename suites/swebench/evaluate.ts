/**
 * One instance judged in its evaluation image: the model's patch and the test
 * patch applied, the tests run, the log parsed with the repository's parser and
 * graded. What broke on our side (image, engine, container, a test run that never
 * got going) is `infra_error`, never "not resolved"; tests that run past the time
 * limit once started are the patch's `timeout`.
 */
import type Docker from 'dockerode'
import type { Verdict } from '../../harness/outcome.ts'
import { InfraError, runInContainer } from './container-run.ts'
import { EVAL_DIR, MARKERS, evalScript } from './eval-script.ts'
import { gradeInstance, type Grade, type Resolution } from './grading.ts'
import type { SwebenchInstance } from './instance.ts'
import { parseTestLog } from './log-parsers.ts'
import { testFiles } from './patch-files.ts'
import { testDirectives, type RepoSpec } from './repo-specs.ts'

export type EvaluationStatus = Resolution | 'patch_error' | 'timeout' | 'infra_error'

export interface Evaluation extends Verdict {
  status: EvaluationStatus
  grade?: Grade
  appliedWith?: 'git apply' | 'patch --fuzz'
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
}

export async function evaluatePatch(docker: Docker, instance: SwebenchInstance, modelPatch: string, setup: EvaluationSetup): Promise<Evaluation> {
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
      files: { [`${dir}/run.sh`]: script, [`${dir}/model.patch`]: modelPatch, [`${dir}/test.patch`]: instance.testPatch },
      timeoutMs: setup.timeoutMs,
      network: setup.network,
      memoryBytes: setup.memoryBytes,
      ...(setup.signal ? { signal: setup.signal } : {}),
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
  const appliedWith: Evaluation['appliedWith'] = has(MARKERS.appliedWithGit) ? 'git apply' : has(MARKERS.appliedWithFuzz) ? 'patch --fuzz' : undefined
  const base: Pick<Evaluation, 'log' | 'wallMs' | 'appliedWith'> = { log, wallMs, ...(appliedWith ? { appliedWith } : {}) }
  const infra = (reason: string): Evaluation => ({ ...base, status: 'infra_error', outcome: 'infra_error', reason })
  const seconds = Math.round(setup.timeoutMs / 1000)

  if (has(MARKERS.patchFailed)) {
    return { ...base, status: 'patch_error', outcome: 'no_answer', reason: 'The patch does not apply at the base commit (git apply and patch --fuzz=5 both refused it).' }
  }
  if (has(MARKERS.testPatchFailed)) return infra(`The instance's test patch did not apply in ${instance.instanceId}'s image: the image or the instance is broken.`)
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
  const statuses = parseTestLog(setup.spec.parser, testLog)
  if (end < 0) {
    // The tests started: a run past the limit is the patch's doing (a hang, an endless loop).
    if (timedOut) return { ...base, status: 'timeout', outcome: 'timeout', reason: `The tests ran past the ${seconds} s limit (TESTBENCH_SWEBENCH_TIMEOUT).` }
    return infra(`The container ended (exit ${String(exitCode)}) in the middle of the tests: ${tail(log)}`)
  }
  const grade = gradeInstance(statuses, instance.failToPass, instance.passToPass)
  const counts = `FAIL_TO_PASS ${grade.failToPass.passed.length}/${instance.failToPass.length}, PASS_TO_PASS ${grade.passToPass.passed.length}/${instance.passToPass.length} pass`
  return {
    ...base,
    status: grade.resolution,
    outcome: grade.resolution === 'resolved' ? 'passed' : 'wrong_answer',
    reason: `${grade.resolution.replace('_', ' ')}: ${counts}.`,
    grade,
  }
}

function tail(log: string): string {
  const lines = log.trimEnd().split('\n')
  return lines.slice(-5).join(' | ') || '(no output)'
}
