import { stripReasoning } from '../../harness/extract-code.ts'

/**
 * How a reply's answer is read (TESTBENCH_FAREL_PARSE):
 * - `tag` (default), as the original's run scripts read it: the first `<ANSWER>…</ANSWER>`
 *   whose content is on one line, trimmed;
 * - `tag-or-boxed`, the second parse two published logs were scored with (QwQ-32B-Preview and
 *   QVQ-72B-Preview, which answer in `\boxed{N}`): the last `<ANSWER>N</ANSWER>` holding a
 *   number, else the last `\boxed{N}` holding a number; anything else (`\boxed{\text{2}}`, a
 *   tag around words) is no answer.
 */
export const PARSES = ['tag', 'tag-or-boxed'] as const
export type Parse = (typeof PARSES)[number]

/**
 * The answer in a reply. Reasoning sections (`<think>…</think>` and the like) are dropped
 * first, so a tag tried out while thinking does not count (the original reads the whole reply;
 * none of its published logs has such a section). Undefined when there is no answer
 * (`no_answer`); with `tag`, an empty tag gives '' (a wrong answer, as in the original).
 */
export function parseAnswer(reply: string, parse: Parse = 'tag'): string | undefined {
  const text = stripReasoning(reply)
  if (parse === 'tag-or-boxed')
    return lastNumber(text, /<ANSWER>\s*(\d+)\s*<\/ANSWER>/g) ?? lastNumber(text, /\\boxed\{\s*(\d+)\s*\}/g)
  // `[^\n]`, not `.`: Python's `.` stops only at \n, JavaScript's also at \r, \u2028 and \u2029.
  const match = /<ANSWER>([^\n]*?)<\/ANSWER>/.exec(text)
  return match?.[1]?.trim()
}

function lastNumber(text: string, pattern: RegExp): string | undefined {
  return [...text.matchAll(pattern)].at(-1)?.[1]
}
