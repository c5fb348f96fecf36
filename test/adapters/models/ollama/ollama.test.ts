import { afterEach, describe, expect, test } from 'vitest'
import { OllamaAdapter, listOllamaModels, ollamaHost } from '../../../../adapters/models/ollama/ollama.ts'
import { chatRequest } from '../../../support/chat-request.ts'
import {
  sendJson,
  sendNdjson,
  startLoopbackServer,
  type LoopbackServer,
  type SeenRequest,
} from '../../../support/loopback-server.ts'
import type { ServerResponse } from 'node:http'

let server: LoopbackServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const TAGS = {
  models: [
    {
      name: 'qwen2.5:latest',
      model: 'qwen2.5:latest',
      modified_at: '2026-01-01T00:00:00Z',
      size: 4_683_087_332,
      digest: '845dbda0ea48ed749caafd9e6037047aa19acfcfd82e704d7ca97d631a0b697e',
      details: {
        format: 'gguf',
        family: 'qwen2',
        families: ['qwen2'],
        parameter_size: '7.6B',
        quantization_level: 'Q4_K_M',
      },
    },
  ],
}

function fakeOllama(request: SeenRequest, response: ServerResponse): void {
  if (request.path === '/api/tags') return sendJson(response, 200, TAGS)
  if (request.path === '/api/show') {
    return sendJson(response, 200, {
      details: TAGS.models[0]?.details,
      model_info: { 'general.architecture': 'qwen2', 'qwen2.context_length': 32768 },
    })
  }
  if (request.path === '/api/chat') {
    return sendNdjson(response, [
      {
        model: 'qwen2.5',
        created_at: '2026-01-01T00:00:00Z',
        message: { role: 'assistant', content: '', thinking: 'Six sevens.' },
        done: false,
      },
      {
        model: 'qwen2.5',
        created_at: '2026-01-01T00:00:00Z',
        message: { role: 'assistant', content: '42' },
        done: false,
      },
      {
        model: 'qwen2.5',
        created_at: '2026-01-01T00:00:00Z',
        message: { role: 'assistant', content: '' },
        done: true,
        done_reason: 'stop',
        prompt_eval_count: 26,
        eval_count: 3,
      },
    ])
  }
  if (request.path === '/api/generate') {
    return sendNdjson(response, [
      { model: 'qwen2.5', response: '    return a + b', done: false },
      { model: 'qwen2.5', response: '', done: true, prompt_eval_count: 9, eval_count: 5 },
    ])
  }
  sendJson(response, 404, { error: 'not found' })
}

describe('ollama adapter', () => {
  test('OLLAMA_HOST is read as the ollama CLI reads it', () => {
    expect(ollamaHost({})).toBe('http://127.0.0.1:11434')
    expect(ollamaHost({ OLLAMA_HOST: '0.0.0.0' })).toBe('http://127.0.0.1:11434')
    expect(ollamaHost({ OLLAMA_HOST: 'gpu-box:8080' })).toBe('http://gpu-box:8080')
    expect(ollamaHost({ OLLAMA_HOST: 'https://ollama.example.org' })).toBe('https://ollama.example.org')
  })

  test('streams /api/chat, separating thinking and counting tokens from eval_count', async () => {
    server = await startLoopbackServer(fakeOllama)
    const adapter = new OllamaAdapter('qwen2.5', { OLLAMA_HOST: server.url })
    const reply = await adapter.chat(chatRequest('6 × 7?', { params: { temperature: 0, seed: 42, maxTokens: 64 } }))
    expect(reply).toMatchObject({ text: '42', reasoning: 'Six sevens.', tokens: { prompt: 26, completion: 3 } })
    const sent = JSON.parse(server.seen[0]?.body ?? '{}')
    expect(sent).toMatchObject({
      model: 'qwen2.5',
      stream: true,
      options: { temperature: 0, seed: 42, num_predict: 64 },
    })
  })

  test('completion mode sends the raw prompt to /api/generate', async () => {
    server = await startLoopbackServer(fakeOllama)
    const reply = await new OllamaAdapter('qwen2.5', { OLLAMA_HOST: server.url }).chat(
      chatRequest('def add(a, b):\n', { mode: 'completion' }),
    )
    expect(reply.text).toBe('    return a + b')
    expect(JSON.parse(server.seen[0]?.body ?? '{}')).toMatchObject({ prompt: 'def add(a, b):\n', raw: true })
  })

  test('the up-front check reads digest, size, quantization and context length', async () => {
    server = await startLoopbackServer(fakeOllama)
    const details = await new OllamaAdapter('qwen2.5', { OLLAMA_HOST: server.url }).preflight()
    expect(details).toEqual({
      digest: TAGS.models[0]?.digest,
      parameterSize: '7.6B',
      quantization: 'Q4_K_M',
      family: 'qwen2',
      contextLength: 32768,
      vision: 'no',
    })
  })

  test('an unknown model is one error that says how to pull it', async () => {
    server = await startLoopbackServer(fakeOllama)
    await expect(new OllamaAdapter('llama3.3', { OLLAMA_HOST: server.url }).preflight()).rejects.toThrow(
      /has no model "llama3\.3"\. Pull it with `ollama pull llama3\.3`\. Local models: qwen2\.5:latest/,
    )
  })

  test('lists local models for ollama:*', async () => {
    server = await startLoopbackServer(fakeOllama)
    expect(await listOllamaModels({ OLLAMA_HOST: server.url })).toEqual(['qwen2.5:latest'])
  })

  test('no Ollama running: says where it looked and how to start it', async () => {
    server = await startLoopbackServer(fakeOllama)
    const { url } = server
    await server.close()
    server = undefined
    await expect(new OllamaAdapter('qwen2.5', { OLLAMA_HOST: url }).preflight()).rejects.toThrow(
      new RegExp(`Ollama is not reachable at ${url}: ECONNREFUSED.*\\n.*ollama serve`),
    )
  })
})
