/**
 * Replays farel-bench run logs (made up, in the original's format: the printed messages, the
 * reply, and the per-class lines the run script prints at the end) through the suite, and checks
 * that every class's correct / incorrect / missing counts and the FaRel score are the log's own.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { readFarelBenchLog, type LoggedClass } from '../../../suites/farel/farel-bench-log.ts'
import { farelOptions } from '../../../suites/farel/options.ts'
import { generateQuizzes } from '../../../suites/farel/quiz.ts'
import { scoreFarel } from '../../../suites/farel/score.ts'
import { runSuiteForRecords } from '../../support/run-vitest.ts'

const SET = { TESTBENCH_FAREL_LENGTH: '2', TESTBENCH_FAREL_PER_CLASS: '2' }
const quizzes = generateQuizzes(farelOptions(SET))

function logFixture(name: string) {
  return readFarelBenchLog(
    readFileSync(fileURLToPath(new URL(`../../../fixtures/farel/logs/${name}`, import.meta.url)), 'utf8'),
    quizzes,
  )
}

/** Runs the suite on the log's replies and returns its score, with each class as the log writes it. */
async function replay(name: string, env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'farel-log-'))
  try {
    const file = join(dir, 'replies.jsonl')
    writeFileSync(
      file,
      logFixture(name)
        .replies.map((entry) => JSON.stringify(entry))
        .join('\n'),
    )
    const { code, output, records } = await runSuiteForRecords('farel', { MODEL: `replay:${file}`, ...SET, ...env })
    expect(records, output).toHaveLength(10)
    expect([0, 1]).toContain(code)
    const [score, ...others] = scoreFarel(records)
    expect(others).toEqual([])
    const classes = quizzes
      .filter((quiz) => quiz.index === 1)
      .map((quiz): LoggedClass => {
        const [correct = 0, incorrect = 0, missing = 0] = (score?.columns?.[`${quiz.relation} C/I/M`] ?? '')
          .split('/')
          .map(Number)
        return {
          relation: quiz.relation,
          accuracy: Number(score?.columns?.[quiz.relation]),
          correct,
          incorrect,
          missing,
          all: correct + incorrect + missing,
        }
      })
    return { score, classes }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe('farel-bench logs replayed through the suite', () => {
  test('readFarelBenchLog finds every quiz, its multi-line reply and the closing class lines', () => {
    const log = logFixture('tagged.log')
    expect(log.replies.map((entry) => entry.id)).toEqual(quizzes.map((quiz) => `${quiz.relation} #${quiz.index}`))
    expect(log.replies[7]?.reply).toBe('Let me see:\n<ANSWER>\n3\n</ANSWER>')
    expect(log.classes[0]).toEqual({ relation: 'child', accuracy: 50, correct: 1, incorrect: 0, missing: 1, all: 2 })
    expect(() => readFarelBenchLog("[{'role': 'user', 'content': 'another set'}]\nreply\n", quizzes)).toThrow(
      /line 1: .* is not the messages of a quiz of this set/,
    )
  })

  test("the original's parse: every class as the log counts it, FaRel-2 = 40.00", { timeout: 120_000 }, async () => {
    const { score, classes } = await replay('tagged.log')
    expect(classes).toEqual(logFixture('tagged.log').classes)
    expect(score).toMatchObject({ name: 'FaRel-2', display: '40.00' })
  })

  test(
    'TESTBENCH_FAREL_PARSE=tag-or-boxed: a log scored with the second parse, as the QwQ and QVQ logs were',
    { timeout: 120_000 },
    async () => {
      const { score, classes } = await replay('boxed.log', { TESTBENCH_FAREL_PARSE: 'tag-or-boxed' })
      expect(classes).toEqual(logFixture('boxed.log').classes)
      expect(score).toMatchObject({ name: 'FaRel-2 (tag-or-boxed)', display: '70.00' })
    },
  )

  test(
    'the same replies read with the default parse: \\boxed{N} is no answer, the first tag counts',
    { timeout: 120_000 },
    async () => {
      const { score, classes } = await replay('boxed.log')
      expect(
        classes.map(({ relation, correct, incorrect, missing }) => `${relation} ${correct}/${incorrect}/${missing}`),
      ).toEqual(['child 0/1/1', 'parent 0/1/1', 'grandchild 0/1/1', 'sibling 0/0/2', 'grandparent 1/0/1'])
      expect(score).toMatchObject({ name: 'FaRel-2', display: '10.00' })
    },
  )
})
