/**
 * runner/report_judge.py on report streams written here (no program runs): what the checks' parent makes of the
 * child's reports. A program that rewrites a small int in memory can make the child's `send` write a wrong frame
 * length, and every report after it is lost in a frame the reader waits to complete; whether that happens depends
 * on the machine's speed. Tampering is named then too, not "ended before its tests finished".
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { verdictLine } from '../../../suites/bigcodebench/run-checks.ts'
import { judgeVerdict } from '../../../suites/bigcodebench/task-run.ts'

const RUNNER = fileURLToPath(new URL('../../../suites/bigcodebench/runner/', import.meta.url))

/** Feeds the reports to a ReportReader (with `forge`, the frame of that report claims one byte more) and judges them. */
const JUDGE = String.raw`
import json, sys
from report_judge import ReportReader, judge
from test_plan import test_plan

reports, forge, exit_code = json.loads(sys.argv[1])
secret = bytes(16)
reader = ReportReader(secret, 1 << 20)
stream = b''
for number, report in enumerate(reports):
    body = secret + number.to_bytes(4, 'big') + repr(tuple(report)).encode()
    stream += (len(body) + (1 if number == forge else 0)).to_bytes(4, 'big') + body
for at in range(0, len(stream), 7):
    reader.feed(stream[at:at + 7])
plan = test_plan('import unittest\nclass TestCases(unittest.TestCase):\n    def test_a(self): pass\n    def test_b(self): pass\n')
ended = {'timedOut': False, 'stoppedBy': None, 'idleWallMs': 10, 'signal': None, 'exitCode': exit_code, 'cpuMs': 5}
print('SEAL ' + json.dumps(judge(plan, reader, ended, 40)))
`

const STORY = [
  ['ready'],
  ['program'],
  ['start', 'test_a'],
  ['outcome', 'test_a', 'failed', 3, 'AssertionError'],
  ['stop', 'test_a'],
  ['start', 'test_b'],
  ['outcome', 'test_b', 'passed', 2, ''],
  ['stop', 'test_b'],
  ['end', true],
]

function judged(forge: number, exitCode: number | null = 0) {
  const run = spawnSync('/usr/bin/python3', ['-c', JUDGE, JSON.stringify([STORY, forge, exitCode])], {
    cwd: RUNNER,
    encoding: 'utf8',
  })
  const verdict = verdictLine(run.stdout, 'SEAL')
  if (verdict === undefined) throw new Error(`no verdict: ${run.stderr}`)
  return judgeVerdict('BigCodeBench/1', verdict, 10)
}

describe('the checks parent judges the report stream', () => {
  test('the whole story, read right: a wrong answer naming its method', () => {
    expect(judged(-1)).toMatchObject({ outcome: 'wrong_answer', reason: '1 of 2 test methods failed: test_a.' })
  })

  test('a frame whose length was forged by one byte, then the rest: tampering, whatever the program’s end', () => {
    // The forged frame swallows the first byte of the next one, and the reader then waits for a frame that never ends.
    for (const forge of [2, 3, 4, 7]) {
      const run = judged(forge)
      expect(run.outcome, `report ${forge}: ${run.reason}`).toBe('wrong_answer')
      expect(run.reason, `report ${forge}`).toMatch(/^The program tampered with its checks: /)
    }
  })

  test('the last frame cut short in a child that ended by itself is tampering; in a killed child it is not', () => {
    expect(judged(STORY.length - 1).reason).toMatch(
      /^The program tampered with its checks: the reports ended inside a report/,
    )
    expect(judged(STORY.length - 1, null).reason).not.toMatch(/tampered/)
  })
})
