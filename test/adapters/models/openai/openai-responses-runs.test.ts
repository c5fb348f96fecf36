import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test, type TestContext } from 'vitest'
import type { ItemRecord } from '../../../../harness/records/item-record.ts'
import { loadHumanEval } from '../../../../suites/humaneval/dataset.ts'
import {
  earlierTurns,
  lastUserText,
  openaiResponsesHandler,
  reasoningSentBack,
  type ResponsesBody,
} from '../../../support/fake-openai-responses.ts'
import { startLoopbackServer, type LoopbackServer } from '../../../support/loopback-server.ts'
import { readJsonReport, startVitestRun } from '../../../support/run-vitest.ts'
import { skipWithoutSandbox } from '../../../support/sandbox-available.ts'
import { datasetEnv, datasetOrSkip } from '../../../support/test-datasets.ts'

/**
 * OpenAI's models as OpenAI serves them, through the README's commands against a loopback server that speaks only
 * the Responses API (any other request is a 404), with TESTBENCH_OPENAI_API unset: `auto` routes the model by name.
 * HumanEval with gpt-5.3-codex, and PE-Bench's tool mode with a reasoning model over several turns, each turn's
 * reasoning item going back (id and encrypted_content) before the call it led to; a rerun asks nothing.
 */

const FIXTURE_DATASETS = fileURLToPath(new URL('../../../../fixtures/euler/datasets', import.meta.url))

async function serve(
  context: TestContext,
  handler: Parameters<typeof startLoopbackServer>[0],
): Promise<LoopbackServer> {
  const server = await startLoopbackServer(handler)
  context.onTestFinished(() => server.close())
  return server
}

function tempDir(context: TestContext, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  context.onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** A run as a user starts it; TESTBENCH_OPENAI_API is left unset whatever the caller's environment holds. */
async function run(args: string[], env: Record<string, string>, report: string) {
  const done = await startVitestRun(
    ['--project', 'suites', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    { ...env, TESTBENCH_OPENAI_API: undefined },
  ).done
  const records = readJsonReport(report)
    .map((result) => result.meta.bench)
    .filter((record): record is ItemRecord => record !== undefined)
  return { ...done, records }
}

const posts = (server: LoopbackServer) => server.seen.filter((request) => request.method === 'POST')

describe('MODEL=openai:gpt-5.3-codex, TESTBENCH_OPENAI_API unset', () => {
  test(
    'suites/humaneval runs to the end through /v1/responses; a rerun asks nothing',
    { timeout: 180_000 },
    async (context) => {
      await skipWithoutSandbox(context, ['python'])
      const tasks = await datasetOrSkip(context, (env) => loadHumanEval('humaneval', env))
      const server = await serve(
        context,
        openaiResponsesHandler(['gpt-5.3-codex'], (body) => ({
          text: tasks.find((task) => task.chatPrompt === lastUserText(body))?.reference ?? 'I do not know this task.',
          thinking: { text: 'The docstring says what to return.', signature: 'enc-humaneval' },
        })),
      )
      const dir = tempDir(context, 'responses-humaneval-')
      const env = {
        ...datasetEnv(),
        MODEL: 'openai:gpt-5.3-codex',
        OPENAI_BASE_URL: `${server.url}/v1`,
        OPENAI_API_KEY: 'test',
        TESTBENCH_HUMANEVAL_VARIANTS: 'humaneval',
        TESTBENCH_CACHE_DIR: join(dir, 'cache'),
        TESTBENCH_REPORT_DIR: join(dir, 'reports'),
      }
      const args = ['suites/humaneval', '-t', 'HumanEval/(0|1|2) ']
      const first = await run(args, env, join(dir, 'first.json'))
      expect(first.code, first.output).toBe(0)
      expect(first.records.map((record) => [record.itemId, record.outcome])).toEqual([
        ['HumanEval/0', 'passed'],
        ['HumanEval/1', 'passed'],
        ['HumanEval/2', 'passed'],
      ])
      for (const record of first.records) {
        expect(record.modelDetails?.api, 'the API in every report').toBe('responses')
        expect(record.reasoning).toBe('The docstring says what to return.')
        expect(record.tokens).toEqual({ prompt: 11, completion: 7, reasoning: 0, cacheRead: 0 })
      }
      expect(posts(server).map((request) => request.path)).toEqual(Array(3).fill('/v1/responses'))
      for (const request of posts(server))
        expect(JSON.parse(request.body)).toMatchObject({
          model: 'gpt-5.3-codex',
          store: false,
          include: ['reasoning.encrypted_content'],
          stream: true,
        })

      const second = await run(args, env, join(dir, 'second.json'))
      expect(second.code, second.output).toBe(0)
      expect(second.records.map((record) => record.outcome)).toEqual(Array(3).fill('passed'))
      expect(posts(server), 'the rerun is answered from the reply cache').toHaveLength(3)
    },
  )
})

/** Problem 0001 (answer 45) as an agent solves it: look, write, check, deliver, one call a turn. */
const SCRIPT = [
  { name: 'list_files', arguments: '{}' },
  { name: 'write_file', arguments: JSON.stringify({ path: 'main.py', content: 'print(sum(range(10)))\n' }) },
  { name: 'syntax_check', arguments: JSON.stringify({ language: 'python', path: 'main.py' }) },
  { name: 'deliver_code', arguments: JSON.stringify({ path: 'main.py' }) },
]

describe("PE-Bench's tool mode with a reasoning model (MODEL=openai:o4-mini)", () => {
  test(
    'each turn sends back every earlier reasoning item before the call it led to, and every result by call_id',
    { timeout: 180_000 },
    async (context) => {
      await skipWithoutSandbox(context, ['python'])
      const asked: ResponsesBody[] = []
      const server = await serve(
        context,
        openaiResponsesHandler(['o4-mini'], (body) => {
          asked.push(body)
          const turn = earlierTurns(body) + 1
          const call = SCRIPT[turn - 1] ?? SCRIPT[3]!
          return {
            text: '',
            thinking: { id: `rs_${turn}`, text: `Step ${turn}.`, signature: `enc-${turn}` },
            toolCalls: [{ id: `call_${turn}`, ...call }],
          }
        }),
      )
      const dir = tempDir(context, 'responses-euler-')
      const env = {
        MODEL: 'openai:o4-mini',
        OPENAI_BASE_URL: `${server.url}/v1`,
        OPENAI_API_KEY: 'test',
        TESTBENCH_CACHE_DIR: join(dir, 'cache'),
        TESTBENCH_REPORT_DIR: join(dir, 'reports'),
        TESTBENCH_DATA_DIR: FIXTURE_DATASETS,
        TESTBENCH_EULER_SHA256: 'b3aeedb669617655a526e325a303cff999c6d8304aaa762ac47953ecb511d57f',
        TESTBENCH_EULER_MODE: 'tool',
        TESTBENCH_EULER_LANGUAGES: 'python',
        TESTBENCH_EULER_PROBLEMS: '1',
      }
      const first = await run(['suites/euler'], env, join(dir, 'first.json'))
      expect(first.code, first.output).toBe(0)
      const [record] = first.records
      expect(record?.outcome, record?.reason).toBe('passed')
      expect(record?.trajectory?.map((turn) => [turn.reasoning, turn.calls.map((call) => call.id)])).toEqual(
        SCRIPT.map((_, index) => [`Step ${index + 1}.`, [`call_${index + 1}`]]),
      )
      expect(asked).toHaveLength(SCRIPT.length)
      for (const [index, body] of asked.entries()) {
        expect(body).toMatchObject({ model: 'o4-mini', store: false, include: ['reasoning.encrypted_content'] })
        // Turn n carries the n-1 earlier turns whole: reasoning item, then its call, then the call's result.
        const earlier = Array.from({ length: index }, (_, turn) => turn + 1)
        expect(reasoningSentBack(body)).toEqual(earlier.map((turn) => [`rs_${turn}`, `enc-${turn}`]))
        const afterUser = body.input.slice(body.input.findIndex((item) => item.role === 'user') + 1)
        expect(afterUser.map((item) => [item.type, item.id ?? item.call_id])).toEqual(
          earlier.flatMap((turn) => [
            ['reasoning', `rs_${turn}`],
            ['function_call', `call_${turn}`],
            ['function_call_output', `call_${turn}`],
          ]),
        )
      }

      const second = await run(['suites/euler'], env, join(dir, 'second.json'))
      expect(second.code, second.output).toBe(0)
      expect(second.records[0]?.outcome).toBe('passed')
      expect(posts(server), 'the rerun replays the trajectory from the reply cache').toHaveLength(SCRIPT.length)
    },
  )
})
