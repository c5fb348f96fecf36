import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { loadHumanEval } from '../../../suites/humaneval/dataset.ts'
import type { PythonTask } from '../../../harness/python-tasks/python-task.ts'
import { BATCH_PROVIDERS, batchServer, createdBatches } from '../../support/batch-providers.ts'
import type { LoopbackServer } from '../../support/loopback-server.ts'
import { killRun, readJsonReport, startVitestRun } from '../../support/run-vitest.ts'
import { datasetEnv, datasetOrSkip } from '../../support/test-datasets.ts'
import { waitFor } from '../../support/wait-for.ts'

let server: LoopbackServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

/** One item of each of the suite's six part files: the run's batch must gather them all. */
const ITEMS = [0, 30, 60, 90, 120, 150]
/** Answered with a function that returns an empty list (both tasks return lists, never empty in their tests). */
const WRONG = new Set(['HumanEval/30', 'HumanEval/120'])

/** The provider's answer: the canonical solution of the task the prompt asks for, or a wrong one. */
function answerFor(tasks: readonly PythonTask[]) {
  return (prompt: string): string => {
    const task = tasks.find((each) => each.chatPrompt === prompt)
    if (task === undefined) return 'I do not know this task.'
    if (!WRONG.has(task.id)) return task.reference
    return `\`\`\`python\ndef ${task.entryPoint}(*args):\n    return []\n\`\`\`\n`
  }
}

describe.each(BATCH_PROVIDERS)('$name: HumanEval through batches', (provider) => {
  test('every item answered by one batch at the batch price, verdicts right; a kill in the middle pays nothing twice', async (context) => {
    const tasks = await datasetOrSkip(context, (env) => loadHumanEval('humaneval', env))
    const started = await batchServer(provider, { batchMs: 6000, answer: answerFor(tasks) })
    server = started.server
    const { engine } = started
    const dir = mkdtempSync(join(tmpdir(), 'batch-humaneval-'))
    const prices = join(dir, 'prices.json')
    const model = started.env.MODEL ?? ''
    writeFileSync(prices, JSON.stringify({ currency: 'USD', perMillionTokens: { [model]: { input: 2, output: 8 } } }))
    const report = join(dir, 'report.json')
    const env = {
      ...started.env,
      ...datasetEnv(),
      TESTBENCH_BATCH_WAIT: '1',
      TESTBENCH_HUMANEVAL_VARIANTS: 'humaneval',
      TESTBENCH_PRICES: prices,
      TESTBENCH_CACHE_DIR: join(dir, 'cache'),
      TESTBENCH_REPORT_DIR: join(dir, 'reports'),
    }
    const args = [
      '--project',
      'suites',
      'suites/humaneval',
      '-t',
      `HumanEval/(${ITEMS.join('|')}) `,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
    ]
    const journal = join(dir, 'cache', 'batches')
    // Each Vitest worker of the first run starts 0 to 4.5 s late, by its pid, as on a busy machine: the workers'
    // requests come seconds apart, more than the gather's 1 s, and still go into one batch.
    const lateStart = join(dir, 'late-start.cjs')
    writeFileSync(
      lateStart,
      "if (process.argv[1]?.endsWith('forks.js')) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, (process.pid % 4) * 1500)\n",
    )
    const first = startVitestRun(args, { ...env, NODE_OPTIONS: `--require=${lateStart}` })
    try {
      await waitFor(() => createdBatches(journal) > 0, 60_000)
    } finally {
      killRun(first)
    }
    const firstDone = await first.done
    expect(engine.counts.creates, firstDone.output).toBe(1)

    const second = await startVitestRun(args, env).done
    expect(second.code, second.output).not.toBeNull()
    const records = readJsonReport(report)
      .map((result) => result.meta.bench)
      .filter((record) => record !== undefined)
    const outcomes = Object.fromEntries(records.map((record) => [record.itemId, record.outcome]))
    expect(outcomes, second.output).toEqual(
      Object.fromEntries(
        ITEMS.map((index) => `HumanEval/${index}`).map((id) => [id, WRONG.has(id) ? 'wrong_answer' : 'passed']),
      ),
    )
    // Counted at the server: one batch carried every item once; nothing was asked one by one.
    const [batch] = [...engine.batches.keys()]
    expect(records.map((record) => record.batch)).toEqual(Array(ITEMS.length).fill(batch))
    expect(engine.counts.creates, `${firstDone.output}\n---- rerun:\n${second.output}`).toBe(1)
    expect([...engine.counts.carried.values()]).toEqual(Array(ITEMS.length).fill(1))
    expect(engine.counts.ordinary).toBe(0)
    expect(second.output).toMatch(/collecting it instead of asking again/)
    // Every token at the batch price: half the list price, as the prices file gives none for batches.
    const [, prompt = '', completion = ''] =
      /through batches \(batch price\): (\d+) prompt, (\d+) completion; one by one: 0 prompt, 0 completion/.exec(
        second.output,
      ) ?? []
    const half = ((Number(prompt) * 2 + Number(completion) * 8) / 2 / 1e6).toFixed(4)
    expect(second.output).toContain(`cost: ${half} USD`)
  }, 180_000)
})
