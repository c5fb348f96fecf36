/**
 * A SWE-bench predictions file replayed where github.com cannot be reached: a replayed prediction needs no
 * clone (no prompt is shown, and an evaluation runs in the instance's image), an empty or null one needs
 * neither a clone nor a container, and an instance that breaks before it records its facts (a clone that
 * fails) still leaves a score and a report behind.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import type { RunReport } from '../../../reporters/run-report.ts'
import { runSuiteForRecords } from '../../support/run-vitest.ts'
import { skipWithoutTool, TOOLS } from '../../support/required-tool.ts'
import { syntheticRow } from './synthetic-instance.ts'

const PREDICTIONS = fileURLToPath(new URL('../../../fixtures/swebench/replay/predictions.jsonl', import.meta.url))
const IDS = ['testbench__tinycalc-1', 'testbench__tinycalc-2', 'testbench__tinycalc-3']
const GOLD = fileURLToPath(new URL('../../../fixtures/swebench/tinycalc/patches/gold.diff', import.meta.url))

/**
 * Three copies of the tinycalc instance, of a repository that does not exist on GitHub (testbench/tinycalc):
 * any clone fails, with or without a network.
 */
async function datasetFile(dir: string): Promise<string> {
  const row = await syntheticRow()
  const file = join(dir, 'instances.jsonl')
  writeFileSync(file, IDS.map((id) => JSON.stringify({ ...row, instance_id: id })).join('\n'))
  return file
}

async function runReplay(env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'swebench-replay-offline-'))
  const cache = join(dir, 'cache')
  const run = await runSuiteForRecords('swebench', {
    TESTBENCH_SWEBENCH_DATASET_FILE: await datasetFile(dir),
    TESTBENCH_CACHE_DIR: cache,
    // A clone that were tried must fail at once, not ask for a password.
    GIT_TERMINAL_PROMPT: '0',
    ...env,
  })
  return { ...run, clones: join(cache, 'swebench', 'repos') }
}

function savedReport(reports: string): RunReport {
  const names = readdirSync(join(reports, 'swebench')).filter((name) => name.endsWith('.json'))
  expect(names).toHaveLength(1)
  return JSON.parse(readFileSync(join(reports, 'swebench', names[0] ?? ''), 'utf8')) as RunReport
}

describe.concurrent('a SWE-bench predictions file replayed offline', () => {
  test(
    'null, empty and real patches are judged without cloning the repository (generate-only)',
    { timeout: 180_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'swebench-replay-patch-'))
      const predictions = join(dir, 'predictions.jsonl')
      const [, ...rest] = readFileSync(PREDICTIONS, 'utf8').trim().split('\n')
      writeFileSync(
        predictions,
        [
          JSON.stringify({
            instance_id: IDS[0],
            model_name_or_path: 'made-up-model',
            model_patch: readFileSync(GOLD, 'utf8'),
          }),
          ...rest,
        ].join('\n'),
      )
      const { output, records, reports, clones } = await runReplay({
        MODEL: `replay:${predictions}`,
        TESTBENCH_SWEBENCH_EVALUATE: '0',
      })
      expect(
        records.map((record) => [record.itemId, record.outcome, record.scoring?.status]),
        output,
      ).toEqual([
        [IDS[0], 'passed', 'generated'],
        [IDS[1], 'no_answer', 'empty_patch'],
        [IDS[2], 'no_answer', 'empty_patch'],
      ])
      expect(records[0]?.reason).toMatch(/not checked \(no clone of the repository\)/)
      expect(existsSync(clones)).toBe(false)
      expect(savedReport(reports).scores[0]).toMatchObject({
        name: 'SWE-bench (own file) % Resolved',
        counted: { solved: 0, total: 2 },
      })
    },
  )

  test(
    'null and empty patches are not resolved, with neither a clone nor a container (evaluation on)',
    { timeout: 180_000 },
    async (context) => {
      // Only the up-front check talks to the engine: no container is started for an empty patch.
      skipWithoutTool(
        context,
        TOOLS.containerEngine,
        process.env.DOCKER_HOST === undefined ? 'DOCKER_HOST is not set' : undefined,
      )
      const { code, output, records, reports, clones } = await runReplay({ MODEL: `replay:${PREDICTIONS}` })
      expect(code, output).toBe(1)
      expect(
        records.map((record) => [record.outcome, record.scoring?.status]),
        output,
      ).toEqual(IDS.map(() => ['no_answer', 'empty_patch']))
      expect(existsSync(clones)).toBe(false)
      const [score] = savedReport(reports).scores
      expect(score).toMatchObject({ value: 0, counted: { solved: 0, total: 3 } })
      expect(score?.columns).toMatchObject({ 'patch errors': '3', 'evaluation errors': '0' })
    },
  )

  test(
    'an instance that breaks before it records its facts (a clone that fails) still leaves a report, and no score',
    { timeout: 180_000 },
    async () => {
      // The reference model is shown the oracle files, which are read from a clone; this one cannot be made.
      const { code, output, records, reports } = await runReplay({
        MODEL: 'reference',
        TESTBENCH_SWEBENCH_EVALUATE: '0',
        TESTBENCH_SWEBENCH_CONTEXT: 'oracle',
        TESTBENCH_SWEBENCH_INSTANCES: IDS[0] ?? '',
      })
      expect(code, output).toBe(1)
      expect(
        records.map((record) => [record.outcome, record.scoring]),
        output,
      ).toEqual([['infra_error', undefined]])
      expect(records[0]?.reason).toMatch(/Could not clone https:\/\/github\.com\/testbench\/tinycalc\.git/)
      expect(output).not.toMatch(/does not hold swebench facts/)
      const [score] = savedReport(reports).scores
      // Its only item is ours to fix, not the model's: no item was judged, and the score says so instead of 0 %.
      expect(score).toMatchObject({
        name: 'SWE-bench (dataset not recorded) % Resolved',
        display: 'no items were judged',
        noItems: expect.stringMatching(/1 infra_error/),
      })
      expect(score?.counted).toBeUndefined()
      expect(score?.columns).toMatchObject({ 'evaluation errors': '1' })
    },
  )
})
