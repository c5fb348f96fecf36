import { fileURLToPath } from 'node:url'
import { beforeEach, describe, expect, test } from 'vitest'
import { scoreMbpp } from '../../../suites/mbpp/score.ts'
import { allBut, notPassed, outcomes, runSuite } from '../../support/run-python-suite.ts'
import { datasetOrSkip } from '../../support/test-datasets.ts'
import { loadMbpp, MBPP_VARIANTS } from '../../../suites/mbpp/dataset.ts'
import { skipWithoutPythonModules, skipWithoutSandbox } from '../../support/sandbox-available.ts'

const REPLIES = fileURLToPath(new URL('../../../fixtures/mbpp/replies.jsonl', import.meta.url))
const TRICKY = fileURLToPath(new URL('../../../fixtures/mbpp/tricky-replies.jsonl', import.meta.url))

/**
 * MBPP+ tasks whose reference alone takes 3–100 s (or 2.2 GB, Mbpp/255) on the OriginFmt tests
 * here: they passed in the full runs measured for the README, but cost most of an MBPP+ run,
 * so CI leaves them out.
 */
export const HEAVY_MBPP_PLUS = [
  'Mbpp/84',
  'Mbpp/123',
  'Mbpp/255',
  'Mbpp/271',
  'Mbpp/300',
  'Mbpp/389',
  'Mbpp/392',
  'Mbpp/583',
  'Mbpp/589',
  'Mbpp/592',
  'Mbpp/599',
  'Mbpp/603',
  'Mbpp/630',
]

describe('MBPP end to end', () => {
  beforeEach(async (context) => {
    await skipWithoutSandbox(context)
    await datasetOrSkip(context, (env) => Promise.all(MBPP_VARIANTS.map((variant) => loadMbpp(variant, env))))
  })
  test('replayed right, wrong and whole-program answers get their outcomes', { timeout: 120_000 }, async () => {
    const { code, output, records } = await runSuite(
      'mbpp',
      { MODEL: `replay:${REPLIES}`, TESTBENCH_MBPP_VARIANTS: 'mbpp' },
      'Mbpp/(11|12|14) ',
    )
    expect(code, output).toBe(1)
    expect(outcomes(records, 'mbpp')).toEqual({
      'Mbpp/11 #0': 'passed',
      'Mbpp/12 #0': 'wrong_answer',
      'Mbpp/14 #0': 'passed',
    })
    expect(scoreMbpp(records)[0]).toMatchObject({ name: 'MBPP pass@1', value: 2 / 3, counted: { solved: 2, total: 3 } })
  })

  test(
    "tricky replies get the verdict of the asserts run in the program's own process: setup objects of the answer's own class, a missing class, an argument sorted in place, a generator the asserts wrap in set(), math.isclose",
    { timeout: 300_000 },
    async () => {
      const { records, output } = await runSuite(
        'mbpp',
        { MODEL: `replay:${TRICKY}`, SAMPLES: '3', TESTBENCH_MBPP_VARIANTS: 'mbpp,mbpp-sanitized' },
        'Mbpp/(11|12|82|85|140|367) ',
      )
      const answered = records.filter((record) => record.outcome !== 'provider_error')
      expect(
        Object.fromEntries(
          answered.map((record) => [`${record.variant} ${record.itemId} #${record.sample}`, record.outcome]),
        ),
        output,
      ).toEqual({
        'mbpp Mbpp/367 #0': 'passed',
        'mbpp Mbpp/367 #1': 'wrong_answer',
        'mbpp Mbpp/367 #2': 'runtime_error',
        'mbpp Mbpp/12 #0': 'passed',
        'mbpp Mbpp/11 #0': 'wrong_answer',
        'mbpp-sanitized Mbpp/140 #0': 'passed',
        'mbpp-sanitized Mbpp/82 #0': 'passed',
        'mbpp-sanitized Mbpp/85 #0': 'wrong_answer',
      })
      expect(answered.find((record) => record.itemId === 'Mbpp/367' && record.sample === 2)?.reason).toMatch(
        /NameError: name 'Node' is not defined/,
      )
    },
  )

  test(
    'completion mode sends the few-shot [BEGIN] prompt (and the fenced reference still passes)',
    { timeout: 120_000 },
    async (context) => {
      skipWithoutPythonModules(context, ['numpy'])
      const { code, output, records } = await runSuite(
        'mbpp',
        { MODEL: 'reference', TESTBENCH_MBPP_PROMPT_MODE: 'completion', TESTBENCH_MBPP_VARIANTS: 'mbpp,mbpp+' },
        'Mbpp/(11|12|14) ',
      )
      expect(code, output).toBe(0)
      expect(records.map((record) => `${record.variant} ${record.itemId} ${record.outcome}`).sort()).toEqual([
        'mbpp Mbpp/11 passed',
        'mbpp Mbpp/12 passed',
        'mbpp Mbpp/14 passed',
        'mbpp+ Mbpp/11 passed',
        'mbpp+ Mbpp/12 passed',
        'mbpp+ Mbpp/14 passed',
      ])
      const fewShot = records.find((record) => record.variant === 'mbpp')?.prompt ?? ''
      expect(fewShot.match(/\[BEGIN\]/g)).toHaveLength(4)
      expect(fewShot.endsWith('[BEGIN]\n')).toBe(true)
      expect(records.find((record) => record.variant === 'mbpp+')?.prompt).toMatch(/^"""\n/)
    },
  )

  test(
    'MODEL=reference passes all 500 tasks of the MBPP test split and the 257 sanitized ones',
    { timeout: 900_000 },
    async () => {
      const { code, output, records, seconds } = await runSuite('mbpp', {
        MODEL: 'reference',
        TESTBENCH_MBPP_VARIANTS: 'mbpp,mbpp-sanitized',
      })
      expect(notPassed(records)).toEqual([])
      expect(records.filter((record) => record.variant === 'mbpp')).toHaveLength(500)
      expect(records.filter((record) => record.variant === 'mbpp-sanitized')).toHaveLength(257)
      expect(code, output).toBe(0)
      expect(scoreMbpp(records).map((score) => score.display)).toEqual(['100.0%', '100.0%'])
      console.log(`reference over MBPP (500) and MBPP sanitized (257): ${seconds.toFixed(1)} s`)
    },
  )

  test('MODEL=reference passes every MBPP+ task but the thirteen heaviest', { timeout: 900_000 }, async (context) => {
    skipWithoutPythonModules(context, ['numpy'])
    const { code, output, records, seconds } = await runSuite(
      'mbpp',
      { MODEL: 'reference', TESTBENCH_MBPP_VARIANTS: 'mbpp+' },
      allBut(HEAVY_MBPP_PLUS),
    )
    expect(notPassed(records)).toEqual([])
    expect(records).toHaveLength(378 - HEAVY_MBPP_PLUS.length)
    expect(code, output).toBe(0)
    console.log(`reference over MBPP+ (${records.length} tasks): ${seconds.toFixed(1)} s`)
  })
})
