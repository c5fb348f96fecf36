/**
 * NEEDS THE `wire` BRANCH: the OpenAI adapter maps tools and streamed tool calls there. On a branch
 * without it, every conversation ends at turn 1 (no tool call) and this test fails at its first expect.
 */
import { mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, expect, test } from 'vitest'
import { sendEvents, sendJson, startLoopbackServer, type LoopbackServer } from '../../support/loopback-server.ts'
import { killRun, readJsonReport, startVitestRun } from '../../support/run-vitest.ts'
import { skipWithoutSandbox } from '../../support/sandbox-available.ts'
import { waitFor } from '../../support/wait-for.ts'

const FIXTURE_DATASETS = fileURLToPath(new URL('../../../fixtures/euler/datasets', import.meta.url))

/** The scripted agent of problem 0001 (answer 45): look, write, check, deliver. */
const SCRIPT = [
  { name: 'list_files', arguments: '{}' },
  { name: 'write_file', arguments: JSON.stringify({ path: 'main.py', content: 'print(sum(range(10)))\n' }) },
  { name: 'syntax_check', arguments: JSON.stringify({ language: 'python', path: 'main.py' }) },
  { name: 'deliver_code', arguments: JSON.stringify({ path: 'main.py' }) },
]

let server: LoopbackServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

function cachedReplies(directory: string): number {
  try {
    return readdirSync(join(directory, 'replies'), { recursive: true }).filter((name) => String(name).endsWith('.json'))
      .length
  } catch {
    return 0
  }
}

test(
  'PE-Bench tool mode over OpenAI: a run killed mid-trajectory resumes at its turn, and a rerun sends no request',
  { timeout: 180_000 },
  async (context) => {
    await skipWithoutSandbox(context, ['python'])
    let answering = 2
    const turnsAsked: number[] = []
    server = await startLoopbackServer((request, response) => {
      if (request.path === '/v1/models')
        return sendJson(response, 200, {
          object: 'list',
          data: [{ id: 'agent', object: 'model', created: 0, owned_by: 't' }],
        })
      const body = JSON.parse(request.body) as { messages: Array<{ role: string }>; tools?: unknown[] }
      const turn = body.messages.filter((message) => message.role === 'assistant').length + 1
      turnsAsked.push(turn)
      if (answering-- <= 0) return // hangs, as a slow model would, until the run is killed
      const call = SCRIPT[turn - 1] ?? { name: 'deliver_code', arguments: '{"path":"main.py"}' }
      const base = { id: `chatcmpl-${turn}`, object: 'chat.completion.chunk', created: 0, model: 'agent' }
      sendEvents(response, [
        {
          data: {
            ...base,
            choices: [{ index: 0, delta: { role: 'assistant', content: `Turn ${turn}.` }, finish_reason: null }],
          },
        },
        {
          data: {
            ...base,
            choices: [
              {
                index: 0,
                delta: {
                  tool_calls: [
                    { index: 0, id: `call_${turn}`, type: 'function', function: { name: call.name, arguments: '' } },
                  ],
                },
                finish_reason: null,
              },
            ],
          },
        },
        {
          data: {
            ...base,
            choices: [
              {
                index: 0,
                delta: { tool_calls: [{ index: 0, function: { arguments: call.arguments } }] },
                finish_reason: 'tool_calls',
              },
            ],
          },
        },
        { data: { ...base, choices: [], usage: { prompt_tokens: 50, completion_tokens: 10, total_tokens: 60 } } },
        { data: '[DONE]' },
      ])
    })
    const dir = mkdtempSync(join(tmpdir(), 'tool-resume-'))
    const cache = join(dir, 'cache')
    const env = {
      MODEL: 'openai:agent',
      OPENAI_BASE_URL: `${server.url}/v1`,
      OPENAI_API_KEY: 'test',
      TESTBENCH_CACHE_DIR: cache,
      TESTBENCH_REPORT_DIR: join(dir, 'reports'),
      TESTBENCH_DATA_DIR: FIXTURE_DATASETS,
      TESTBENCH_EULER_SHA256: 'b3aeedb669617655a526e325a303cff999c6d8304aaa762ac47953ecb511d57f',
      TESTBENCH_EULER_MODE: 'tool',
      TESTBENCH_EULER_LANGUAGES: 'python',
      TESTBENCH_EULER_PROBLEMS: '1',
    }

    const first = startVitestRun(['--project', 'suites', 'suites/euler'], env)
    await waitFor(() => cachedReplies(cache) === 2 && turnsAsked.length === 3, 60_000)
    killRun(first)
    await first.done
    expect(turnsAsked).toEqual([1, 2, 3])

    answering = Number.POSITIVE_INFINITY
    const report = join(dir, 'second.json')
    const second = await startVitestRun(
      ['--project', 'suites', 'suites/euler', '--reporter=json', `--outputFile.json=${report}`],
      env,
    ).done
    expect(second.code, second.output).toBe(0)
    // Turns 1 and 2 came from the cache: the model is asked from turn 3, where the killed run stopped.
    expect(turnsAsked.slice(3)).toEqual([3, 4])
    const [record] = readJsonReport(report).flatMap((result) => (result.meta.bench ? [result.meta.bench] : []))
    expect(record?.outcome).toBe('passed')
    expect(record?.trajectory?.map((turn) => turn.calls[0]?.name)).toEqual(SCRIPT.map((call) => call.name))

    // Run again (not reusing the stored result): every turn from the cache, no request, the same trajectory.
    const asked = turnsAsked.length
    const third = await startVitestRun(
      ['--project', 'suites', 'suites/euler', '--reporter=json', `--outputFile.json=${report}`],
      { ...env, TESTBENCH_EULER_OVERWRITE: '1' },
    ).done
    expect(third.code, third.output).toBe(0)
    expect(turnsAsked.length).toBe(asked)
    const [again] = readJsonReport(report).flatMap((result) => (result.meta.bench ? [result.meta.bench] : []))
    expect(again?.trajectory?.map((turn) => turn.calls[0]?.result)).toEqual(
      record?.trajectory?.map((turn) => turn.calls[0]?.result),
    )
  },
)
