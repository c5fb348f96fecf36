import { describe, expect, onTestFinished, test, vi } from 'vitest'
import { createAdapter } from '../../../adapters/models/create-adapter.ts'
import { thinkSetting } from '../../../adapters/models/knobs.ts'
import { parseModel } from '../../../adapters/models/model-spec.ts'
import type { ChatRequest, ModelAdapter, ThinkSetting } from '../../../adapters/models/model-adapter.ts'
import { OpenAIAdapter, openaiEndpoint } from '../../../adapters/models/openai/openai.ts'
import { openrouterAdapter } from '../../../adapters/models/openrouter/openrouter.ts'
import type { WireProtocol } from '../../../adapters/models/requests/wire-check.ts'
import { clientEnv } from '../../support/fault-injecting-server.ts'
import { sendEvents, sendJson, startLoopbackServer, type LoopbackServer } from '../../support/loopback-server.ts'
import { startScriptedModelServer, type ScriptedOptions } from '../../support/scripted-model-server.ts'

const PNG = {
  mediaType: 'image/png' as const,
  base64: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
}
const WITH_IMAGE: ChatRequest = {
  messages: [{ role: 'user', content: 'What is in the picture (see image)?', images: [PNG] }],
  params: { temperature: 0 },
  item: { suite: 'test', itemId: 'img-1', sample: 0 },
}
const asking = (think: ThinkSetting, temperature = 0): ChatRequest => ({
  ...WITH_IMAGE,
  messages: [{ role: 'user', content: 'Think?' }],
  params: { temperature, think },
})

async function serve(protocol: WireProtocol, options: ScriptedOptions = {}): Promise<LoopbackServer> {
  const server = await startScriptedModelServer(protocol, [{ text: 'ok' }], options)
  onTestFinished(() => server.close())
  return server
}

async function adapterFor(
  protocol: WireProtocol,
  url: string,
  model = 'fake',
  env: Record<string, string> = {},
): Promise<ModelAdapter> {
  const { MODEL: _model, ...rest } = clientEnv(protocol, url, model)
  const prefix = {
    openai: 'openai',
    'openai-responses': 'openai',
    ollama: 'ollama',
    anthropic: 'anthropic',
    gemini: 'google',
  }[protocol]
  return createAdapter(parseModel(`${prefix}:${model}`), { ...rest, TESTBENCH_RETRIES: '0', ...env })
}

/** The body of the last generation request the server saw. */
function lastBody(server: LoopbackServer): Record<string, unknown> {
  const sent = server.seen.filter((each) => each.method === 'POST' && each.path !== '/api/show').at(-1)
  return JSON.parse(sent?.body ?? '{}') as Record<string, unknown>
}

describe('TESTBENCH_THINK', () => {
  test('is read and checked: on, off and the efforts; unset is the model default; anything else names the knob', () => {
    expect(thinkSetting({})).toBeUndefined()
    expect(thinkSetting({ TESTBENCH_THINK: 'OFF' })).toBe('off')
    expect(thinkSetting({ TESTBENCH_THINK: 'high' })).toBe('high')
    expect(() => thinkSetting({ TESTBENCH_THINK: 'maybe' })).toThrow(
      /TESTBENCH_THINK=maybe is not accepted: use on, off, low, medium or high, or unset it for the model's default\./,
    )
  })

  test('OpenAI-compatible servers get chat_template_kwargs.enable_thinking (and an effort as reasoning_effort)', async () => {
    const server = await serve('openai')
    const adapter = await adapterFor('openai', server.url)
    await adapter.chat(asking('off'))
    expect(lastBody(server)).toMatchObject({ chat_template_kwargs: { enable_thinking: false } })
    expect(lastBody(server)).not.toHaveProperty('reasoning_effort')
    await adapter.chat(asking('high'))
    expect(lastBody(server)).toMatchObject({
      chat_template_kwargs: { enable_thinking: true },
      reasoning_effort: 'high',
    })
  })

  test('the official OpenAI API gets reasoning_effort; OpenRouter its reasoning object', async () => {
    const server = await serve('openai')
    // Chat Completions' fields (the Responses API's are in openai-responses.test.ts).
    const env = {
      OPENAI_BASE_URL: `${server.url}/v1`,
      OPENAI_API_KEY: 'k',
      TESTBENCH_RETRIES: '0',
      TESTBENCH_OPENAI_API: 'chat',
    }
    const official = new OpenAIAdapter('fake', { ...openaiEndpoint(env), thinkStyle: 'reasoning_effort' }, env)
    await official.chat(asking('low'))
    expect(lastBody(server)).toMatchObject({ reasoning_effort: 'low' })
    expect(lastBody(server)).not.toHaveProperty('chat_template_kwargs')
    // `off` by the documented families: `none` from gpt-5.1 on, gpt-5's least is `minimal`, the o-series' `low`,
    // and a model that does not reason refuses the field.
    const offFor = async (model: string): Promise<unknown> => {
      await new OpenAIAdapter(model, { ...openaiEndpoint(env), thinkStyle: 'reasoning_effort' }, env).chat(
        asking('off'),
      )
      return lastBody(server).reasoning_effort
    }
    expect(await offFor('gpt-5.1')).toBe('none')
    expect(await offFor('gpt-5.2-codex')).toBe('none')
    expect(await offFor('gpt-5-mini')).toBe('minimal')
    expect(await offFor('o3')).toBe('low')
    expect(await offFor('gpt-4o')).toBeUndefined()
    const router = openrouterAdapter('fake', {
      OPENROUTER_BASE_URL: `${server.url}/v1`,
      OPENROUTER_API_KEY: 'k',
      TESTBENCH_RETRIES: '0',
    })
    await router.chat(asking('off'))
    expect(lastBody(server)).toMatchObject({ reasoning: { enabled: false } })
    await router.chat(asking('medium'))
    expect(lastBody(server)).toMatchObject({ reasoning: { effort: 'medium' } })
  })

  test("the official API's models that cannot switch reasoning off say so once, in the up-front check", async () => {
    const models = ['gpt-5-mini', 'o3', 'gpt-5.1', 'gpt-4o']
    const server = await startLoopbackServer((request, response) =>
      request.method === 'GET'
        ? sendJson(response, 200, { object: 'list', data: models.map((id) => ({ id, object: 'model' })) })
        : sendEvents(response, [
            {
              data: {
                id: 'c',
                object: 'chat.completion.chunk',
                created: 0,
                model: 'm',
                choices: [{ index: 0, delta: { content: 'ok' }, finish_reason: 'stop' }],
              },
            },
            { data: '[DONE]' },
          ]),
    )
    onTestFinished(() => server.close())
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    onTestFinished(() => warned.mockRestore())
    const env = {
      OPENAI_BASE_URL: `${server.url}/v1`,
      OPENAI_API_KEY: 'k',
      TESTBENCH_RETRIES: '0',
      TESTBENCH_THINK: 'off',
      TESTBENCH_OPENAI_API: 'chat',
    }
    const checked = async (model: string): Promise<string[]> => {
      warned.mockClear()
      const adapter = new OpenAIAdapter(model, { ...openaiEndpoint(env), thinkStyle: 'reasoning_effort' }, env)
      await adapter.preflight()
      await adapter.chat(asking('off'))
      await adapter.chat(asking('off'))
      return warned.mock.calls.map((call) => String(call[0]))
    }
    expect(await checked('gpt-5-mini')).toEqual([
      'testbench: gpt-5-mini cannot switch reasoning off: it is asked for its least (minimal).',
    ])
    expect(await checked('o3')).toEqual(['testbench: o3 cannot switch reasoning off: it is asked for its least (low).'])
    expect(await checked('gpt-5.1')).toEqual([])
    expect(await checked('gpt-4o')).toEqual([])
  })

  test('Anthropic gets a thinking budget on top of the answer tokens, without temperature; off is disabled', async () => {
    const server = await serve('anthropic')
    const adapter = await adapterFor('anthropic', server.url)
    await adapter.chat({ ...asking('high', 0.2), params: { temperature: 0.2, maxTokens: 1000, think: 'high' } })
    expect(lastBody(server)).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 24576 }, max_tokens: 25576 })
    expect(lastBody(server)).not.toHaveProperty('temperature')
    await adapter.chat(asking('off', 0.2))
    expect(lastBody(server)).toMatchObject({ thinking: { type: 'disabled' }, max_tokens: 8192, temperature: 0.2 })
  })

  test('Gemini 2.5 gets a thinking budget (0 is off), Gemini 3 a thinking level, both asked for their thoughts', async () => {
    const server = await serve('gemini')
    const flash = await adapterFor('gemini', server.url, 'gemini-2.5-flash')
    await flash.chat(asking('off'))
    expect((lastBody(server).generationConfig as Record<string, unknown>).thinkingConfig).toEqual({ thinkingBudget: 0 })
    await flash.chat(asking('on'))
    expect((lastBody(server).generationConfig as Record<string, unknown>).thinkingConfig).toEqual({
      includeThoughts: true,
      thinkingBudget: -1,
    })
    const three = await adapterFor('gemini', server.url, 'gemini-3-pro-preview')
    await three.chat(asking('high'))
    expect((lastBody(server).generationConfig as Record<string, unknown>).thinkingConfig).toEqual({
      includeThoughts: true,
      thinkingLevel: 'HIGH',
    })
  })

  test('Ollama gets think as a boolean, gpt-oss its effort; a model that cannot think is sent nothing', async () => {
    const thinking = await serve('ollama', { capabilities: ['completion', 'tools', 'thinking'] })
    const qwen = await adapterFor('ollama', thinking.url, 'qwen3')
    await qwen.chat(asking('off'))
    expect(lastBody(thinking)).toMatchObject({ think: false })
    await qwen.chat(asking('on'))
    expect(lastBody(thinking)).toMatchObject({ think: true })
    const oss = await adapterFor('ollama', thinking.url, 'gpt-oss:20b')
    await oss.chat(asking('high'))
    expect(lastBody(thinking)).toMatchObject({ think: 'high' })

    const plain = await serve('ollama', { capabilities: ['completion'] })
    await (await adapterFor('ollama', plain.url, 'qwen2.5')).chat(asking('on'))
    expect(lastBody(plain)).not.toHaveProperty('think')
  })

  test('a model that cannot honour the switch says so once, up front, and its details say whether it thinks', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    onTestFinished(() => warn.mockRestore())
    const plain = await serve('ollama', { capabilities: ['completion'] })
    const { MODEL: _model, ...env } = clientEnv('ollama', plain.url, 'fake')
    const adapter = await createAdapter(parseModel('ollama:fake'), { ...env, TESTBENCH_THINK: 'on' })
    expect(await adapter.preflight()).toMatchObject({ thinks: 'no', vision: 'no' })
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0]?.[0]).toMatch(
      /Ollama's fake cannot think \(its capabilities have no "thinking"\): TESTBENCH_THINK=on is not sent/,
    )
  })
})

describe('images', () => {
  test('OpenAI: an image_url data-URL part for a model that can see (TESTBENCH_VISION=on), else the text alone', async () => {
    const server = await serve('openai')
    await (await adapterFor('openai', server.url, 'fake', { TESTBENCH_VISION: 'on' })).chat(WITH_IMAGE)
    expect(lastBody(server).messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in the picture (see image)?' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG.base64}` } },
        ],
      },
    ])
    await (await adapterFor('openai', server.url)).chat(WITH_IMAGE)
    expect(lastBody(server).messages).toEqual([{ role: 'user', content: 'What is in the picture (see image)?' }])
  })

  test('Anthropic: a base64 image block before the text', async () => {
    const server = await serve('anthropic')
    await (await adapterFor('anthropic', server.url, 'fake', { TESTBENCH_VISION: 'on' })).chat(WITH_IMAGE)
    expect(lastBody(server).messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG.base64 } },
          { type: 'text', text: 'What is in the picture (see image)?' },
        ],
      },
    ])
  })

  test('Gemini: an inlineData part before the text', async () => {
    const server = await serve('gemini')
    await (await adapterFor('gemini', server.url, 'fake', { TESTBENCH_VISION: 'on' })).chat(WITH_IMAGE)
    expect(lastBody(server).contents).toEqual([
      {
        role: 'user',
        parts: [
          { inlineData: { mimeType: 'image/png', data: PNG.base64 } },
          { text: 'What is in the picture (see image)?' },
        ],
      },
    ])
  })

  test('Ollama: `images` when /api/show lists vision, left out when it does not, whatever TESTBENCH_VISION says', async () => {
    const seeing = await serve('ollama', { capabilities: ['completion', 'vision'] })
    const adapter = await adapterFor('ollama', seeing.url, 'fake')
    expect(await adapter.preflight()).toMatchObject({ vision: 'yes' })
    await adapter.chat(WITH_IMAGE)
    expect(lastBody(seeing).messages).toEqual([
      { role: 'user', content: 'What is in the picture (see image)?', images: [PNG.base64] },
    ])
    const blind = await serve('ollama', { capabilities: ['completion'] })
    await (await adapterFor('ollama', blind.url, 'fake', { TESTBENCH_VISION: 'on' })).chat(WITH_IMAGE)
    expect(lastBody(blind).messages).toEqual([{ role: 'user', content: 'What is in the picture (see image)?' }])
  })
})
