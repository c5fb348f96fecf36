/**
 * Every relative link of the docs leads to a file that exists, and an anchor to a heading it has: the repository's
 * pages in the repository, and the pages of a package `npm run package` built (build/package) inside that package,
 * where they are read once installed (test/package/consumer.test.ts checks those of the package it builds).
 */
import { existsSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, test } from 'vitest'
import { brokenLinks, BUILT_PACKAGE, markdownFiles } from '../support/markdown-files.ts'
import { REPO_ROOT } from '../support/run-vitest.ts'

const files = markdownFiles()

test('the docs are there: a README that routes, a page per suite, and the pages it sends readers to', () => {
  const names = files.map((file) => relative(REPO_ROOT, file))
  for (const page of [
    'README.md',
    'CONTRIBUTING.md',
    'docs/knobs.md',
    'docs/reports.md',
    'docs/style.md',
    'adapters/sandbox/README.md',
    'harness/README.md',
  ]) {
    expect(names).toContain(page)
  }
  expect(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(200)
})

test.for(files.map((file) => ({ name: relative(REPO_ROOT, file), file })))(
  '$name: every relative link resolves in the repository',
  ({ file }) => {
    expect(brokenLinks(file, REPO_ROOT)).toEqual([])
  },
)

describe.runIf(existsSync(BUILT_PACKAGE))('the package npm run package built (build/package)', () => {
  test.for(
    (existsSync(BUILT_PACKAGE) ? markdownFiles(BUILT_PACKAGE) : []).map((file) => ({
      name: relative(BUILT_PACKAGE, file),
      file,
    })),
  )('$name: every relative link resolves inside the package', ({ file }) => {
    expect(brokenLinks(file, BUILT_PACKAGE)).toEqual([])
  })
})
