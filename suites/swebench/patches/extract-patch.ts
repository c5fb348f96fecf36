/**
 * The unified diff in a model's reply: from ```diff fences (several blocks are
 * joined, one per file is common) or bare in the text; hunk headers whose line
 * counts are off repaired. Undefined when the reply holds no diff with at least
 * one hunk. A carriage return that belongs to a line (a file with CRLF endings)
 * is kept, as SWE-bench keeps it; only a reply whose every line ends in CRLF (a
 * transport's doing) has its line endings made `\n`.
 */
import { fencedBlocks, stripReasoning } from '../../../harness/extract-code.ts'
import { repairHunkHeaders } from './repair-hunks.ts'

export interface ExtractedPatch {
  patch: string
  /** Hunk headers whose counts were rewritten, as `old → new`. */
  repaired: string[]
}

/** Stands for a carriage return at a line's end while the reply is cut into lines (fence parsing drops real ones). */
const CR = '\uE00D'

export function extractPatch(reply: string): ExtractedPatch | undefined {
  const stripped = stripReasoning(reply)
  const transportCrlf = stripped.includes('\r\n') && !/(^|[^\r])\n/.test(stripped)
  const text = transportCrlf ? stripped.replace(/\r\n/g, '\n') : stripped.replace(/\r\n/g, `${CR}\n`)
  const fenced = fencedBlocks(text)
    .map((block) => block.code)
    .filter(looksLikeDiff)
  const candidate = fenced.length > 0 ? fenced.map(diffPart).join('') : diffPart(text)
  if (candidate === '' || !/^@@ /m.test(candidate)) return undefined
  const { patch, repaired } = repairHunkHeaders(candidate)
  return { patch: patch.replaceAll(CR, '\r'), repaired: repaired.map((line) => line.replaceAll(CR, '')) }
}

function looksLikeDiff(code: string): boolean {
  return /^(diff --git |--- )/m.test(code) && /^@@ /m.test(code)
}

const FILE_HEADER =
  /^(diff --git |index |--- |\+\+\+ |new file mode |deleted file mode |old mode |new mode |similarity index |rename from |rename to |copy from |copy to |Binary files )/
const HUNK_LINE = /^[ +\-\\]/

/**
 * The diff lines of a text, from its first file header to its last hunk line;
 * prose before, between and after file diffs is dropped, and a blank line inside a
 * hunk (a context line whose space was lost) is kept for the repair to count.
 */
function diffPart(text: string): string {
  const lines = text.split('\n')
  const kept: string[] = []
  let inDiff = false
  let inHunk = false
  for (const line of lines) {
    if (line.startsWith('diff --git ') || (line.startsWith('--- ') && !inHunk)) {
      inDiff = true
      inHunk = false
      kept.push(line)
    } else if (!inDiff) {
      continue
    } else if (line.startsWith('@@ ')) {
      inHunk = true
      kept.push(line)
    } else if (inHunk && (HUNK_LINE.test(line) || line === '')) {
      kept.push(line)
    } else if (inHunk && line === CR) {
      // A blank context line of a CRLF file whose space was lost.
      kept.push(` ${CR}`)
    } else if (!inHunk && FILE_HEADER.test(line)) {
      kept.push(line)
    } else {
      // Prose: the diff of this file has ended.
      inHunk = false
      inDiff = false
    }
  }
  while (kept.length > 0 && (kept[kept.length - 1] === '' || kept[kept.length - 1] === CR)) kept.pop()
  return kept.length === 0 ? '' : `${kept.join('\n')}\n`
}
