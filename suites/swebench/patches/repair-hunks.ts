/**
 * Hunk headers whose line counts do not match their hunks, rewritten. Models
 * often get `@@ -12,7 +12,9 @@` wrong; `git apply` then refuses the whole
 * patch ("corrupt patch"). A hunk whose header fits is left byte for byte.
 */

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$/

export interface RepairedPatch {
  patch: string
  /** The rewritten headers, as `old → new`. */
  repaired: string[]
}

export function repairHunkHeaders(patch: string): RepairedPatch {
  const endsWithNewline = patch.endsWith('\n')
  const lines = (endsWithNewline ? patch.slice(0, -1) : patch).split('\n')
  const out: string[] = []
  const repaired: string[] = []
  let index = 0
  while (index < lines.length) {
    const line = lines[index] ?? ''
    const header = HUNK_HEADER.exec(line)
    if (header === null) {
      out.push(line)
      index++
      continue
    }
    const [, oldStart = '0', oldCount = '1', newStart = '0', newCount = '1', rest = ''] = header
    const fitting = hunkByCounts(lines, index + 1, Number(oldCount), Number(newCount))
    if (fitting !== undefined) {
      out.push(line, ...lines.slice(index + 1, fitting))
      index = fitting
      continue
    }
    const counted = hunkByContent(lines, index + 1)
    const rewritten = `@@ -${oldStart},${counted.old} +${newStart},${counted.new} @@${rest}`
    if (rewritten !== line) repaired.push(`${line} → ${rewritten}`)
    out.push(rewritten, ...counted.body)
    index = counted.end
  }
  return { patch: out.join('\n') + (endsWithNewline ? '\n' : ''), repaired }
}

/** Where the hunk starting at `start` ends if its header's counts are right, else undefined. */
function hunkByCounts(lines: readonly string[], start: number, oldCount: number, newCount: number): number | undefined {
  let old = 0
  let added = 0
  let index = start
  while (old < oldCount || added < newCount) {
    const line = lines[index]
    if (line === undefined) return undefined
    const kind = line[0]
    if (kind === ' ') {
      old++
      added++
    } else if (kind === '-') old++
    else if (kind === '+') added++
    else if (kind !== '\\') return undefined
    index++
  }
  if (lines[index]?.startsWith('\\')) index++
  if (old !== oldCount || added !== newCount) return undefined
  const next = lines[index]
  return next === undefined || !/^[ +\-]/.test(next) || isFileStart(lines, index) ? index : undefined
}

/** The hunk starting at `start` read up to the next hunk or file: its body (blank lines made context) and counts. */
function hunkByContent(
  lines: readonly string[],
  start: number,
): { body: string[]; old: number; new: number; end: number } {
  let end = start
  while (end < lines.length) {
    const line = lines[end] ?? ''
    if (line.startsWith('@@ ') || isFileStart(lines, end)) break
    if (line !== '' && !/^[ +\-\\]/.test(line)) break
    end++
  }
  // Blank lines before the next file are separators, not context.
  let last = end
  while (last > start && lines[last - 1] === '') last--
  const body = lines.slice(start, last).map((line) => (line === '' ? ' ' : line))
  let old = 0
  let added = 0
  for (const line of body) {
    if (line[0] === ' ') {
      old++
      added++
    } else if (line[0] === '-') old++
    else if (line[0] === '+') added++
  }
  return { body, old, new: added, end: last }
}

function isFileStart(lines: readonly string[], index: number): boolean {
  const line = lines[index] ?? ''
  return line.startsWith('diff --git ') || (line.startsWith('--- ') && (lines[index + 1] ?? '').startsWith('+++ '))
}
