import type { TestCase, TestModule } from 'vitest/node'
import '../harness/records/declared-item.ts'

/** How much of a suite's set one model's run covered, when it covered only part of it. */
export interface PartialRun {
  /** Tests (items × samples) that ran. */
  items: number
  /** Tests in the whole set. */
  of: number
  /** Why: `-t 0001`, `shard 1/3`, a narrowing knob, part files that did not run. */
  reasons: string[]
}

export interface RunSelection {
  /** The `-t` value, as typed, when the run was filtered. */
  filter?: string
  shard?: { index: number; count: number }
}

interface Group {
  sets: Map<string, number>
  declaredTests: number
  ran: number
  narrowedBy: Set<string>
}

/**
 * For each suite and model (`JSON.stringify([suite, model])`), what part of the set ran, or nothing
 * when the run covered the whole set: counted from what `benchmark()` declared for every test, run or
 * not (`task.meta.declared`), so that a filtered, sharded, narrowed or part-file run is never taken
 * for a complete one.
 */
export function partialRuns(testModules: ReadonlyArray<TestModule>, selection: RunSelection): Map<string, PartialRun> {
  const groups = new Map<string, Group>()
  for (const testModule of testModules) {
    for (const testCase of testModule.children.allTests()) {
      const declared = testCase.meta().declared
      if (!declared) continue
      const key = JSON.stringify([declared.suite, declared.model])
      const group = groups.get(key) ?? { sets: new Map(), declaredTests: 0, ran: 0, narrowedBy: new Set() }
      groups.set(key, group)
      group.sets.set(declared.variant ?? '', declared.setSize)
      group.declaredTests++
      if (ran(testCase)) group.ran++
      if (declared.narrowedBy) group.narrowedBy.add(declared.narrowedBy)
    }
  }
  const partial = new Map<string, PartialRun>()
  for (const [key, group] of groups) {
    const of = [...group.sets.values()].reduce((total, size) => total + size, 0)
    const reasons: string[] = []
    if (selection.shard) reasons.push(`shard ${selection.shard.index}/${selection.shard.count}`)
    if (group.ran < group.declaredTests)
      reasons.push(
        selection.filter !== undefined
          ? `filtered with -t ${selection.filter}`
          : `${group.declaredTests - group.ran} item(s) did not run`,
      )
    if (group.declaredTests < of && !selection.shard) reasons.push('some of its part files did not run')
    for (const knob of group.narrowedBy) reasons.push(`narrowed by ${knob}`)
    if (group.ran < of || group.narrowedBy.size > 0) partial.set(key, { items: group.ran, of, reasons })
  }
  return partial
}

export function partialKey(suite: string, model: string): string {
  return JSON.stringify([suite, model])
}

/** "12 of 164 items (filtered with -t 0001)" */
export function partialText(partial: PartialRun): string {
  return `${partial.items} of ${partial.of} items${partial.reasons.length > 0 ? ` (${partial.reasons.join('; ')})` : ''}`
}

function ran(testCase: TestCase): boolean {
  return testCase.meta().bench !== undefined
}
