/**
 * `--shard i/3` gives every shard an equal share of every big suite: the suites' part files are
 * numbered 1..n in a count that 3 divides, and the part sequencer deals each suite's parts over
 * the shards in turn (Vitest's own sharding, by file-name hash, can give one machine all of them).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { itemsOfPart } from '../../harness/benchmark.ts'
import { dealToShards } from '../../reporters/part-sequencer.ts'
import { REPO_ROOT } from '../support/run-vitest.ts'

interface PartFile {
  path: string
  index: number
  count: number
}

const SUITES = join(REPO_ROOT, 'suites')
const folders = readdirSync(SUITES, { withFileTypes: true }).filter((entry) => entry.isDirectory())
const partFiles: PartFile[] = folders.flatMap(({ name: suite }) =>
  readdirSync(join(SUITES, suite))
    .filter((name) => /^[a-z]+-\d+\.test\.ts$/.test(name))
    .map((name) => {
      const path = `suites/${suite}/${name}`
      const declared = /\{ index: (\d+), count: (\d+) \}/.exec(readFileSync(join(REPO_ROOT, path), 'utf8'))
      if (!declared) throw new Error(`${path} declares no { index, count } part.`)
      return { path, index: Number(declared[1]), count: Number(declared[2]) }
    }),
)
const suites = new Map<string, PartFile[]>()
for (const file of partFiles) {
  const suite = file.path.split('/')[1] ?? ''
  suites.set(suite, [...(suites.get(suite) ?? []), file])
}

/** Items per shard when every suite has `items` items: each part file holds its slice. */
function shardSizes(files: readonly PartFile[], items: number, shards: number): number[] {
  const dealt = dealToShards(
    files.map((file) => file.path),
    shards,
  )
  const all = Array.from({ length: items }, (_, item) => item)
  return Array.from({ length: shards }, (_, shard) =>
    files
      .filter((_, position) => dealt[position] === shard + 1)
      .reduce((sum, file) => sum + itemsOfPart(all, file).length, 0),
  )
}

describe('shards', () => {
  test('the gated suites and every other big suite are split into part files', () => {
    expect([...suites.keys()].sort()).toEqual(['bigcodebench', 'euler', 'farel', 'humaneval', 'mbpp', 'swebench'])
  })

  test.for([...suites.entries()].map(([suite, files]) => ({ suite, files })))(
    '$suite: part files 1..n, each declaring its own index and the same count, n a multiple of 3',
    ({ suite, files }) => {
      const count = files.length
      expect(count % 3, `${suite} has ${count} part files`).toBe(0)
      expect(files.map((file) => file.index).sort((a, b) => a - b)).toEqual(
        Array.from({ length: count }, (_, index) => index + 1),
      )
      for (const file of files) {
        expect(file.count, file.path).toBe(count)
        expect(file.path).toBe(`suites/${suite}/${suite}-${file.index}.test.ts`)
      }
    },
  )

  // Published set sizes: HumanEval 164, PE-Bench 100 and 200, SWE-bench Lite 300, FaRel-3 450, MBPP+ 378, MBPP 500, BigCodeBench-Hard 148, BigCodeBench 1140.
  test.for(
    [...suites.entries()].flatMap(([suite, files]) =>
      [100, 148, 164, 200, 300, 378, 450, 500, 1140].map((items) => ({ suite, files, items })),
    ),
  )('$suite with $items items: --shard 1/3..3/3 are within 20 % of each other', ({ files, items }) => {
    const sizes = shardSizes(files, items, 3)
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(items)
    expect(Math.min(...sizes) / Math.max(...sizes), `shard sizes ${sizes.join(' / ')}`).toBeGreaterThanOrEqual(0.8)
  })

  test('parts are dealt in turn within each folder, the deal going on across folders, whatever order they come in', () => {
    const paths = [
      'suites/b/b-2.test.ts',
      'suites/a/a-10.test.ts',
      'suites/a/a-2.test.ts',
      'suites/b/b-1.test.ts',
      'suites/a/a-1.test.ts',
    ]
    // In order: a-1, a-2, a-10, b-1, b-2 → shards 1, 2, 3, 1, 2.
    expect(dealToShards(paths, 3)).toEqual([2, 3, 2, 1, 1])
  })

  test('Windows paths are dealt as their slash-separated form', () => {
    expect(dealToShards(['suites\\a\\a-2.test.ts', 'suites\\a\\a-1.test.ts'], 2)).toEqual([2, 1])
  })
})
