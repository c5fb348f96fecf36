import { describe, expect, onTestFinished, test, vi } from 'vitest'
import { createAdapter } from '../../../../adapters/models/create-adapter.ts'
import { KnobValueError } from '../../../../adapters/knob.ts'
import { modelKnobs, OPENAI_API } from '../../../../adapters/models/knobs.ts'
import { knobGroupProblems } from '../../../../reporters/all-knobs.ts'
import { ProviderError, type ChatRequest } from '../../../../adapters/models/model-adapter.ts'
import { parseModel } from '../../../../adapters/models/model-spec.ts'
import { openaiApiFor } from '../../../../adapters/models/openai/openai-api-choice.ts'
import { ReplyCache } from '../../../../adapters/models/reply-cache.ts'
import { chatRequest } from '../../../support/chat-request.ts'
import { startFaultyModelServer } from '../../../support/fault-injecting-server.ts'
import {
  sendJson,
  startLoopbackServer,
  type LoopbackServer,
  type SeenRequest,
} from '../../../support/loopback-server.ts'

/**
 * The Responses API path of `openai:` (POST /v1/responses), through the real SDK against servers on 127.0.0.1: which
 * models TESTBENCH_OPENAI_API=auto sends there, what a request carries, and how the stream's failures are told
 * apart, as OpenAI's API reference documents them.
 */

describe('TESTBENCH_OPENAI_API', () => {
  // OpenAI serves codex and -pro only through the Responses API; its reasoning models carry reasoning across turns only there.
  const RESPONSES = [
    'gpt-5-codex',
    'gpt-5.1-codex',
    'gpt-5.1-codex-max',
    'gpt-5.3-codex',
    'codex-mini-latest',
    'o1-pro',
    'o3-pro',
    'gpt-5-pro',
    'gpt-5.2-pro',
    'gpt-5.4-pro',
    'gpt-5.4-pro-2026-03-05',
    'o1',
    'o3',
    'o3-mini',
    'o4-mini-2025-04-16',
    'gpt-5',
    'gpt-5-nano',
    'gpt-5.1',
    'gpt-5.5-2026-04-23',
    'openai/gpt-5.3-codex',
  ]
  const CHAT = [
    'gpt-4o',
    'gpt-4o-mini',
    'gpt-4.1',
    'gpt-3.5-turbo',
    'qwen2.5',
    'qwen2.5:7b',
    'gpt-oss',
    'gpt-oss:20b',
    'gpt-oss-120b',
    'deepseek-r1',
    'llama3.1',
    'mistral-large-latest',
    'o',
    'proto-pro',
  ]

  test.each(RESPONSES)('auto asks %s through the Responses API, whatever the base URL', (model) => {
    expect(openaiApiFor(model, {})).toBe('responses')
    expect(openaiApiFor(model, { TESTBENCH_OPENAI_API: 'auto', OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' })).toBe(
      'responses',
    )
  })

  test.each(CHAT)('auto asks %s through Chat Completions', (model) => {
    expect(openaiApiFor(model, {})).toBe('chat')
  })

  test('responses and chat force either for any name; another value is refused up front, naming what is accepted', () => {
    expect(openaiApiFor('qwen2.5', { TESTBENCH_OPENAI_API: 'responses' })).toBe('responses')
    expect(openaiApiFor('gpt-5.3-codex', { TESTBENCH_OPENAI_API: 'CHAT' })).toBe('chat')
    expect(() => openaiApiFor('gpt-4o', { TESTBENCH_OPENAI_API: 'completions' })).toThrow(KnobValueError)
    expect(() => OPENAI_API.read({ TESTBENCH_OPENAI_API: 'completions' })).toThrow(
      'TESTBENCH_OPENAI_API=completions is not accepted: use auto, responses or chat, or unset it for auto.',
    )
    expect(modelKnobs.knobs).toContain(OPENAI_API)
    // Read with every other knob before any item runs.
    expect(knobGroupProblems({ TESTBENCH_OPENAI_API: 'completions' })).toEqual([
      'TESTBENCH_OPENAI_API=completions is not accepted: use auto, responses or chat, or unset it for auto.',
    ])
  })

  test('the API goes into the cache key, and a chat reply keeps the key it had before the knob existed', () => {
    const cache = new ReplyCache('/nonexistent', 'on')
    const request = chatRequest('Hi.')
    const model = { provider: 'openai', model: 'gpt-5' }
    const before = cache.fileFor({ ...model, details: { vision: 'no' } }, request)
    expect(cache.fileFor({ ...model, details: { vision: 'no', api: 'chat' } }, request)).toBe(before)
    expect(cache.fileFor({ ...model, details: { vision: 'no', api: 'responses' } }, request)).not.toBe(before)
  })
})

/** A Responses server for `model`: its model list and a plain streamed reply, closed when the test ends. */
async function responsesServer(model: string) {
  const server = await startFaultyModelServer({
    protocol: 'openai-responses',
    model,
    answer: (prompt) => `You said ${prompt}`,
  })
  onTestFinished(() => server.close())
  return server
}

function env(url: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    OPENAI_BASE_URL: `${url}/v1`,
    OPENAI_API_KEY: 'k',
    TESTBENCH_RETRIES: '2',
    TESTBENCH_RETRY_DELAY: '0.01',
    ...extra,
  }
}

const bodies = (seen: SeenRequest[]) =>
  seen.filter((each) => each.method === 'POST').map((each) => JSON.parse(each.body) as Record<string, unknown>)

describe('a request through the Responses API', () => {
  test('gpt-5.3-codex with TESTBENCH_OPENAI_API unset: /v1/responses, stateless, and the API in its details', async () => {
    const server = await responsesServer('gpt-5.3-codex')
    const adapter = await createAdapter(parseModel('openai:gpt-5.3-codex'), env(server.url))
    await expect(adapter.preflight()).resolves.toEqual({ vision: 'no', api: 'responses' })
    const request: ChatRequest = {
      messages: [
        { role: 'system', content: 'Answer briefly.' },
        { role: 'user', content: 'Hi.' },
      ],
      params: { temperature: 0, maxTokens: 300, seed: 1, think: 'high' },
      item: { suite: 'test', itemId: 'codex-1', sample: 0 },
    }
    const reply = await adapter.chat(request)
    expect(reply).toMatchObject({ text: 'You said Hi.', finishReason: 'completed' })
    expect(reply.tokens).toEqual({ prompt: 11, completion: 7, reasoning: 0, cacheRead: 0 })
    expect(server.seen.filter((each) => each.method === 'POST').map((each) => each.path)).toEqual(['/v1/responses'])
    // OpenAI's reference: the system prompt as instructions, the limit as max_output_tokens, the effort with a summary;
    // a reasoning model refuses temperature, and the API has no seed.
    expect(bodies(server.seen)[0]).toEqual({
      model: 'gpt-5.3-codex',
      instructions: 'Answer briefly.',
      input: [{ role: 'user', content: 'Hi.' }],
      store: false,
      include: ['reasoning.encrypted_content'],
      max_output_tokens: 300,
      reasoning: { effort: 'high', summary: 'auto' },
      stream: true,
    })
  })

  test('a model that does not reason keeps its temperature and is not asked for encrypted reasoning; images as input_image', async () => {
    const server = await responsesServer('gpt-4o')
    const adapter = await createAdapter(
      parseModel('openai:gpt-4o'),
      env(server.url, { TESTBENCH_OPENAI_API: 'responses', TESTBENCH_VISION: '1' }),
    )
    const image = { mediaType: 'image/png' as const, base64: 'iVBORw0KGgo=' }
    await adapter.chat(
      chatRequest('What is this?', { messages: [{ role: 'user', content: 'What is this?', images: [image] }] }),
    )
    const [body] = bodies(server.seen)
    expect(body).not.toHaveProperty('include')
    expect(body).toMatchObject({
      temperature: 0,
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'What is this?' },
            { type: 'input_image', detail: 'auto', image_url: 'data:image/png;base64,iVBORw0KGgo=' },
          ],
        },
      ],
    })
  })
})

describe('TESTBENCH_THINK through the Responses API', () => {
  test('off by the documented families as reasoning.effort, with a summary asked for; the caveat said once', async () => {
    const models = ['gpt-5.1', 'gpt-5-mini', 'o3', 'gpt-4o']
    const server = await startLoopbackServer((request, response) => {
      if (request.method === 'GET')
        return sendJson(response, 200, { object: 'list', data: models.map((id) => ({ id, object: 'model' })) })
      return streamOf([created, textEvent('ok'), completed])(response)
    })
    onTestFinished(() => server.close())
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    onTestFinished(() => warned.mockRestore())
    const offFor = async (model: string) => {
      warned.mockClear()
      const adapter = await createAdapter(
        parseModel(`openai:${model}`),
        env(server.url, { TESTBENCH_THINK: 'off', TESTBENCH_OPENAI_API: 'responses' }),
      )
      await adapter.preflight()
      await adapter.chat(chatRequest('Hi.', { params: { think: 'off' } }))
      return {
        reasoning: bodies(server.seen).at(-1)?.reasoning,
        warned: warned.mock.calls.map((call) => String(call[0])),
      }
    }
    expect(await offFor('gpt-5.1')).toEqual({ reasoning: { effort: 'none' }, warned: [] })
    expect(await offFor('gpt-5-mini')).toEqual({
      reasoning: { effort: 'minimal', summary: 'auto' },
      warned: ['testbench: gpt-5-mini cannot switch reasoning off: it is asked for its least (minimal).'],
    })
    expect(await offFor('o3')).toEqual({
      reasoning: { effort: 'low', summary: 'auto' },
      warned: ['testbench: o3 cannot switch reasoning off: it is asked for its least (low).'],
    })
    expect(await offFor('gpt-4o')).toEqual({ reasoning: undefined, warned: [] })
  })
})

/** A server that answers each /v1/responses request with the next of `answers` (the last one again after that). */
async function scriptedServer(answers: ReadonlyArray<(response: Parameters<typeof sendJson>[0]) => void>) {
  let asked = 0
  const server = await startLoopbackServer((request, response) => {
    if (request.path !== '/v1/responses') return sendJson(response, 404, { error: { message: 'no route' } })
    const answer = answers[Math.min(asked++, answers.length - 1)]
    answer?.(response)
  })
  onTestFinished(() => server.close())
  return server
}

const streamOf =
  (events: ReadonlyArray<Record<string, unknown>>) =>
  (response: Parameters<typeof sendJson>[0]): void => {
    response.writeHead(200, { 'content-type': 'text/event-stream' })
    response.end(events.map((event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`).join(''))
  }

const created = { type: 'response.created', response: { id: 'resp_1', object: 'response', status: 'in_progress' } }
const textEvent = (delta: string) => ({ type: 'response.output_text.delta', item_id: 'msg_1', content_index: 0, delta })
const completed = {
  type: 'response.completed',
  response: {
    id: 'resp_1',
    object: 'response',
    status: 'completed',
    output: [],
    usage: { input_tokens: 3, output_tokens: 2 },
  },
}
const failed = (code: string, message: string) => ({
  type: 'response.failed',
  response: { id: 'resp_1', object: 'response', status: 'failed', error: { code, message }, output: [] },
})

async function adapterAt(server: LoopbackServer) {
  return createAdapter(parseModel('openai:gpt-5-nano'), env(server.url))
}

const asked = (server: LoopbackServer) => server.seen.filter((each) => each.path === '/v1/responses').length

describe('how a Responses stream ends', () => {
  test('insufficient_quota (an error event, then response.failed) is the provider error, asked once', async () => {
    const server = await scriptedServer([
      streamOf([
        created,
        { type: 'error', code: 'insufficient_quota', message: 'You exceeded your current quota.', param: null },
        failed('insufficient_quota', 'You exceeded your current quota.'),
      ]),
    ])
    const failure = (await adapterAt(server)).chat(chatRequest('Hi.'))
    await expect(failure).rejects.toThrow(ProviderError)
    await expect(failure).rejects.toThrow(/insufficient_quota.*exceeded your current quota/)
    expect(asked(server)).toBe(1)
  })

  test('a server_error in response.failed is retried, and the next whole response is the reply', async () => {
    const server = await scriptedServer([
      streamOf([created, textEvent('half'), failed('server_error', 'The server had an error.')]),
      streamOf([created, textEvent('whole'), completed]),
    ])
    const reply = await (await adapterAt(server)).chat(chatRequest('Hi.'))
    expect(reply).toMatchObject({ text: 'whole', finishReason: 'completed', tokens: { prompt: 3, completion: 2 } })
    expect(asked(server)).toBe(2)
  })

  test('a stream without response.completed, .incomplete or .failed is broken and asked again', async () => {
    const server = await scriptedServer([
      streamOf([created, textEvent('cut')]),
      streamOf([created, textEvent('whole'), completed]),
    ])
    const reply = await (await adapterAt(server)).chat(chatRequest('Hi.'))
    expect(reply.text).toBe('whole')
    expect(asked(server)).toBe(2)
  })

  test('response.incomplete at max_output_tokens is a reply cut at its limit, kept and not asked again', async () => {
    const incomplete = {
      type: 'response.incomplete',
      response: {
        id: 'resp_1',
        object: 'response',
        status: 'incomplete',
        incomplete_details: { reason: 'max_output_tokens' },
        output: [],
        usage: { input_tokens: 3, output_tokens: 16, output_tokens_details: { reasoning_tokens: 16 } },
      },
    }
    const server = await scriptedServer([streamOf([created, incomplete])])
    const reply = await (await adapterAt(server)).chat(chatRequest('Hi.'))
    expect(reply).toMatchObject({ text: '', finishReason: 'max_output_tokens' })
    expect(reply.tokens).toEqual({ prompt: 3, completion: 16, reasoning: 16 })
    expect(asked(server)).toBe(1)
  })

  test("codex's two messages (commentary, then final answer) are the reply's text, and go back with their phase", async () => {
    const message = (id: string, phase: string, text: string) => ({
      type: 'response.output_item.done',
      output_index: id === 'msg_1' ? 0 : 1,
      item: { id, type: 'message', role: 'assistant', phase, content: [{ type: 'output_text', text }] },
    })
    const server = await scriptedServer([
      streamOf([
        created,
        textEvent('Looking.'),
        message('msg_1', 'commentary', 'Looking.'),
        { type: 'response.output_text.delta', item_id: 'msg_2', content_index: 0, delta: 'Done.' },
        message('msg_2', 'final_answer', 'Done.'),
        completed,
      ]),
    ])
    const adapter = await adapterAt(server)
    const reply = await adapter.chat(chatRequest('Hi.'))
    expect(reply.text).toBe('Looking.\n\nDone.')
    await adapter.chat(
      chatRequest('Hi.', {
        messages: [
          { role: 'user', content: 'Hi.' },
          { role: 'assistant', content: reply.text, ...(reply.sendBack ? { sendBack: reply.sendBack } : {}) },
          { role: 'user', content: 'Go on.' },
        ],
      }),
    )
    expect(bodies(server.seen).at(-1)?.input).toEqual([
      { role: 'user', content: 'Hi.' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Looking.' }], phase: 'commentary' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }], phase: 'final_answer' },
      { role: 'user', content: 'Go on.' },
    ])
  })

  test('items sent whole (no deltas) are read from output_item.done, and never twice where deltas came', async () => {
    const whole = {
      type: 'response.output_item.done',
      output_index: 0,
      item: { id: 'msg_9', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Whole.' }] },
    }
    const server = await scriptedServer([
      streamOf([created, whole, completed]),
      // Deltas without an item_id (a server that leaves it out), then the same item finished.
      streamOf([created, { type: 'response.output_text.delta', output_index: 0, delta: 'Whole.' }, whole, completed]),
    ])
    const adapter = await adapterAt(server)
    expect((await adapter.chat(chatRequest('One.'))).text).toBe('Whole.')
    expect((await adapter.chat(chatRequest('Two.'))).text).toBe('Whole.')
  })

  test("a refusal is what the model said: the reply's text", async () => {
    const server = await scriptedServer([
      streamOf([
        created,
        { type: 'response.refusal.delta', item_id: 'msg_1', content_index: 0, delta: 'I can not.' },
        completed,
      ]),
    ])
    expect((await (await adapterAt(server)).chat(chatRequest('Hi.'))).text).toBe('I can not.')
  })

  test('before the stream: 429 with its Retry-After waits and asks again; 404 for an unknown model is not retried', async () => {
    const limited = await scriptedServer([
      (response) =>
        sendJson(response, 429, { error: { message: 'Rate limit reached', type: 'requests' } }, { 'retry-after': '0' }),
      streamOf([created, textEvent('after the wait'), completed]),
    ])
    expect((await (await adapterAt(limited)).chat(chatRequest('Hi.'))).text).toBe('after the wait')
    expect(asked(limited)).toBe(2)
    const unknown = await scriptedServer([
      (response) =>
        sendJson(response, 404, {
          error: {
            message: 'The model `gpt-5-nano` does not exist.',
            type: 'invalid_request_error',
            code: 'model_not_found',
          },
        }),
    ])
    await expect((await adapterAt(unknown)).chat(chatRequest('Hi.'))).rejects.toThrow(/HTTP 404.*does not exist/)
    expect(asked(unknown)).toBe(1)
  })
})
