/**
 * Every MBPP check (the test split and the sanitized subset), recorded on its reference solution by
 * the judge: each one splits into calls of plain data and a replay, Mbpp/367's trees made by its
 * setup code passed by name; none has to run in the program's process.
 */
import { describe, expect, test } from 'vitest'
import { checkSpec, recordCheck } from '../../../harness/python-tasks/checks/check-judge.ts'
import { loadMbpp } from '../../../suites/mbpp/dataset.ts'
import { datasetOrSkip } from '../../support/test-datasets.ts'

describe("MBPP's own checks", () => {
  test.for(['mbpp', 'mbpp-sanitized'] as const)(
    '%s: all are replayed outside the program, the list of checks run in its process is empty',
    { timeout: 600_000 },
    async (variant, context) => {
      const tasks = await datasetOrSkip(context, (env) => loadMbpp(variant, env))
      const inProcess: string[] = []
      const byName: string[] = []
      for (const task of tasks) {
        if (!('check' in task.judge)) throw new Error(`${task.id} is not judged by its check`)
        const record = await recordCheck(checkSpec(task.judge.check))
        if (!('calls' in record))
          inProcess.push(`${task.id}: ${'inProcess' in record ? record.inProcess : record.died}`)
        else if (record.refs.length > 0) byName.push(`${task.id} ${record.refs.join(',')}`)
      }
      expect(inProcess).toEqual([])
      expect(byName).toEqual(variant === 'mbpp' ? ['Mbpp/367 root,root1,root2'] : [])
    },
  )
})
