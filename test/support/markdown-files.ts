import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import { REPO_ROOT } from './run-vitest.ts'

const SKIPPED = new Set(['node_modules', '.git', '.testbench', '.vitest-reports'])
/** Where `npm run package` builds the package (git ignores it): its pages are the package's, not the repository's. */
export const BUILT_PACKAGE = join(REPO_ROOT, 'build', 'package')

/**
 * Every Markdown file of a tree (README.md, docs/, each folder's README.md), as absolute paths: by default the
 * repository's own, without what `npm run package` built under build/.
 */
export function markdownFiles(dir: string = REPO_ROOT): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (SKIPPED.has(entry.name) || path === join(REPO_ROOT, 'build')) return []
    if (entry.isDirectory()) return markdownFiles(path)
    return entry.name.endsWith('.md') ? [path] : []
  })
}

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

/** `[text](target)` links outside code, that lead somewhere in the same tree. */
function relativeLinks(text: string): string[] {
  const prose = text.replace(/^(```|````)[^]*?^\1\s*$/gm, '').replace(/`[^`\n]*`/g, '')
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] ?? '')
    .filter((target) => !/^[a-z]+:/.test(target))
}

/**
 * The relative links of `file` that do not resolve inside `tree` (the repository, or the built package, where its
 * pages are read): a file that is not there, or not in that tree, or an anchor its page has no heading for.
 */
export function brokenLinks(file: string, tree: string): string[] {
  const broken: string[] = []
  for (const target of relativeLinks(readFileSync(file, 'utf8'))) {
    const [path = '', anchor] = target.split('#')
    const resolved = path === '' ? file : join(dirname(file), decodeURIComponent(path))
    const inside = relative(tree, resolved)
    if (inside === '..' || inside.startsWith(`..${sep}`)) broken.push(`${target}: outside ${tree}`)
    else if (!existsSync(resolved)) broken.push(`${target}: no such file`)
    else if (
      anchor !== undefined &&
      statSync(resolved).isFile() &&
      resolved.endsWith('.md') &&
      !anchorsOf(resolved).has(anchor)
    )
      broken.push(`${target}: no such heading`)
  }
  return broken
}
