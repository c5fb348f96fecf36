/**
 * The task as the model sees it: the issue, the code it needs (SWE-bench's
 * "oracle" context: the files the gold patch touches, at the base commit, with
 * line numbers), and the request for one unified diff.
 */
import type { SwebenchInstance } from './instance.ts'
import type { ContextMode } from './options.ts'
import { patchFiles } from './patches/patch-files.ts'
import type { RepoCache } from './repo-cache.ts'

export interface ContextFile {
  path: string
  text: string
}

export function swebenchPrompt(instance: SwebenchInstance, files: readonly ContextFile[]): string {
  const code = files.map((file) => `[start of ${file.path}]\n${numberLines(file.text)}[end of ${file.path}]`).join('\n')
  return [
    `You are given an issue from the repository ${instance.repo}${files.length > 0 ? ' and the code it concerns' : ''}.`,
    '<issue>',
    instance.problemStatement.trimEnd(),
    '</issue>',
    ...(files.length > 0 ? ['<code>', code, '</code>'] : []),
    'Resolve the issue. Answer with a single patch in unified diff format that `git apply` accepts from the repository root, for example:',
    '```diff',
    'diff --git a/src/example.py b/src/example.py',
    '--- a/src/example.py',
    '+++ b/src/example.py',
    '@@ -10,3 +10,3 @@ def example(values):',
    '     total = 0',
    '-    return total',
    '+    return sum(values)',
    ' ',
    '```',
    'Line numbers in the code above are for reference only; they are not part of the files.',
  ].join('\n')
}

/** The files the prompt shows, as `mode` asks: none, the oracle files, or those and their neighbours up to `maxChars`. */
export async function contextFiles(
  instance: SwebenchInstance,
  cache: RepoCache,
  mode: ContextMode,
  maxChars: number,
): Promise<ContextFile[]> {
  if (mode === 'none') return []
  const oracle = patchFiles(instance.patch)
  const files: ContextFile[] = []
  for (const path of oracle) {
    const text = await cache.readFile(instance.repo, instance.baseCommit, path)
    if (text !== undefined) files.push({ path, text })
  }
  if (mode === 'oracle') return files
  let chars = files.reduce((sum, file) => sum + file.text.length, 0)
  const directories = [...new Set(oracle.map((path) => path.split('/').slice(0, -1).join('/')))]
  for (const directory of directories) {
    for (const path of await cache.listFiles(instance.repo, instance.baseCommit, directory)) {
      if (!path.endsWith('.py') || oracle.includes(path)) continue
      const text = await cache.readFile(instance.repo, instance.baseCommit, path)
      if (text === undefined || chars + text.length > maxChars) continue
      files.push({ path, text })
      chars += text.length
    }
  }
  return files
}

function numberLines(text: string): string {
  if (text === '') return ''
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n')
  return lines.map((line, index) => `${index + 1} ${line}\n`).join('')
}
