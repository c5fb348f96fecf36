import { describe, expect, test } from 'vitest'
import { canonicalProgram, loadBigCodeBench } from '../../../suites/bigcodebench/dataset.ts'
import { extractSolution } from '../../../harness/python-tasks/extract-solution.ts'
import { datasetOrSkip, type SkippableContext } from '../../support/test-datasets.ts'

let loading: Promise<Awaited<ReturnType<typeof loadBigCodeBench>>[]> | undefined
/** Both subsets, loaded once for the tests below; a test skips where the files cannot be had. */
function subsets(context: SkippableContext) {
  return datasetOrSkip(
    context,
    (env) => (loading ??= Promise.all([loadBigCodeBench('full', env), loadBigCodeBench('hard', env)])),
  )
}

describe('loadBigCodeBench (the shared v0.1.0 files)', () => {
  test('1140 tasks in the full set and 148 in the hard one, whose records are the full set’s', async (context) => {
    const [full = [], hard = []] = await subsets(context)
    expect(full).toHaveLength(1140)
    expect(full[0]).toMatchObject({
      id: 'BigCodeBench/0',
      entryPoint: 'task_func',
      libs: ['random', 'itertools'],
      title: 'itertools random',
    })
    expect(full.at(-1)?.id).toBe('BigCodeBench/1139')
    expect(hard).toHaveLength(148)
    const byId = new Map(full.map((task) => [task.id, task]))
    for (const task of hard) expect(task).toEqual(byId.get(task.id))
    expect(hard.map((task) => task.id)).toContain('BigCodeBench/13')
  })

  test('every libs field parses and every reference reply extracts to the canonical program', async (context) => {
    const [full = []] = await subsets(context)
    expect(new Set(full.flatMap((task) => task.libs))).toContain('pandas')
    for (const task of full) {
      expect(task.libs.length, task.id).toBeGreaterThan(0)
      expect(extractSolution(task.reference, task.entryPoint)?.code.trim(), task.id).toBe(canonicalProgram(task).trim())
    }
  })
})
