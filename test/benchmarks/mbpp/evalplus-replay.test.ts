/**
 * MBPP+ replayed from samples in EvalPlus's own format ({task_id, solution}), each asserting
 * what evalplus (v0.3.1, `evalplus.evaluate --dataset mbpp`) makes of it.
 */
import { fileURLToPath } from 'node:url'
import { beforeEach, describe, expect, test } from 'vitest'
import { scoreMbpp } from '../../../suites/mbpp/score.ts'
import { outcomes, runSuite } from '../../support/run-python-suite.ts'
import { datasetOrSkip } from '../../support/test-datasets.ts'
import { loadMbpp, MBPP_VARIANTS } from '../../../suites/mbpp/dataset.ts'
import { skipWithoutPythonModules, skipWithoutSandbox } from '../../support/sandbox-available.ts'

const SAMPLES = fileURLToPath(new URL('../../../fixtures/mbpp/evalplus-samples.jsonl', import.meta.url))

describe('MBPP+ judged outside the program', () => {
  beforeEach(async (context) => {
    await skipWithoutSandbox(context)
    skipWithoutPythonModules(context, ['numpy'])
    await datasetOrSkip(context, (env) => Promise.all(MBPP_VARIANTS.map((variant) => loadMbpp(variant, env))))
  })

  test(
    "set comparison, the None-ness of match objects (Mbpp/737, 787, 794), Counters: evalplus's verdicts, v0.2.0 and v0.1.0",
    { timeout: 600_000 },
    async () => {
      const { records, output } = await runSuite(
        'mbpp',
        { MODEL: `replay:${SAMPLES}`, SAMPLES: '2', TESTBENCH_MBPP_VARIANTS: 'mbpp+,mbpp+v0.1.0' },
        'Mbpp/(2|88|737|787|794) ',
      )
      const expected = {
        // The shared elements in another order pass: EvalPlus compares Mbpp/2, 7, 111, 140, 232, 249, 579 and 769 as sets.
        'Mbpp/2 #0': 'passed',
        'Mbpp/2 #1': 'wrong_answer',
        'Mbpp/88 #0': 'passed',
        'Mbpp/88 #1': 'wrong_answer',
        // The OriginFmt tests of these three assert nothing: a function that always returns None passed them.
        'Mbpp/737 #0': 'passed',
        'Mbpp/737 #1': 'wrong_answer',
        'Mbpp/787 #0': 'passed',
        'Mbpp/787 #1': 'wrong_answer',
        'Mbpp/794 #0': 'passed',
        'Mbpp/794 #1': 'wrong_answer',
      }
      expect(outcomes(records, 'mbpp+'), output).toEqual(expected)
      expect(outcomes(records, 'mbpp+v0.1.0'), output).toEqual(expected)
      const scores = Object.fromEntries(scoreMbpp(records).map((score) => [score.name, score.value]))
      expect(scores).toMatchObject({ 'MBPP+ v0.2.0 pass@1': 0.5, 'MBPP+ v0.1.0 pass@1': 0.5, 'MBPP+ v0.2.0 pass@2': 1 })
      expect(Object.keys(scores)).toContain('MBPP (base tests of MBPP+ v0.2.0) pass@1')
      expect(records.every((record) => record.prompt === undefined)).toBe(true)
    },
  )
})
