import { createHash } from 'node:crypto'

/**
 * A FaRel "model" that is right on some quizzes, wrong on others and gives no answer on a few,
 * the same every time it is asked: what a flaky transport must not change.
 */
export function steadyFarelModel(quiz: string): string {
  const hash = createHash('sha256').update(quiz).digest()
  if (hash[4]! % 9 === 0) return 'I cannot tell from these statements.'
  const options = quiz.match(/^\d+\. /gm)?.length ?? 1
  return `Let me think it through. <ANSWER>${(hash.readUInt32BE(0) % options) + 1}</ANSWER>`
}
