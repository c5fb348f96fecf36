/**
 * Hostile programs (hostile/*.py) replayed through the real suites as answers, against HumanEval's
 * and MBPP's own checks and their EvalPlus versions (the default variants): reading the answer key,
 * frame walking, gc scans, trace hooks, -O re-exec, patched builtins, always-equal objects and
 * builtin subclasses, early exits after a fake success, the harness's breakdown message, killing
 * the parent, forged driver lines, a patched driver, threads and survivors writing lines, stopped
 * clocks, an output bomb. Each one: nothing passes, nothing is an infra_error; the canonical
 * solution of the same task still passes.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, test } from 'vitest'
import { runSuite } from '../../support/run-python-suite.ts'
import { skipWithoutPythonModules, skipWithoutSandbox } from '../../support/sandbox-available.ts'
import { datasetOrSkip } from '../../support/test-datasets.ts'
import { loadHumanEval } from '../../../suites/humaneval/dataset.ts'
import { loadMbpp } from '../../../suites/mbpp/dataset.ts'

const HOSTILE_DIR = new URL('hostile/', import.meta.url)
const PROGRAMS = readdirSync(HOSTILE_DIR)
  .filter((name) => name.endsWith('.py'))
  .sort()
  .map((name) => ({ name, source: readFileSync(new URL(name, HOSTILE_DIR), 'utf8') }))

const TARGETS = [
  { suite: 'humaneval', taskId: 'HumanEval/0', entryPoint: 'has_close_elements', check: 'humaneval', io: 'humaneval+' },
  { suite: 'mbpp', taskId: 'Mbpp/11', entryPoint: 'remove_Occ', check: 'mbpp', io: 'mbpp+' },
] as const

/**
 * Through the inputs-and-outputs variants, every program but stop-the-clocks.py: with the driver's
 * clocks stopped, only the sandbox's whole-run CPU limit ends it, which there is EvalPlus's budget
 * for a whole check (up to 130 s); it fails all the same, as evalplus-replay.test.ts shows for a
 * program that swallows its time limits.
 */
const SLOW_IN_IO = new Set(['stop-the-clocks.py'])

/** `programs` as a replay file in EvalPlus's sample format, one sample each, in their order. */
function replayFile(programs: typeof PROGRAMS, taskId: string, entryPoint: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'hostile-')), 'samples.jsonl')
  writeFileSync(
    file,
    programs
      .map(({ source }) => JSON.stringify({ task_id: taskId, solution: source.replaceAll('__ENTRY__', entryPoint) }))
      .join('\n') + '\n',
  )
  return file
}

/** `-t` for exactly one task: a regular expression, as `-t HumanEval/0` would also select HumanEval/0 of every other form. */
function only(taskId: string): string {
  const [name, number] = taskId.split('/')
  return `${name}/(${number}) `
}

async function replay(
  suite: 'humaneval' | 'mbpp',
  variant: string,
  programs: typeof PROGRAMS,
  taskId: string,
  entryPoint: string,
) {
  const { records, output } = await runSuite(
    suite,
    {
      MODEL: `replay:${replayFile(programs, taskId, entryPoint)}`,
      SAMPLES: String(programs.length),
      [`TESTBENCH_${suite.toUpperCase()}_VARIANTS`]: variant,
    },
    only(taskId),
  )
  const verdicts = records
    .map(
      (record) =>
        `${variant} ${programs[record.sample]?.name}: ${record.outcome} ${(record.reason ?? '').slice(0, 160)}`,
    )
    .join('\n')
  expect(records, output).toHaveLength(programs.length)
  expect(
    records.filter((record) => record.outcome === 'passed'),
    verdicts,
  ).toEqual([])
  expect(
    records.filter((record) => record.outcome === 'infra_error'),
    verdicts,
  ).toEqual([])
}

describe.for(TARGETS)('hostile programs against $taskId', ({ suite, taskId, entryPoint, check, io }) => {
  beforeEach(async (context) => {
    await skipWithoutSandbox(context)
    skipWithoutPythonModules(context, ['numpy'])
    await datasetOrSkip(context, (env) =>
      suite === 'humaneval'
        ? Promise.all([loadHumanEval('humaneval', env), loadHumanEval('humaneval+', env)])
        : Promise.all([loadMbpp('mbpp', env), loadMbpp('mbpp+', env)]),
    )
  })

  test(
    `${PROGRAMS.length} programs against ${check}'s own check: none passes, none is an infra_error`,
    { timeout: 600_000 },
    async () => {
      await replay(suite, check, PROGRAMS, taskId, entryPoint)
    },
  )

  test(`the same against ${io}'s inputs and outputs`, { timeout: 600_000 }, async () => {
    await replay(
      suite,
      io,
      PROGRAMS.filter(({ name }) => !SLOW_IN_IO.has(name)),
      taskId,
      entryPoint,
    )
  })

  test('the canonical solution still passes both', { timeout: 300_000 }, async () => {
    const { records, output } = await runSuite(suite, { MODEL: 'reference' }, only(taskId))
    expect(records.map((record) => `${record.variant} ${record.outcome}`).sort(), output).toEqual([
      `${check} passed`,
      `${io} passed`,
    ])
  })
})
