import { afterAll, beforeAll, expect, test } from 'vitest'
import { resolveModels } from '../../harness/resolve-models.ts'
import { openaiChatHandler } from '../support/fake-openai.ts'
import { startLoopbackServer, type LoopbackServer } from '../support/loopback-server.ts'

// Named as an OpenAI-compatible server (vLLM, llama.cpp's server) may name its models: like Ollama tags.
const MODELS = ['v0.16.0-alpha__deepseek-r1', '7b-chat', 'latest']
let server: LoopbackServer

beforeAll(async () => {
  server = await startLoopbackServer(openaiChatHandler(MODELS, () => 'unused'))
})
afterAll(async () => {
  await server.close()
})

test.for(MODELS)('MODEL=openai:%s goes to the OpenAI-compatible server, not to Ollama', async (model) => {
  // OLLAMA_HOST points at a port nobody listens on: a model routed there would fail its up-front check.
  const env = { OPENAI_BASE_URL: `${server.url}/v1`, OLLAMA_HOST: 'http://127.0.0.1:9' }
  const [resolved] = await resolveModels(`openai:${model}`, env)
  expect(resolved).toMatchObject({ provider: 'openai', model, label: `openai:${model}` })
  expect(server.seen.some((request) => request.path === '/v1/models')).toBe(true)
})
