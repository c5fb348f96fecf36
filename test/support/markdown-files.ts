import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { REPO_ROOT } from './run-vitest.ts'

const SKIPPED = new Set(['node_modules', '.git', '.testbench', '.vitest-reports'])

/** Every Markdown file of the project (README.md, docs/, each folder's README.md), as absolute paths. */
export function markdownFiles(dir: string = REPO_ROOT): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return []
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return markdownFiles(path)
    return entry.name.endsWith('.md') ? [path] : []
  })
}
