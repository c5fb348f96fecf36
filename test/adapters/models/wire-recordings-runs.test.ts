import { readFileSync, rmSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test, type TestContext } from 'vitest'
import type { ChatReply, JsonValue } from '../../../adapters/models/model-adapter.ts'
import type { ItemRecord } from '../../../harness/records/item-record.ts'
import { limitConcurrency } from '../../../adapters/models/requests/limit-concurrency.ts'
import { startReplayServer, type ReplayedItem } from '../../support/recording-replay-server.ts'
import { skipForMissing } from '../../support/required-tool.ts'
import { runSuiteForRecords } from '../../support/run-vitest.ts'
import { skipWithoutSandbox } from '../../support/sandbox-available.ts'
import { digestOf, expectSentBack } from '../../support/wire-recording-checks.ts'
import { EXPECTED_REPLIES, type ExpectedReply } from '../../support/wire-recording-expectations.ts'
import { wireCases, WIRE_RECORDINGS_MISSING, type WireCase } from '../../support/wire-recordings.ts'

/**
 * The recordings of ../shared/wire-recordings through the README's commands, as a user runs them: `suites/demo`
 * for the text replies and PE-Bench's tool mode for the tool calls, `MODEL=<provider>:recorded` against a
 * provider on 127.0.0.1 that answers the adapters' model checks and each item's requests with its recording
 * (the follow-up one for a later turn). Each item's record must hold the reply, reasoning, calls, tokens and
 * finish reason the provider's docs make of its recording, and be scored on them, never `provider_error`;
 * a tool call's next request must carry it back as the provider documents.
 */
const loaded = wireCases()
const MODEL = 'recorded'
const SUMS = [
  [2, 3],
  [17, 25],
  [123, 877],
  [-40, 2],
  [99_999, 1],
] as const
const EULER = fileURLToPath(new URL('../../../fixtures/euler/datasets', import.meta.url))
/** The fixture's problems that can be asked (its problem 6 lacks its attachment on purpose). */
const PROBLEMS = ['0001', '0002', '0003', '0004', '0005']
const LANGUAGES = [
  ['python', 'Python'],
  ['javascript', 'JavaScript'],
] as const
/** Spawned runs at once: each is a Vitest of its own on a machine that may have two cores. */
const runSlots = limitConcurrency(3)

if (loaded === undefined) {
  test('the recorded provider responses run through the suites', (context) => {
    skipForMissing(context, WIRE_RECORDINGS_MISSING, 'a missing folder of recordings')
  })
} else {
  const readable = loaded.cases.filter((each) => each.expect === undefined)
  const followupOf = (wireCase: WireCase) =>
    loaded.cases.find((each) => each.name === loaded.followups[wireCase.protocol])
  describe.concurrent('suites/demo, each provider', () => {
    test.for(runsOf(readable, 'demo', SUMS.length))('%s', { timeout: 180_000 }, async ([, cases], context) => {
      const items = SUMS.map(([a, b], index): ReplayedItem & { id: string } => ({
        id: `sum-${a}+${b}`,
        needles: [`What is ${a} + ${b}?`],
        wireCase: cases[index % cases.length] as WireCase,
      }))
      const { records, server } = await runThrough(context, 'demo', items, {})
      for (const [index, item] of items.entries()) {
        const record = records.get(item.id)
        const expected = EXPECTED_REPLIES[item.wireCase.name]
        const about = `${item.wireCase.name} as ${item.id}`
        expect(record?.outcome, `${about}: ${record?.reason}`).not.toBe('provider_error')
        const answer = /<ANSWER>\s*(-?\d+)\s*<\/ANSWER>/.exec(record?.reply ?? '')
        expect(record?.outcome, about).toBe(
          answer === null ? 'no_answer' : expect.stringMatching(/passed|wrong_answer/),
        )
        if (expected === undefined) expect(record?.reply !== '' || record.finishReason !== undefined, about).toBe(true)
        else expectTurn(about, item.wireCase, turnOf(record), expected)
        expect(server.generations.get(index), `${about}: one request`).toHaveLength(1)
      }
    })
  })

  describe.concurrent("PE-Bench's tool mode, each provider", () => {
    const perRun = PROBLEMS.length * LANGUAGES.length
    test.for(runsOf(readable, 'tool', perRun))('%s', { timeout: 240_000 }, async ([, cases], context) => {
      await skipWithoutSandbox(context, ['python', 'javascript'])
      const followup = followupOf(cases[0] as WireCase)
      const items = LANGUAGES.flatMap(([language, name]) =>
        PROBLEMS.map((problem) => ({
          id: `${language} ${problem}`,
          needles: [`You are a ${name} programmer`, problem],
        })),
      ).map((item, index): ReplayedItem & { id: string } => ({
        id: item.id,
        needles: [item.needles[0] as string, firstLine(item.needles[1] as string)],
        wireCase: cases[index % cases.length] as WireCase,
      }))
      const { records, server } = await runThrough(
        context,
        'euler',
        items,
        {
          TESTBENCH_DATA_DIR: EULER,
          TESTBENCH_EULER_SHA256: 'b3aeedb669617655a526e325a303cff999c6d8304aaa762ac47953ecb511d57f',
          TESTBENCH_EULER_MODE: 'tool',
          TESTBENCH_EULER_LANGUAGES: LANGUAGES.map(([language]) => language).join(','),
          TESTBENCH_EULER_PROBLEMS: `1-${PROBLEMS.length}`,
        },
        followup,
      )
      for (const [index, item] of items.entries()) {
        const record = records.get(item.id)
        const about = `${item.wireCase.name} as ${item.id}`
        const [first, second] = record?.trajectory ?? []
        expect(record?.outcome, `${about}: ${record?.reason}`).toBe('no_answer')
        expect(record?.conversationEnd?.kind, `${about}: the recorded call runs, the follow-up ends it`).toBe(
          'no_tool_call',
        )
        expect(record?.trajectory, about).toHaveLength(2)
        const expected = EXPECTED_REPLIES[item.wireCase.name]
        if (expected !== undefined) expectTurn(about, item.wireCase, first, expected)
        // A recorded call names a tool PE-Bench has (codex's `calculator`) or not: either way it was run and answered.
        const called = first?.calls[0]
        expect(called?.result, `${about}: the call was run`).toMatch(
          new RegExp(`Unsupported tool|"tool": "${called?.name ?? ''}"`),
        )
        const followed = followup && EXPECTED_REPLIES[followup.name]
        if (followup && followed) expectTurn(`${about}, its follow-up`, followup, second, followed)

        const sent = server.generations.get(index)?.[1]
        expect(sent, `${about}: a second request`).toBeDefined()
        const call = first?.calls[0]
        const reply: ChatReply = {
          text: first?.text ?? '',
          ...(first?.reasoning === undefined ? {} : { reasoning: first.reasoning }),
          toolCalls: call === undefined ? [] : [{ id: call.id, name: call.name, arguments: call.arguments }],
          latencyMs: 0,
        }
        const firstCall = expected?.calls?.slice(0, 1)
        expectSentBack(item.wireCase, reply, sent ?? {}, expected && firstCall && { ...expected, calls: firstCall })
      }
    })
  })
}

/**
 * The cases of a suite, grouped by the provider a MODEL names (and, for `openai:`, the API it is asked through) and
 * cut into runs of at most `perRun`.
 */
function runsOf(cases: readonly WireCase[], suite: 'demo' | 'tool', perRun: number): Array<[string, WireCase[]]> {
  const byProvider = new Map<string, WireCase[]>()
  for (const each of cases.filter((wireCase) => wireCase.suite === suite)) {
    const key = `${each.provider}:${MODEL}${each.protocol === 'openai-responses' ? ' (Responses API)' : ''}`
    byProvider.set(key, [...(byProvider.get(key) ?? []), each])
  }
  return [...byProvider.entries()].flatMap(([model, ofProvider]) => {
    const runs = Math.ceil(ofProvider.length / perRun)
    return Array.from({ length: runs }, (_, run): [string, WireCase[]] => {
      const part = ofProvider.filter((__, index) => index % runs === run)
      return [`${model} (${part.map((each) => each.name).join(', ')})`, part]
    })
  })
}

async function runThrough(
  context: TestContext,
  suite: string,
  items: ReadonlyArray<ReplayedItem & { id: string }>,
  env: Record<string, string>,
  followup?: WireCase,
) {
  const provider = items[0]?.wireCase.provider ?? 'openai'
  const server = await startReplayServer({
    model: MODEL,
    items,
    ...(followup === undefined ? {} : { followup }),
    seed: `${suite}/${provider}/${items.map((item) => item.wireCase.name).join()}`,
  })
  context.onTestFinished(() => server.close())
  const run = await runSlots(() =>
    runSuiteForRecords(suite, {
      ...env,
      MODEL: `${provider}:${MODEL}`,
      TESTBENCH_RETRIES: '0',
      OPENAI_BASE_URL: `${server.url}/v1`,
      OPENAI_API_KEY: 'k',
      OPENROUTER_BASE_URL: `${server.url}/v1`,
      OPENROUTER_API_KEY: 'k',
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: 'k',
      GOOGLE_GEMINI_BASE_URL: server.url,
      GEMINI_API_KEY: 'k',
      OLLAMA_HOST: server.url,
      ...(items[0]?.wireCase.protocol === 'openai-responses' ? { TESTBENCH_OPENAI_API: 'responses' } : {}),
    }),
  )
  context.onTestFinished(() => rmSync(dirname(run.reports), { recursive: true, force: true }))
  expect(
    server.unanswered.map((request) => `${request.method} ${request.path}`),
    'requests nothing answers',
  ).toEqual([])
  expect(run.records.length, run.output).toBe(items.length)
  const records = new Map(run.records.map((record) => [recordKey(record), record]))
  return { records, server, output: run.output }
}

function recordKey(record: ItemRecord): string {
  return record.variant === undefined ? record.itemId : `${record.variant} ${record.itemId}`
}

function firstLine(problem: string): string {
  return readFileSync(`${EULER}/euler/problems/${problem}.txt`, 'utf8').split('\n')[0] ?? ''
}

/** A demo item's one reply, as a turn. */
function turnOf(record: ItemRecord | undefined) {
  return (
    record && {
      text: record.reply ?? '',
      reasoning: record.reasoning,
      tokens: record.tokens,
      finishReason: record.finishReason,
      calls: [],
    }
  )
}

function expectTurn(
  about: string,
  wireCase: WireCase,
  turn:
    | {
        text: string
        reasoning?: string | undefined
        tokens?: ItemRecord['tokens']
        finishReason?: string | undefined
        calls: ReadonlyArray<{ id: string; name: string; arguments: string }>
      }
    | undefined,
  expected: ExpectedReply,
): void {
  expect(digestOf(turn?.text), `${about}: text`).toEqual(expected.text)
  expect(digestOf(turn?.reasoning), `${about}: reasoning`).toEqual(expected.reasoning ?? digestOf(''))
  expect(turn?.tokens, `${about}: tokens`).toEqual(expected.tokens)
  expect(turn?.finishReason, `${about}: finish reason`).toBe(expected.finish)
  const idsMadeUp = wireCase.protocol === 'gemini' || wireCase.protocol === 'ollama'
  expect(
    (turn?.calls ?? []).map((call) => ({
      ...(idsMadeUp ? {} : { id: call.id }),
      name: call.name,
      arguments: JSON.parse(call.arguments) as JsonValue,
    })),
    `${about}: calls`,
  ).toEqual((expected.calls ?? []).map(({ signature: _, ...call }) => call))
}
