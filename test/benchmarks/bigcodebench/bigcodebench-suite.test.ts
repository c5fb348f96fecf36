/**
 * The suite end to end, as a user runs it (`MODEL=… vitest run suites/bigcodebench`), on a
 * representative subset of tasks (TESTBENCH_BIGCODEBENCH_TASKS): the whole set takes many minutes
 * here, so it runs through `npm run bench:bigcodebench` and a full `MODEL=reference` run instead.
 * Calibration comes from the cache when an earlier run left it there, else runs for the subset.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeEach, describe, expect, test } from 'vitest'
import { canonicalProgram, loadBigCodeBench } from '../../../suites/bigcodebench/dataset.ts'
import { scoreBigCodeBench } from '../../../suites/bigcodebench/score.ts'
import { cacheDir } from '../../../harness/knobs.ts'
import { runSuiteForRecords } from '../../support/run-vitest.ts'
import { datasetEnv, datasetOrSkip, withDatasets } from '../../support/test-datasets.ts'
import { skipWithoutPythonModules, skipWithoutSandbox } from '../../support/sandbox-available.ts'

const WRONG_SOLUTIONS = fileURLToPath(new URL('../../../fixtures/bigcodebench/wrong-solutions.jsonl', import.meta.url))
/**
 * Tasks across the libraries most used (pandas, numpy, matplotlib, sklearn, scipy, seaborn, nltk,
 * requests mocked, ftplib mocked…), 15 of them hard, and 59, which needs the `wikipedia` package
 * and the network and so is excluded by calibration wherever the suite runs offline.
 */
const SUBSET_TASKS = [3, 5, 13, 14, 19, 37, 57, 59, 82, 92, 100, 120, 208, 241, 303, 445, 458, 553, 618, 654, 916]
const EXCLUDED_TASK = 'BigCodeBench/59'
const FULL_SUBSET = SUBSET_TASKS.join(',')

/** Calibrations are kept in the usual cache, so a rerun calibrates only what is new. */
function runSuite(env: Record<string, string>) {
  return runSuiteForRecords('bigcodebench', { ...datasetEnv(), TESTBENCH_CACHE_DIR: cacheDir(), ...env })
}

describe('the BigCodeBench suite end to end', () => {
  beforeEach(async (context) => {
    await skipWithoutSandbox(context)
    skipWithoutPythonModules(context, ['numpy', 'pandas', 'matplotlib', 'sklearn', 'scipy', 'seaborn', 'nltk'])
    await datasetOrSkip(context, (env) => Promise.all([loadBigCodeBench('full', env), loadBigCodeBench('hard', env)]))
    // Importing those libraries to see that they are there takes seconds on a loaded machine.
  }, 120_000)
  test('MODEL=reference passes every scored task of the subset, Complete and Instruct, with per-method results', async () => {
    const { code, output, results, records } = await runSuite({
      MODEL: 'reference',
      TESTBENCH_BIGCODEBENCH_SPLIT: 'complete,instruct',
      TESTBENCH_BIGCODEBENCH_TASKS: FULL_SUBSET,
    })
    expect(code, output).toBe(0)
    expect(results).toHaveLength(2 * (SUBSET_TASKS.length - 1))
    expect(records.every((record) => record.outcome === 'passed')).toBe(true)
    expect(records.some((record) => record.itemId === EXCLUDED_TASK)).toBe(false)
    expect(new Set(records.map((record) => record.variant))).toEqual(new Set(['complete', 'instruct']))
    const three = records.find((record) => record.itemId === 'BigCodeBench/3')
    expect(three?.output).toMatch(
      /^All 5 test methods passed\.\ntime limit 241000 ms; CPU \d+ ms, wall \d+ ms, \d+ ms on an idle machine's clock\n✓ test_case_1 passed \(\d+ ms\)\n/,
    )
    expect(three?.scoring).toMatchObject({
      split: 'complete',
      calibrated: true,
      timeLimitMs: 241_000,
      methodsPassed: 5,
      methodsTotal: 5,
      solutionFrom: 'entry-point block',
    })
    const scores = scoreBigCodeBench(records)
    expect(scores.map((score) => [score.name, score.value, score.counted?.total])).toEqual([
      ['BigCodeBench-Complete v0.1.0 pass@1', 1, SUBSET_TASKS.length - 1],
      [
        'BigCodeBench-Complete v0.1.0 pass@1 over all tasks',
        (SUBSET_TASKS.length - 1) / SUBSET_TASKS.length,
        SUBSET_TASKS.length,
      ],
      ['BigCodeBench-Instruct v0.1.0 pass@1', 1, SUBSET_TASKS.length - 1],
      [
        'BigCodeBench-Instruct v0.1.0 pass@1 over all tasks',
        (SUBSET_TASKS.length - 1) / SUBSET_TASKS.length,
        SUBSET_TASKS.length,
      ],
    ])
    expect(scores[0]?.excluded).toEqual([
      { itemId: EXCLUDED_TASK, reason: expect.stringMatching(/^(missing library|network)$/) },
    ])
  }, 600_000)

  test('MODEL=reference passes every scored task of the hard subset among them', async () => {
    const { code, output, records } = await runSuite({
      MODEL: 'reference',
      TESTBENCH_BIGCODEBENCH_SUBSET: 'hard',
      TESTBENCH_BIGCODEBENCH_SPLIT: 'complete,instruct',
      TESTBENCH_BIGCODEBENCH_TASKS: FULL_SUBSET,
    })
    expect(code, output).toBe(0)
    expect(records).toHaveLength(2 * 15)
    expect(records.every((record) => record.outcome === 'passed' && record.variant?.endsWith('-hard'))).toBe(true)
    expect(
      scoreBigCodeBench(records)
        .map((score) => score.name)
        .filter((name) => !name.endsWith('over all tasks')),
    ).toEqual(['BigCodeBench-Complete-Hard v0.1.0 pass@1', 'BigCodeBench-Instruct-Hard v0.1.0 pass@1'])
  }, 600_000)

  test('a replay with four deliberately wrong programs fails exactly those, each in its own way', async () => {
    const wrong = readFileSync(WRONG_SOLUTIONS, 'utf8').trim().split('\n')
    const wrongIds = new Set(wrong.map((line) => (JSON.parse(line) as { task_id: string }).task_id))
    const tasks = (await loadBigCodeBench('full', withDatasets())).filter((task) =>
      SUBSET_TASKS.includes(Number(task.id.split('/')[1])),
    )
    const right = tasks
      .filter((task) => !wrongIds.has(task.id))
      .map((task) => JSON.stringify({ task_id: task.id, solution: canonicalProgram(task) }))
    const replay = join(mkdtempSync(join(tmpdir(), 'bigcodebench-replay-')), 'samples.jsonl')
    writeFileSync(replay, [...right, ...wrong].join('\n') + '\n')

    // A lower CPU limit than the official 240 s, so that the endless loop does not hold the test for minutes.
    const { code, records } = await runSuite({
      MODEL: `replay:${replay}`,
      TESTBENCH_BIGCODEBENCH_TASKS: FULL_SUBSET,
      TESTBENCH_BIGCODEBENCH_TIME_LIMIT: '20',
    })
    expect(code).not.toBe(0)
    const failing = records.filter((record) => record.outcome !== 'passed')
    expect(new Map(failing.map((record) => [record.itemId, record.outcome]))).toEqual(
      new Map([
        ['BigCodeBench/3', 'wrong_answer'],
        ['BigCodeBench/5', 'compile_error'],
        ['BigCodeBench/14', 'runtime_error'],
        ['BigCodeBench/19', 'timeout'],
      ]),
    )
    expect(records.filter((record) => record.outcome === 'passed').length).toBe(records.length - 4)
    expect(records.find((record) => record.itemId === 'BigCodeBench/3')?.output).toMatch(/✗ test_case_3 failed/)
  }, 600_000)
})
