/** The suite run as a user would (`MODEL=… vitest run suites/swebench`), generate-only, since Lite's images cannot be pulled here. */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { loadInstances } from '../../../suites/swebench/dataset.ts'
import { predictionsPath } from '../../../suites/swebench/predictions.ts'
import { scoreSwebench } from '../../../suites/swebench/score.ts'
import { readPredictions, runSwebenchSuite } from './run-suite.ts'
import { datasetOrSkip } from '../../support/test-datasets.ts'

describe('the SWE-bench suite end to end, generate-only', () => {
  test(
    'MODEL=reference over Lite writes predictions identical to the gold patches',
    { timeout: 120_000 },
    async (context) => {
      const gold = await datasetOrSkip(context, (env) => loadInstances({ env }))
      const { code, output, results, records, reports } = await runSwebenchSuite({
        MODEL: 'reference',
        TESTBENCH_SWEBENCH_EVALUATE: '0',
      })
      expect(code, output).toBe(0)
      expect(results).toHaveLength(300)
      expect(records.every((record) => record.scoring?.status === 'generated')).toBe(true)
      const predictions = readPredictions(predictionsPath(reports, 'reference'))
      expect(predictions).toHaveLength(300)
      const byId = new Map(predictions.map((prediction) => [prediction.instance_id, prediction]))
      for (const instance of gold) {
        expect(byId.get(instance.instanceId), instance.instanceId).toEqual({
          instance_id: instance.instanceId,
          model_name_or_path: 'reference',
          model_patch: instance.patch,
        })
      }
      expect(scoreSwebench(records)[0]?.excluded).toHaveLength(300)
    },
  )

  test(
    'replayed SWE-bench predictions: an empty or null patch is no_answer and fails its test, a patch is carried over',
    { timeout: 120_000 },
    async (context) => {
      const [first, second, third] = await datasetOrSkip(context, (env) => loadInstances({ env }))
      const file = join(mkdtempSync(join(tmpdir(), 'swebench-replay-')), 'preds.jsonl')
      writeFileSync(
        file,
        [
          { instance_id: first?.instanceId, model_name_or_path: 'elsewhere', model_patch: first?.patch },
          { instance_id: second?.instanceId, model_name_or_path: 'elsewhere', model_patch: '' },
          // 36 lines of a real 300-line predictions file look like this one.
          { instance_id: third?.instanceId, model_name_or_path: 'elsewhere', model_patch: null },
        ]
          .map((line) => JSON.stringify(line))
          .join('\n'),
      )
      const { code, results, records, reports } = await runSwebenchSuite({
        MODEL: `replay:${file}`,
        TESTBENCH_SWEBENCH_EVALUATE: '0',
        TESTBENCH_SWEBENCH_INSTANCES: `${first?.instanceId},${second?.instanceId},${third?.instanceId}`,
      })
      expect(code).toBe(1)
      expect(results.map((result) => result.status)).toEqual(['passed', 'failed', 'failed'])
      expect(records.map((record) => [record.outcome, record.scoring?.status])).toEqual([
        ['passed', 'generated'],
        ['no_answer', 'empty_patch'],
        ['no_answer', 'empty_patch'],
      ])
      const predictions = readPredictions(predictionsPath(reports, `replay:${file}`))
      expect(predictions.map((prediction) => prediction.model_patch)).toEqual([first?.patch, '', ''])
    },
  )
})
