import { createHash } from 'node:crypto'
import { afterEach, describe, expect, test } from 'vitest'
import { scoreFarel } from '../../../suites/farel/score.ts'
import { DEFAULT_SYSTEM_PROMPT } from '../../../suites/farel/quiz.ts'
import { openaiChatHandler } from '../../support/fake-openai.ts'
import { startLoopbackServer, type LoopbackServer, type SeenRequest } from '../../support/loopback-server.ts'
import { runSuiteForRecords } from '../../support/run-vitest.ts'

function runSuite(env: Record<string, string>) {
  return runSuiteForRecords('farel', env)
}

let server: LoopbackServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

describe('the FaRel suite end to end', () => {
  test('MODEL=reference scores FaRel-3 = 100.00 on the 450 published quizzes', async () => {
    const { code, output, results, records } = await runSuite({ MODEL: 'reference' })
    expect(code, output).toBe(0)
    expect(results).toHaveLength(450)
    expect(results[0]).toMatchObject({ ancestorTitles: ['reference', 'farel'], title: 'child #1', status: 'passed' })
    expect(results.map((r) => r.title)).toContain('great grandparent #50')
    expect(records.every((record) => record.outcome === 'passed')).toBe(true)
    const [score, ...others] = scoreFarel(records)
    expect(others).toEqual([])
    expect(score).toMatchObject({
      model: 'reference',
      name: 'FaRel-3',
      value: 100,
      display: '100.00',
      counted: { solved: 450, total: 450 },
    })
    expect(Object.keys(score!.columns!).slice(0, 11)).toEqual([
      'Model',
      'FaRel-3',
      'child',
      'parent',
      'grandchild',
      'sibling',
      'grandparent',
      'great grandchild',
      'niece or nephew',
      'aunt or uncle',
      'great grandparent',
    ])
    expect(score!.columns!['niece or nephew C/I/M']).toBe('50/0/0')
  }, 120_000)

  test('a fake OpenAI-compatible server that answers at random scores near 33 (chance: 1/2, 1/3, 1/4 per length)', async () => {
    server = await startLoopbackServer(openaiChatHandler(['fake'], randomAnswer))
    const { output, records } = await runSuite({
      MODEL: 'openai:fake',
      OPENAI_BASE_URL: `${server.url}/v1`,
      OPENAI_API_KEY: 'x',
    })
    const asked = server.seen.filter((request) => request.path === '/v1/chat/completions')
    expect(asked, output).toHaveLength(450)
    for (const request of asked) {
      const body = JSON.parse(request.body) as { temperature: number; seed: number; messages: Array<{ role: string }> }
      expect(body).toMatchObject({ temperature: 0.01, seed: 42 })
      expect(body.messages.map((m) => m.role)).toEqual(['user'])
    }
    expect(records).toHaveLength(450)
    const outcomes = new Set(records.map((record) => record.outcome))
    expect([...outcomes].sort()).toEqual(['passed', 'wrong_answer'])
    const [score] = scoreFarel(records)
    expect(score!.name).toBe('FaRel-3')
    expect(score!.value).toBeGreaterThan(26)
    expect(score!.value).toBeLessThan(41)
    expect(score!.display).toMatch(/^\d\d\.\d\d$/)
  }, 180_000)

  test('with TESTBENCH_FAREL_SYSTEM=on the system prompt is sent and the score is FaRel-L-sys; a reply without a tag is missing', async () => {
    server = await startLoopbackServer(
      openaiChatHandler(['fake'], (request) =>
        solve(userText(request)) === 'child' ? 'I am not sure.' : correctAnswer(request),
      ),
    )
    const { records } = await runSuite({
      MODEL: 'openai:fake',
      OPENAI_BASE_URL: `${server.url}/v1`,
      OPENAI_API_KEY: 'x',
      TESTBENCH_FAREL_SYSTEM: 'on',
      TESTBENCH_FAREL_LENGTH: '2',
      TESTBENCH_FAREL_PER_CLASS: '2',
    })
    const asked = server.seen.filter((request) => request.path === '/v1/chat/completions')
    expect(asked).toHaveLength(10)
    const first = JSON.parse(asked[0]!.body) as { messages: Array<{ role: string; content: string }> }
    expect(first.messages[0]).toEqual({ role: 'system', content: DEFAULT_SYSTEM_PROMPT })
    const [score] = scoreFarel(records)
    // child 0 %, the other four classes 100 %.
    expect(score).toMatchObject({ name: 'FaRel-2-sys', display: '80.00' })
    expect(score!.columns).toMatchObject({ Model: 'openai:fake-sys', child: '0.00', 'child C/I/M': '0/0/2' })
  }, 120_000)
})

function userText(request: SeenRequest): string {
  const body = JSON.parse(request.body) as { messages: Array<{ role: string; content: string }> }
  return body.messages.findLast((message) => message.role === 'user')!.content
}

/** A pick among the quiz's options that depends only on the quiz, so the run is the same every time. */
function randomAnswer(request: SeenRequest): string {
  const quiz = userText(request)
  const options = quiz.match(/^\d+\. /gm)?.length ?? 1
  const hash = createHash('sha256').update(quiz).digest()
  return `Let me think. <ANSWER>${(hash.readUInt32BE(0) % options) + 1}</ANSWER>`
}

/** The class a length-1 or length-2 quiz asks for, solved from its statements. */
function solve(quiz: string): string {
  const parentOf = new Map(
    [...quiz.matchAll(/^\* (\w+) is (\w+)'s? parent\.$/gm)].map(([, parent, child]) => [child!, parent!]),
  )
  const [, person = '', about = ''] = /^What is (\w+)'s? relationship to (\w+)\?$/m.exec(quiz) ?? []
  const grand = (who: string) => parentOf.get(parentOf.get(who) ?? '')
  if (parentOf.get(person) === about) return 'child'
  if (parentOf.get(about) === person) return 'parent'
  if (grand(person) === about) return 'grandchild'
  if (grand(about) === person) return 'grandparent'
  return 'sibling'
}

/** What a perfect model answers. */
function correctAnswer(request: SeenRequest): string {
  const quiz = userText(request)
  const number = new RegExp(`^(\\d+)\\. \\w+ is \\w+'s? ${solve(quiz)}\\.$`, 'm').exec(quiz)?.[1]
  return `<ANSWER>${number}</ANSWER>`
}
