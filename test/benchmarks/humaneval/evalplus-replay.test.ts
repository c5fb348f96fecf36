/**
 * HumanEval+ replayed from samples in EvalPlus's own format ({task_id, solution}), each
 * asserting what evalplus (v0.3.1, `evalplus.evaluate --dataset humaneval`) makes of it:
 * base and plus status per sample, and the two columns of its leaderboard.
 */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { beforeEach, describe, expect, test } from 'vitest'
import { scoreHumanEval } from '../../../suites/humaneval/score.ts'
import { outcomes, runSuite } from '../../support/run-python-suite.ts'
import { datasetOrSkip } from '../../support/test-datasets.ts'
import { HUMANEVAL_VARIANTS, loadHumanEval } from '../../../suites/humaneval/dataset.ts'
import { sandboxPython, skipWithoutPythonModules, skipWithoutSandbox } from '../../support/sandbox-available.ts'

const SAMPLES = fileURLToPath(new URL('../../../fixtures/humaneval/evalplus-samples.jsonl', import.meta.url))
const HOSTILE = fileURLToPath(new URL('../../../fixtures/humaneval/hostile-evalplus-samples.jsonl', import.meta.url))

describe('HumanEval+ judged outside the program', () => {
  beforeEach(async (context) => {
    await skipWithoutSandbox(context)
    skipWithoutPythonModules(context, ['numpy'])
    await datasetOrSkip(context, (env) => Promise.all(HUMANEVAL_VARIANTS.map((variant) => loadHumanEval(variant, env))))
  })

  test(
    "each rule gives evalplus's verdict: per-input time limits, find_zero's oracle, base and plus columns",
    { timeout: 600_000 },
    async () => {
      const { records, output } = await runSuite(
        'humaneval',
        { MODEL: `replay:${SAMPLES}`, SAMPLES: '2', TESTBENCH_HUMANEVAL_VARIANTS: 'humaneval+' },
        'HumanEval/(0|32|147) ',
      )
      expect(outcomes(records, 'humaneval+'), output).toEqual({
        'HumanEval/0 #0': 'passed',
        // Right on the base inputs (none longer than 6 numbers), wrong on EvalPlus's: base pass, plus fail.
        'HumanEval/0 #1': 'wrong_answer',
        // EvalPlus's intended check for find_zero, |poly(xs, x)| <= 1e-4, as in its current code; v0.3.1 skips
        // recording the input's result (`continue` before it) and so fails every answer to HumanEval/32.
        'HumanEval/32 #0': 'passed',
        'HumanEval/32 #1': 'wrong_answer',
        // The O(n³) loop within max(1 s, 4 × the canonical CPU time) on every input, whatever the machine's load.
        'HumanEval/147 #0': 'passed',
        // Endless on n > 200 (plus inputs only): stopped at that input's limit.
        'HumanEval/147 #1': 'timeout',
      })
      const basePassed = Object.fromEntries(
        records.map((record) => [`${record.itemId} #${record.sample}`, record.scoring?.['basePassed']]),
      )
      expect(basePassed).toEqual({
        'HumanEval/0 #0': true,
        'HumanEval/0 #1': true,
        'HumanEval/32 #0': true,
        'HumanEval/32 #1': false,
        'HumanEval/147 #0': true,
        'HumanEval/147 #1': true,
      })
      for (const record of records) {
        expect(record.prompt, 'a replayed answer was never asked for here').toBeUndefined()
        expect(record.scoring?.['cpuMs']).toEqual(expect.any(Number))
        expect(record.scoring?.['wallMs']).toEqual(expect.any(Number))
      }
      const scores = Object.fromEntries(scoreHumanEval(records).map((score) => [score.name, score.value]))
      expect(scores).toEqual({
        'HumanEval+ pass@1': 0.5,
        'HumanEval+ pass@2': 1,
        // No task has both samples right on the plus inputs; HumanEval/0 and /147 have on the base ones.
        'HumanEval+ pass^2': 0,
        'HumanEval (base tests of HumanEval+ v0.1.10) pass@1': (1 + 0.5 + 1) / 3,
        'HumanEval (base tests of HumanEval+ v0.1.10) pass@2': 1,
        'HumanEval (base tests of HumanEval+ v0.1.10) pass^2': 2 / 3,
      })
    },
  )

  test(
    'a machine kept busy changes no verdict: limits are CPU time, so the O(n³) HumanEval/147 still passes',
    { timeout: 600_000 },
    async () => {
      const burners = [0, 1, 2].map(() => spawn(sandboxPython(), ['-c', 'while True: pass'], { stdio: 'ignore' }))
      try {
        const { records, output } = await runSuite(
          'humaneval',
          { MODEL: `replay:${SAMPLES}`, SAMPLES: '2', TESTBENCH_HUMANEVAL_VARIANTS: 'humaneval+' },
          'HumanEval/(147) ',
        )
        expect(outcomes(records, 'humaneval+'), output).toEqual({
          'HumanEval/147 #0': 'passed',
          'HumanEval/147 #1': 'timeout',
        })
      } finally {
        for (const burner of burners) burner.kill('SIGKILL')
      }
    },
  )

  test(
    'hostile programs (always-equal objects, forged results, frame and file searches, -O re-exec, trace hooks, patched builtins, harness-message forgery, swallowed time limits): none passes, none is an infra_error; the canonical solution passes',
    { timeout: 600_000 },
    async () => {
      const { records, output } = await runSuite(
        'humaneval',
        { MODEL: `replay:${HOSTILE}`, SAMPLES: '12', TESTBENCH_HUMANEVAL_VARIANTS: 'humaneval+' },
        'HumanEval/(0) ',
      )
      expect(records, output).toHaveLength(12)
      const verdicts = records.map((record) =>
        `#${record.sample} ${record.outcome} (${String(record.scoring?.['wallMs'])} ms): ${record.reason ?? ''}`.slice(
          0,
          240,
        ),
      )
      expect(
        records.filter((record) => record.outcome === 'passed').map((record) => record.sample),
        verdicts.join('\n'),
      ).toEqual([])
      // Sample 7 prints the fork server's breakdown line and exits 125 before its function exists: the process
      // tier still reads that as its own failure (adapters/sandbox/process/process-sandbox.ts, issue 13 item 4, the
      // sandbox's part); the driver's first line proves the sandbox had started the program for every other case.
      expect(
        records
          .filter((record) => record.outcome === 'infra_error' && record.sample !== 7)
          .map((record) => record.sample),
        verdicts.join('\n'),
      ).toEqual([])
      const control = await runSuite(
        'humaneval',
        { MODEL: 'reference', TESTBENCH_HUMANEVAL_VARIANTS: 'humaneval+' },
        'HumanEval/(0) ',
      )
      expect(outcomes(control.records, 'humaneval+'), control.output).toEqual({ 'HumanEval/0 #0': 'passed' })
    },
  )
})
