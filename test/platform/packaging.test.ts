/**
 * What a user runs is in `dependencies`; what only the project's own tests and bench scripts use is
 * in `devDependencies`. Decided from the imports of the source tree, so a new import cannot land
 * in the wrong list unnoticed.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { builtinModules } from 'node:module'
import { describe, expect, test } from 'vitest'
import { REPO_ROOT } from '../support/run-vitest.ts'

interface Manifest {
  dependencies: Record<string, string>
  devDependencies: Record<string, string>
  optionalDependencies?: Record<string, string>
}

const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as Manifest

/** What users run: the suites and everything they load, and the config Vitest reads. */
const PRODUCT = ['index.ts', 'adapters', 'harness', 'reporters', 'suites', 'vitest.config.ts']
/** What only the project's own development uses. */
const DEVELOPMENT = ['test', 'scripts']
/** Needed by users without an import: `vitest --ui` loads it; `npm run leaderboard` inlines chart.js's UMD build into its page. */
const RUN_BY_USERS = ['vitest', '@vitest/ui', 'chart.js']

function sourceFiles(path: string): string[] {
  const full = join(REPO_ROOT, path)
  if (/\.(ts|mjs|js)$/.test(path)) return [full]
  return readdirSync(full, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(ts|mjs|js)$/.test(name) && !name.includes('node_modules'))
    .map((name) => join(full, name))
}

/**
 * The npm packages a file loads at run time (static and dynamic imports, by package name); type-only
 * imports are erased before anything runs. Statements start their line, so code quoted in strings
 * (a Go program's `import "fmt"`) does not count.
 */
function importedPackages(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const statements =
    /^(?:import(?!\s+type\b)|export)\b[^;]*?\bfrom\s+['"]([^'"]+)['"]|^import\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]/gms
  const specifiers = [...text.matchAll(statements)]
    .map((match) => match[1] ?? match[2] ?? match[3] ?? '')
    .filter((specifier) => !/^[./]/.test(specifier))
  return specifiers
    .filter((specifier) => !specifier.startsWith('node:') && !builtinModules.includes(specifier.split('/')[0] ?? ''))
    .map((specifier) =>
      specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : (specifier.split('/')[0] ?? ''),
    )
}

function packagesUsedBy(paths: readonly string[]): Map<string, string> {
  const users = new Map<string, string>()
  for (const file of paths.flatMap(sourceFiles)) {
    for (const name of importedPackages(file)) if (!users.has(name)) users.set(name, relative(REPO_ROOT, file))
  }
  return users
}

const product = packagesUsedBy(PRODUCT)
const development = packagesUsedBy(DEVELOPMENT)

describe('package.json lists each package where its users need it', () => {
  test('every package the product imports is a dependency', () => {
    const misplaced = [...product]
      .filter(([name]) => !(name in manifest.dependencies))
      .map(([name, file]) => `${name} (imported by ${file})`)
    expect(misplaced).toEqual([])
  })

  test('what users run without importing it (vitest, its UI) is a dependency', () => {
    expect(RUN_BY_USERS.filter((name) => !(name in manifest.dependencies))).toEqual([])
  })

  test('packages only tests and bench scripts import are devDependencies, not dependencies', () => {
    const testOnly = [...development.keys()].filter((name) => !product.has(name) && !RUN_BY_USERS.includes(name))
    expect(testOnly.filter((name) => name in manifest.dependencies)).toEqual([])
    expect(testOnly.filter((name) => !(name in manifest.devDependencies))).toEqual([])
    // The check has something to check: the browser test and the bench scripts bring their own packages.
    expect(testOnly).toEqual(expect.arrayContaining(['playwright-core', 'execa']))
  })

  test('no dependency is unused', () => {
    const unused = Object.keys(manifest.dependencies).filter(
      (name) => !product.has(name) && !RUN_BY_USERS.includes(name),
    )
    expect(unused).toEqual([])
  })
})
