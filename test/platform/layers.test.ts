/**
 * How the product's folders hang together. The layers import downwards only: scripts → reporters → suites →
 * harness → adapters. No module imports itself back through others (an import circle). And no folder grows
 * sideways: at most 20 files at one level, so that a folder stays a sentence long to describe.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const LAYERS = ['adapters', 'harness', 'suites', 'reporters', 'scripts'] as const
/** Files at one level of a product folder, at most; a suite's part files (`<suite>-<n>.test.ts`) are one suite dealt over shards, and not counted. */
const FILES_AT_ONE_LEVEL = 20

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') ? [path] : []
  })
}

function folders(dir: string): string[] {
  const entries = readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.name !== '__pycache__')
  return [dir, ...entries.filter((entry) => entry.isDirectory()).flatMap((entry) => folders(join(dir, entry.name)))]
}

/** The relative modules a file imports: static imports and exports (type-only ones too), side-effect imports, dynamic imports. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const specifiers = [
    ...text.matchAll(/\bfrom '(\.[^']+)'/g),
    ...text.matchAll(/^import '(\.[^']+)'/gm),
    ...text.matchAll(/\bimport\('(\.[^']+)'\)/g),
  ].map(([, specifier]) => specifier ?? '')
  return specifiers.map((specifier) => join(file, '..', specifier))
}

const productFiles = [...LAYERS.flatMap((layer) => sourceFiles(join(ROOT, layer))), join(ROOT, 'index.ts')].filter(
  (file) => !file.endsWith('.test.ts'),
)

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

/** Each circle of a graph once, as `a → b → … → a` from its first member by name, found by a depth-first walk. */
function circlesIn(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const circles = new Set<string>()
  const state = new Map<string, 'open' | 'done'>()
  const path: string[] = []
  const visit = (node: string): void => {
    state.set(node, 'open')
    path.push(node)
    for (const target of graph.get(node) ?? []) {
      if (state.get(target) === 'open') {
        const circle = path.slice(path.indexOf(target))
        const start = circle.indexOf([...circle].sort()[0] ?? '')
        const turned = [...circle.slice(start), ...circle.slice(0, start)]
        circles.add([...turned, turned[0]].join(' → '))
      } else if (state.get(target) === undefined) visit(target)
    }
    path.pop()
    state.set(node, 'done')
  }
  for (const node of graph.keys()) if (state.get(node) === undefined) visit(node)
  return [...circles].sort()
}

test('no import circle among the product modules', () => {
  const known = new Set(productFiles)
  const graph = new Map(
    productFiles.map((file) => [
      relative(ROOT, file),
      importsOf(file)
        .filter((target) => known.has(target))
        .map((target) => relative(ROOT, target)),
    ]),
  )
  expect(circlesIn(graph)).toEqual([])
})

test('the circle check finds a circle, however long, and only circles', () => {
  const graph = new Map([
    ['d', ['a']],
    ['b', ['c']],
    ['a', ['b', 'e']],
    ['c', ['a']],
    ['e', ['f']],
    ['f', ['f']],
  ])
  expect(circlesIn(graph)).toEqual(['a → b → c → a', 'f → f'])
  expect(
    circlesIn(
      new Map([
        ['a', ['b']],
        ['b', []],
      ]),
    ),
  ).toEqual([])
})

test(`no product folder has more than ${FILES_AT_ONE_LEVEL} files at one level`, () => {
  const crowded = LAYERS.flatMap((layer) => folders(join(ROOT, layer)))
    .map((folder) => ({
      folder: relative(ROOT, folder),
      files: readdirSync(folder, { withFileTypes: true }).filter(
        (entry) => entry.isFile() && !/-\d+\.test\.ts$/.test(entry.name),
      ).length,
    }))
    .filter(({ files }) => files > FILES_AT_ONE_LEVEL)
    .map(({ folder, files }) => `${folder}: ${files} files`)
  expect(crowded).toEqual([])
})
