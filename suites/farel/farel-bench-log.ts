/**
 * The original farel-bench's run logs (`run_openai.py … > model.log`): for each quiz the messages
 * as Python prints them (`[{'role': 'user', 'content': '…'}]`), then the model's reply, and at the
 * end one line per class, `child: 96.00 (C: 48, I: 1, M: 1 A: 50)`. Reading one gives the replies
 * by item id (to replay them: `{id, reply}` lines for `MODEL=replay:`) and the log's own tallies,
 * which a replay must reproduce.
 */
import { pythonRepr } from './python-csv.ts'
import type { Quiz } from './quiz.ts'

export interface LoggedClass {
  relation: string
  accuracy: number
  correct: number
  incorrect: number
  missing: number
  all: number
}

export interface FarelBenchLog {
  /** The reply to each quiz of the set that the log holds, by item id (`child #1`). */
  replies: Array<{ id: string; reply: string }>
  /** The log's closing per-class lines, in its order. */
  classes: LoggedClass[]
}

const CLASS_LINE = /^([ \w]+): ([\d.]+) \(C: (\d+), I: (\d+), M: (\d+) A: (\d+)\)$/

/**
 * Reads a log of a run over `quizzes` (the set it was run on, e.g. the published FaRel-3 set),
 * with `system` as its system prompt if it had one. A quiz's messages line is found by printing
 * them as the original did, so a log of another set or template fails, naming the first line
 * it does not recognise.
 */
export function readFarelBenchLog(text: string, quizzes: readonly Quiz[], system?: string): FarelBenchLog {
  const idsByLine = new Map<string, string[]>()
  for (const quiz of quizzes) {
    const line = messagesLine(quiz.prompt, system)
    idsByLine.set(line, [...(idsByLine.get(line) ?? []), `${quiz.relation} #${quiz.index}`])
  }
  const lines = text.replace(/\n$/, '').split('\n')
  let end = lines.length
  while (end > 0 && CLASS_LINE.test(lines[end - 1] ?? '')) end -= 1
  const classes = lines.slice(end).map(parseClassLine)
  const replies: FarelBenchLog['replies'] = []
  let current: { id: string; lines: string[] } | undefined
  for (const [index, line] of lines.slice(0, end).entries()) {
    const id = idsByLine.get(line)?.shift()
    if (id !== undefined) {
      if (current) replies.push({ id: current.id, reply: current.lines.join('\n') })
      current = { id, lines: [] }
    } else if (current) current.lines.push(line)
    else
      throw new Error(
        `farel-bench log, line ${index + 1}: "${line.slice(0, 80)}" is not the messages of a quiz of this set. Is it a log of this set (TESTBENCH_FAREL_LENGTH, _PER_CLASS, _SEED, _TEMPLATE, _SYSTEM as when it was run)?`,
      )
  }
  if (current) replies.push({ id: current.id, reply: current.lines.join('\n') })
  return { replies, classes }
}

/** What `print(messages)` wrote for a quiz. */
export function messagesLine(prompt: string, system?: string): string {
  const user = `{'role': 'user', 'content': ${pythonRepr(prompt)}}`
  return system === undefined ? `[${user}]` : `[{'role': 'system', 'content': ${pythonRepr(system)}}, ${user}]`
}

function parseClassLine(line: string): LoggedClass {
  const [, relation = '', accuracy = '', correct = '', incorrect = '', missing = '', all = ''] =
    CLASS_LINE.exec(line) ?? []
  return {
    relation,
    accuracy: Number(accuracy),
    correct: Number(correct),
    incorrect: Number(incorrect),
    missing: Number(missing),
    all: Number(all),
  }
}
