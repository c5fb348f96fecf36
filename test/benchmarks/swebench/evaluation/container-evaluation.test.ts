/**
 * The synthetic instance (fixtures/swebench/tinycalc) judged through the real
 * container path: reply → patch → container → log → verdict. Needs a container
 * engine (DOCKER_HOST) and the image .ci/swebench-setup.sh builds; without them
 * the tests are skipped with the reason, unless TESTBENCH_REQUIRE_TOOLS=1 (CI; or the
 * older TESTBENCH_SWEBENCH_REQUIRE_ENGINE=1), where they fail.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { connectEngine, engineUnavailable } from '../../../../suites/swebench/evaluation/container-engine.ts'
import { evaluatePatch, type EvaluationSetup } from '../../../../suites/swebench/evaluation/evaluate.ts'
import type { SwebenchInstance } from '../../../../suites/swebench/instance.ts'
import { judgePatch, judgeReply, type Judges } from '../../../../suites/swebench/patches/judge-reply.ts'
import { PulledImages } from '../../../../suites/swebench/evaluation/pulled-images.ts'
import { predictionsPath } from '../../../../suites/swebench/predictions.ts'
import { scoreSwebench } from '../../../../suites/swebench/score.ts'
import { readPredictions, runSwebenchSuite } from '../run-suite.ts'
import {
  SYNTHETIC_IMAGE,
  SYNTHETIC_IMAGE_TEMPLATE,
  SYNTHETIC_SPEC,
  fixturePatch,
  syntheticInstance,
  syntheticRow,
} from '../synthetic-instance.ts'
import { skipWithoutTool, TOOLS, type Tool } from '../../../support/required-tool.ts'

const docker = connectEngine()
const unavailable = await whyNotRunnable()
const required = process.env.TESTBENCH_SWEBENCH_REQUIRE_ENGINE === '1'
const ENGINE_AND_IMAGE: Tool = {
  ...TOOLS.containerEngine,
  install: `${TOOLS.containerEngine.install}, and .ci/swebench-setup.sh`,
}

async function whyNotRunnable(): Promise<string | undefined> {
  const engine = await engineUnavailable(docker)
  if (engine !== undefined) return engine
  try {
    await docker.getImage(SYNTHETIC_IMAGE).inspect()
    return undefined
  } catch {
    return `the image ${SYNTHETIC_IMAGE} is not built: run .ci/swebench-setup.sh`
  }
}

const SETUP: EvaluationSetup = {
  image: SYNTHETIC_IMAGE,
  spec: SYNTHETIC_SPEC,
  timeoutMs: 60_000,
  network: 'none',
  memoryBytes: 512 * 1024 * 1024,
}

function judges(setup: EvaluationSetup = SETUP): Judges {
  return { evaluate: (instance, patch) => evaluatePatch(docker, instance, patch, setup) }
}

async function ourContainers(): Promise<string[]> {
  const containers = await docker.listContainers({ all: true, filters: { label: ['testbench.suite=swebench'] } })
  // The agent's episode containers (agent-episode.test.ts, which may run meanwhile) are not evaluations.
  return containers
    .filter((container) => container.Labels['testbench.swebench.role'] !== 'episode')
    .map((container) => container.Id)
}

let instance: SwebenchInstance

describe('the synthetic instance in its container', () => {
  beforeAll(async () => {
    if (unavailable !== undefined && required)
      throw new Error(`TESTBENCH_SWEBENCH_REQUIRE_ENGINE=1 but ${unavailable}.`)
    instance = await syntheticInstance()
  })
  beforeEach((context) => {
    skipWithoutTool(context, ENGINE_AND_IMAGE, unavailable)
  })

  test('the gold patch, as a model would reply it, resolves the issue', async () => {
    const before = await ourContainers()
    const reply = `The median of an even count is the mean of the two middle values.\n\n\`\`\`diff\n${fixturePatch('gold')}\`\`\`\n`
    const verdict = await judgeReply(instance, reply, judges())
    expect(verdict.status, verdict.evaluation?.log).toBe('resolved')
    expect(verdict.outcome).toBe('passed')
    expect(verdict.evaluation?.appliedWith).toBe('git apply')
    expect(verdict.evaluation?.grade?.failToPass.passed).toEqual(['tests/test_stats.py::test_median_even'])
    expect(verdict.evaluation?.grade?.passToPass.passed).toEqual(['tests/test_stats.py::test_median_odd'])
    expect(await ourContainers()).toEqual(before)
  })

  test('a wrong patch leaves the failing test failing: not resolved', async () => {
    const verdict = await judgeReply(instance, fixturePatch('wrong'), judges())
    expect(verdict.status, verdict.evaluation?.log).toBe('not_resolved')
    expect(verdict.outcome).toBe('wrong_answer')
    expect(verdict.evaluation?.grade?.failToPass.failed).toEqual(['tests/test_stats.py::test_median_even'])
  })

  test('a patch that fixes the failing test but breaks the passing one is not resolved', async () => {
    const verdict = await judgeReply(instance, fixturePatch('breaks-passing-test'), judges())
    expect(verdict.status, verdict.evaluation?.log).toBe('not_resolved')
    expect(verdict.evaluation?.grade?.failToPass.passed).toEqual(['tests/test_stats.py::test_median_even'])
    expect(verdict.evaluation?.grade?.passToPass.failed).toEqual(['tests/test_stats.py::test_median_odd'])
  })

  test('a patch whose context is not in the file is a patch error (no_answer), not a crash', async () => {
    const verdict = await judgeReply(instance, fixturePatch('malformed'), judges())
    expect(verdict.status, verdict.evaluation?.log).toBe('patch_error')
    expect(verdict.outcome).toBe('no_answer')
    expect(verdict.evaluation?.log).toContain('>>>>> Patch Apply Failed')
  })

  test('a patch with wrong hunk counts is repaired, applies and resolves', async () => {
    const verdict = await judgeReply(instance, fixturePatch('wrong-hunk-counts'), judges())
    expect(verdict.repaired).toEqual(['@@ -4,7 +4,5 @@ def median(values): → @@ -4,4 +4,6 @@ def median(values):'])
    expect(verdict.patch).toBe(fixturePatch('gold'))
    expect(verdict.status, verdict.evaluation?.log).toBe('resolved')
  })

  test('tests that hang past the time limit are the patch timing out, and the container is removed', async () => {
    const before = await ourContainers()
    const hanging = fixturePatch('gold')
      .replace('+    if len(ordered) % 2 == 1:', '+    while True:\n+        pass\n+    if len(ordered) % 2 == 1:')
      .replace('+4,6 @@', '+4,8 @@')
    const verdict = await judgeReply(instance, hanging, judges({ ...SETUP, timeoutMs: 8_000 }))
    expect(verdict.status, verdict.evaluation?.log).toBe('timeout')
    expect(verdict.outcome).toBe('timeout')
    expect(await ourContainers()).toEqual(before)
  })

  test('an image the engine does not have and cannot pull is an infra error, not "not resolved"', async () => {
    const verdict = await judgeReply(
      instance,
      fixturePatch('gold'),
      judges({ ...SETUP, image: 'localhost/testbench/no-such-image:0' }),
    )
    expect(verdict.status).toBe('infra_error')
    expect(verdict.outcome).toBe('infra_error')
    expect(verdict.reason).toMatch(/localhost\/testbench\/no-such-image:0 is not on the engine and could not be pulled/)
  })

  test(
    'the suite end to end: replayed gold and wrong patches as two samples, judged in containers',
    { timeout: 180_000 },
    async () => {
      expect(instance.spec).toEqual(SYNTHETIC_SPEC)
      const dir = mkdtempSync(join(tmpdir(), 'swebench-e2e-'))
      const dataset = join(dir, 'tinycalc.jsonl')
      writeFileSync(dataset, `${JSON.stringify(await syntheticRow())}\n`)
      const predictions = join(dir, 'predictions.jsonl')
      const prediction = (patch: string) =>
        JSON.stringify({ instance_id: instance.instanceId, model_name_or_path: 'elsewhere', model_patch: patch })
      writeFileSync(predictions, `${prediction(fixturePatch('gold'))}\n${prediction(fixturePatch('wrong'))}\n`)
      const { code, output, results, records, reports } = await runSwebenchSuite({
        MODEL: `replay:${predictions}`,
        SAMPLES: '2',
        TESTBENCH_SWEBENCH_DATASET_FILE: dataset,
        TESTBENCH_SWEBENCH_IMAGE_TEMPLATE: SYNTHETIC_IMAGE_TEMPLATE,
        TESTBENCH_SWEBENCH_TIMEOUT: '60',
      })
      expect(code, output).toBe(1)
      expect(results.map((result) => result.status)).toEqual(['passed', 'failed'])
      expect(records.map((record) => [record.itemId, record.sample, record.outcome, record.scoring?.status])).toEqual([
        ['testbench__tinycalc-1', 0, 'passed', 'resolved'],
        ['testbench__tinycalc-1', 1, 'wrong_answer', 'not_resolved'],
      ])
      expect(scoreSwebench(records)[0]).toMatchObject({ value: 50, counted: { solved: 1, total: 2 } })
      expect(
        readPredictions(predictionsPath(reports, `replay:${predictions}`, 0)).map((line) => line.model_patch),
      ).toEqual([fixturePatch('gold')])
      expect(
        readPredictions(predictionsPath(reports, `replay:${predictions}`, 1)).map((line) => line.model_patch),
      ).toEqual([fixturePatch('wrong')])
    },
  )

  test("a prediction is applied byte for byte: with CRLF line endings git apply refuses it and SWE-bench's last step, patch --fuzz, takes it", async () => {
    const crlf = fixturePatch('gold').replaceAll('\n', '\r\n')
    const verdict = await judgePatch(instance, crlf, judges())
    expect(verdict.patch).toBe(crlf)
    expect(verdict.status, verdict.evaluation?.log).toBe('resolved')
    expect(verdict.evaluation?.appliedWith).toBe('patch --fuzz')
  })

  test('an empty prediction starts no container: not resolved, the model’s no_answer', async () => {
    const before = await ourContainers()
    const verdict = await judgePatch(instance, '', judges({ ...SETUP, image: 'localhost/testbench/no-such-image:0' }))
    expect(verdict).toMatchObject({ status: 'empty_patch', outcome: 'no_answer' })
    expect(verdict.evaluation).toBeUndefined()
    expect(await ourContainers()).toEqual(before)
  })

  test('an image the run pulled is removed after its last evaluation, unless kept; one the engine had is never removed', async () => {
    const copy = (tag: string) => ({ repo: 'localhost/testbench/pulled-copy', tag })
    const name = (tag: string) => `localhost/testbench/pulled-copy:${tag}`
    const exists = (image: string) =>
      docker
        .getImage(image)
        .inspect()
        .then(
          () => true,
          () => false,
        )
    try {
      for (const tag of ['removed', 'kept', 'had']) await docker.getImage(SYNTHETIC_IMAGE).tag(copy(tag))
      const removing = new PulledImages(docker, false)
      removing.markPulled(name('removed'))
      await removing.using(name('removed'), () =>
        removing.using(name('removed'), async () => expect(await exists(name('removed'))).toBe(true)),
      )
      expect(await exists(name('removed'))).toBe(false)
      await removing.using(name('had'), async () => undefined)
      expect(await exists(name('had'))).toBe(true)
      const keeping = new PulledImages(docker, true)
      keeping.markPulled(name('kept'))
      await keeping.using(name('kept'), async () => undefined)
      expect(await exists(name('kept'))).toBe(true)
      expect(await exists(SYNTHETIC_IMAGE)).toBe(true)
    } finally {
      for (const tag of ['removed', 'kept', 'had'])
        await docker
          .getImage(name(tag))
          .remove()
          .catch(() => undefined)
    }
  })

  test(
    'the suite end to end: predictions with a null and an empty model_patch are not resolved, no container started, counted in % Resolved',
    { timeout: 180_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'swebench-null-'))
      const dataset = join(dir, 'tinycalc.jsonl')
      writeFileSync(dataset, `${JSON.stringify(await syntheticRow())}\n`)
      const predictions = join(dir, 'predictions.jsonl')
      const line = (patch: string | null) =>
        JSON.stringify({ instance_id: instance.instanceId, model_name_or_path: 'elsewhere', model_patch: patch })
      writeFileSync(predictions, `${line(null)}\n${line('')}\n`)
      const { output, records } = await runSwebenchSuite({
        MODEL: `replay:${predictions}`,
        SAMPLES: '2',
        TESTBENCH_SWEBENCH_DATASET_FILE: dataset,
        // No such image: a container started for either would be an infra error.
        TESTBENCH_SWEBENCH_IMAGE_TEMPLATE: 'localhost/testbench/no-such-{id}:0',
      })
      expect(
        records.map((record) => [record.sample, record.outcome, record.scoring?.status]),
        output,
      ).toEqual([
        [0, 'no_answer', 'empty_patch'],
        [1, 'no_answer', 'empty_patch'],
      ])
      expect(scoreSwebench(records)[0]).toMatchObject({ value: 0, counted: { solved: 0, total: 2 } })
    },
  )
})
