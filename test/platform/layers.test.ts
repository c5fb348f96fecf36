/** The layers import downwards only: scripts → reporters → suites → harness → adapters. */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const LAYERS = ['adapters', 'harness', 'suites', 'reporters', 'scripts'] as const

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') ? [path] : []
  })
}

test('no module imports from a layer above its own', () => {
  const upward: string[] = []
  for (const [rank, layer] of LAYERS.entries()) {
    for (const file of sourceFiles(join(ROOT, layer))) {
      for (const [, target] of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
        const [top] = relative(ROOT, join(file, '..', target ?? '')).split(/[\\/]/)
        const targetRank = LAYERS.indexOf(top as (typeof LAYERS)[number])
        if (targetRank > rank) upward.push(`${relative(ROOT, file)} imports ${target}`)
      }
    }
  }
  expect(upward).toEqual([])
})
