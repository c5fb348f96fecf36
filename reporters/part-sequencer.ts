import { relative } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * Splits a run over `--shard=i/n` by suite: each folder's test files (a big suite's part files,
 * `suites/farel/farel-1.test.ts` …) are dealt over the shards in turn, the deal going on where the
 * previous folder's ended. So every shard gets an equal share of every suite, give or take one part,
 * and the shards are even in items and in time whatever the suites cost per item; and the split
 * does not depend on file-name hashes (Vitest's own sharding), which can hand one machine all of
 * one suite's parts. Sorting is Vitest's.
 */
export class PartSequencer extends BaseSequencer {
  override async shard(files: TestSpecification[]): Promise<TestSpecification[]> {
    const shard = this.ctx.config.shard
    if (!shard) return files
    const root = this.ctx.config.root
    const shards = dealToShards(
      files.map((file) => relative(root, file.moduleId)),
      shard.count,
    )
    return files.filter((_, position) => shards[position] === shard.index)
  }
}

/** The shard (1-based) of each path: paths grouped by folder, folders and files in natural order, dealt in turn. */
export function dealToShards(paths: readonly string[], count: number): number[] {
  const order = paths
    .map((path, position) => ({ path: path.split('\\').join('/'), position }))
    .sort(
      (a, b) => folder(a.path).localeCompare(folder(b.path)) || a.path.localeCompare(b.path, 'en', { numeric: true }),
    )
  const shards = new Array<number>(paths.length)
  order.forEach(({ position }, turn) => {
    shards[position] = (turn % count) + 1
  })
  return shards
}

function folder(path: string): string {
  return path.slice(0, Math.max(0, path.lastIndexOf('/')))
}
