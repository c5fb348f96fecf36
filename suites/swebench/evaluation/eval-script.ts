/**
 * The bash script an evaluation container runs: apply the model's patch with SWE-bench's
 * chain (v4.1.0's `GIT_APPLY_CMDS`: `git apply --verbose`, then `git apply --verbose
 * --reject`, then `patch --batch --fuzz=5 -p1 -i`, the first that exits 0 wins), put the test
 * files back to the base commit, apply the test patch, run the tests of the test files between
 * two markers and record the test command's exit status. Each step prints a marker line, so that
 * the log alone tells what happened.
 */
import type { RepoSpec } from './repo-specs.ts'

/** Where the script and the two patches are copied in the container. */
export const EVAL_DIR = '/swebench'

export const MARKERS = {
  appliedWithGit: '>>>>> Applied Patch (git apply)',
  appliedWithReject: '>>>>> Applied Patch (git apply --reject)',
  appliedWithFuzz: '>>>>> Applied Patch (patch --fuzz)',
  patchFailed: '>>>>> Patch Apply Failed',
  testPatchFailed: '>>>>> Test Patch Apply Failed',
  startTests: '>>>>> Start Test Output',
  endTests: '>>>>> End Test Output',
} as const

/** The exit codes the script ends with when it stops early. */
export const EXIT = { patchFailed: 3, testPatchFailed: 4 } as const

export interface EvalScriptInput {
  baseCommit: string
  spec: RepoSpec
  /** The test patch's test files (checked out at the base commit before the test patch goes in). */
  testFiles: readonly string[]
  /** What follows the test command: the files, or Django's dotted modules. */
  testDirectives: readonly string[]
  /** The repository in the image; SWE-bench's images have it in /testbed. */
  repoDir?: string
}

export function evalScript(input: EvalScriptInput): string {
  const repoDir = input.repoDir ?? '/testbed'
  const base = quote(input.baseCommit)
  return [
    '#!/bin/bash',
    'set -uo pipefail',
    // One stream: a command's stderr ("Checking patch …") cannot end mid-line after a marker echoed on stdout,
    // so every marker starts its line (evaluate.ts reads them only there, out of reach of file names git prints).
    'exec 2>&1',
    `cd ${quote(repoDir)}`,
    `git config --global --add safe.directory ${quote(repoDir)}`,
    // SWE-bench's images keep the repository's environment in a conda env named testbed.
    'if [ -f /opt/miniconda3/bin/activate ]; then source /opt/miniconda3/bin/activate && conda activate testbed; fi',
    `if git apply --verbose ${EVAL_DIR}/model.patch; then echo '${MARKERS.appliedWithGit}'`,
    `elif git apply --verbose --reject ${EVAL_DIR}/model.patch; then echo '${MARKERS.appliedWithReject}'`,
    `elif patch --batch --fuzz=5 -p1 -i ${EVAL_DIR}/model.patch; then echo '${MARKERS.appliedWithFuzz}'`,
    `else echo '${MARKERS.patchFailed}'; exit ${EXIT.patchFailed}; fi`,
    ...(input.spec.setup ?? []),
    ...(input.spec.install === undefined ? [] : [input.spec.install]),
    // A test file the model patch touched goes back to the base commit; one that is new there is removed.
    `for file in ${input.testFiles.map(quote).join(' ')}; do`,
    `  if git cat-file -e ${base}:"$file" 2>/dev/null; then git checkout ${base} -- "$file"; else rm -f "$file"; fi`,
    'done',
    `git apply --verbose ${EVAL_DIR}/test.patch || { echo '${MARKERS.testPatchFailed}'; exit ${EXIT.testPatchFailed}; }`,
    `echo '${MARKERS.startTests}'`,
    `${input.spec.testCommand} ${input.testDirectives.map(quote).join(' ')}`,
    `echo "${MARKERS.endTests} (exit $?)"`,
    '',
  ].join('\n')
}

/** A shell word that stays one word, whatever it holds. */
export function quote(word: string): string {
  return /^[\w./:@=+-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`
}
