/** The synthetic instance of fixtures/swebench/tinycalc: a tiny Python repository with one bug, and its local image. */
import { readFileSync } from 'node:fs'
import type Docker from 'dockerode'
import { engineUnavailable } from '../../../suites/swebench/evaluation/container-engine.ts'
import { TOOLS, type Tool } from '../../support/required-tool.ts'
import { readJson } from '../../../harness/datasets/dataset-file.ts'
import { parseInstance, type SwebenchInstance } from '../../../suites/swebench/instance.ts'
import type { RepoSpec } from '../../../suites/swebench/evaluation/repo-specs.ts'

export const FIXTURE_DIR = new URL('../../../fixtures/swebench/tinycalc/', import.meta.url)

/** Built by .ci/swebench-setup.sh, named as SWE-bench names its images, under a local prefix. */
export const SYNTHETIC_IMAGE_TEMPLATE = 'localhost/testbench/sweb.eval.x86_64.{id}:latest'
export const SYNTHETIC_IMAGE = 'localhost/testbench/sweb.eval.x86_64.testbench_1776_tinycalc-1:latest'

/** The tinycalc tests run with Debian's pytest (instance.json's test_cmd and log_parser). */
export const SYNTHETIC_SPEC: RepoSpec = { testCommand: 'python3 -m pytest -rA -p no:cacheprovider', parser: 'pytest' }

export type FixturePatch = 'gold' | 'test' | 'wrong' | 'breaks-passing-test' | 'malformed' | 'wrong-hunk-counts'

export function fixturePatch(name: FixturePatch): string {
  return readFileSync(new URL(`patches/${name}.diff`, FIXTURE_DIR), 'utf8')
}

/** The instance as a dataset row in SWE-bench's format, its patches read from patches/. */
export async function syntheticRow(): Promise<Record<string, unknown>> {
  const row = await readJson(new URL('instance.json', FIXTURE_DIR).pathname)
  if (typeof row !== 'object' || row === null)
    throw new Error('fixtures/swebench/tinycalc/instance.json is not an object')
  return { ...row, patch: fixturePatch('gold'), test_patch: fixturePatch('test') }
}

export async function syntheticInstance(): Promise<SwebenchInstance> {
  return parseInstance(await syntheticRow(), 'fixtures/swebench/tinycalc/instance.json')
}

/** What the container tests need: an engine and the synthetic instance's image. */
export const ENGINE_AND_IMAGE: Tool = {
  ...TOOLS.containerEngine,
  install: `${TOOLS.containerEngine.install}, and .ci/swebench-setup.sh`,
}

/** Why the container tests cannot run here (for skipWithoutTool), or undefined when they can. */
export async function syntheticImageUnavailable(docker: Docker): Promise<string | undefined> {
  const engine = await engineUnavailable(docker)
  if (engine !== undefined) return engine
  return docker
    .getImage(SYNTHETIC_IMAGE)
    .inspect()
    .then(
      () => undefined,
      () => `the image ${SYNTHETIC_IMAGE} is not built: run .ci/swebench-setup.sh`,
    )
}
