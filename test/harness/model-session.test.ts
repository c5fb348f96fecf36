import { describe, expect, onTestFinished, test, vi } from 'vitest'
import { modelAbilities } from '../../adapters/models/model-abilities.ts'
import { askerFor } from '../../harness/model-session.ts'
import { resolveModels } from '../../harness/resolve-models.ts'
import { chatRequest } from '../support/chat-request.ts'
import { startScriptedModelServer } from '../support/scripted-model-server.ts'

describe('the thinking switch reaches every request and every report', () => {
  test('TESTBENCH_THINK goes into the params of each request (and so its cache key); a suite that sets think itself keeps its own', async () => {
    const server = await startScriptedModelServer('openai', [{ text: 'ok' }])
    onTestFinished(() => server.close())
    vi.stubEnv('OPENAI_BASE_URL', `${server.url}/v1`)
    vi.stubEnv('OPENAI_API_KEY', 'k')
    vi.stubEnv('TESTBENCH_THINK', 'off')
    vi.stubEnv('TESTBENCH_CACHE', 'off')
    onTestFinished(() => {
      vi.unstubAllEnvs()
    })
    const ask = askerFor({ provider: 'openai', model: 'fake', label: 'openai:fake-think-test', details: {} })
    await ask(chatRequest('Think?'))
    await ask(chatRequest('Think?', { params: { think: 'on' } }))
    const bodies = server.seen
      .filter((each) => each.method === 'POST')
      .map((each) => JSON.parse(each.body) as { chat_template_kwargs?: unknown })
    expect(bodies.map((body) => body.chat_template_kwargs)).toEqual([
      { enable_thinking: false },
      { enable_thinking: true },
    ])
  })

  test("the resolved model's details carry the switch as asked, `default` when unset", async () => {
    expect((await resolveModels('reference', { TESTBENCH_THINK: 'low' }))[0]?.details).toMatchObject({ think: 'low' })
    expect((await resolveModels('reference', {}))[0]?.details).toMatchObject({ think: 'default' })
    expect(modelAbilities({ vision: 'yes', thinks: 'no', think: 'high' })).toEqual({
      vision: true,
      thinks: false,
      think: 'high',
    })
    expect(modelAbilities({})).toEqual({ vision: false, think: 'default' })
  })
})
