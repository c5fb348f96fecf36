/** Every relative link of the docs leads to a file that exists, and an anchor to a heading it has. */
import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { expect, test } from 'vitest'
import { markdownFiles } from '../support/markdown-files.ts'
import { REPO_ROOT } from '../support/run-vitest.ts'

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-')
}

function anchorsOf(file: string): Set<string> {
  const headings = readFileSync(file, 'utf8').match(/^#{1,6} .*$/gm) ?? []
  return new Set(headings.map((heading) => anchorOf(heading.replace(/^#+ /, ''))))
}

/** `[text](target)` links outside code, that lead somewhere in the repository. */
function relativeLinks(text: string): string[] {
  const prose = text.replace(/^(```|````)[^]*?^\1\s*$/gm, '').replace(/`[^`\n]*`/g, '')
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] ?? '')
    .filter((target) => !/^[a-z]+:/.test(target))
}

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
  '$name: every relative link resolves',
  ({ file }) => {
    const broken: string[] = []
    for (const target of relativeLinks(readFileSync(file, 'utf8'))) {
      const [path = '', anchor] = target.split('#')
      const resolved = path === '' ? file : join(dirname(file), decodeURIComponent(path))
      if (!existsSync(resolved)) broken.push(`${target}: no such file`)
      else if (
        anchor !== undefined &&
        statSync(resolved).isFile() &&
        resolved.endsWith('.md') &&
        !anchorsOf(resolved).has(anchor)
      )
        broken.push(`${target}: no such heading`)
    }
    expect(broken).toEqual([])
  },
)
