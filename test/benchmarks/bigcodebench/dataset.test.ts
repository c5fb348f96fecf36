import { describe, expect, test } from 'vitest'
import { canonicalProgram, loadBigCodeBench } from '../../../suites/bigcodebench/dataset.ts'
import { extractSolution } from '../../../harness/python-tasks/extract-solution.ts'
import { withDatasets } from '../../support/test-datasets.ts'

const env = withDatasets()

describe('loadBigCodeBench (the shared v0.1.0 files)', async () => {
  const full = await loadBigCodeBench('full', env)
  const hard = await loadBigCodeBench('hard', env)

  test('1140 tasks in the full set and 148 in the hard one, whose records are the full set’s', () => {
    expect(full).toHaveLength(1140)
    expect(full[0]).toMatchObject({ id: 'BigCodeBench/0', entryPoint: 'task_func', libs: ['random', 'itertools'], title: 'itertools random' })
    expect(full.at(-1)?.id).toBe('BigCodeBench/1139')
    expect(hard).toHaveLength(148)
    const byId = new Map(full.map((task) => [task.id, task]))
    for (const task of hard) expect(task).toEqual(byId.get(task.id))
    expect(hard.map((task) => task.id)).toContain('BigCodeBench/13')
  })

  test('every libs field parses and every reference reply extracts to the canonical program', () => {
    expect(new Set(full.flatMap((task) => task.libs))).toContain('pandas')
    for (const task of full) {
      expect(task.libs.length, task.id).toBeGreaterThan(0)
      expect(extractSolution(task.reference, task.entryPoint)?.code.trim(), task.id).toBe(canonicalProgram(task).trim())
    }
  })
})
