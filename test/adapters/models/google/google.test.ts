import { afterEach, describe, expect, test } from 'vitest'
import { GoogleAdapter } from '../../../../adapters/models/google/google.ts'
import { chatRequest } from '../../../support/chat-request.ts'
import { sendEvents, sendJson, startLoopbackServer, type LoopbackServer } from '../../../support/loopback-server.ts'
import { streamedReply } from '../../../support/wire-replies.ts'

let server: LoopbackServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

describe('google adapter', () => {
  test('streams generateContent through @google/genai, separates thought parts and keeps the finish reason', async () => {
    server = await startLoopbackServer((request, response) => {
      if (request.path.includes('/models/gemini-test:streamGenerateContent')) {
        sendEvents(response, [
          {
            data: {
              candidates: [{ content: { role: 'model', parts: [{ text: 'Weighing options.', thought: true }] } }],
              modelVersion: 'gemini-test-001',
            },
          },
          {
            data: {
              candidates: [{ content: { role: 'model', parts: [{ text: '42' }] }, finishReason: 'STOP' }],
              usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 2, totalTokenCount: 14 },
              modelVersion: 'gemini-test-001',
            },
          },
        ])
      } else sendJson(response, 404, { error: { code: 404, message: 'not found', status: 'NOT_FOUND' } })
    })
    const adapter = new GoogleAdapter('gemini-test', { GEMINI_API_KEY: 'g-test', GOOGLE_GEMINI_BASE_URL: server.url })
    const reply = await adapter.chat(
      chatRequest('', {
        messages: [
          { role: 'system', content: 'Answer with a number.' },
          { role: 'user', content: '6 × 7?' },
        ],
        params: { temperature: 0, seed: 42 },
      }),
    )
    expect(reply).toMatchObject({
      text: '42',
      reasoning: 'Weighing options.',
      tokens: { prompt: 12, completion: 2 },
      finishReason: 'STOP',
    })
    const sent = JSON.parse(server.seen[0]?.body ?? '{}')
    expect(sent.contents).toEqual([{ role: 'user', parts: [{ text: '6 × 7?' }] }])
    expect(sent.systemInstruction).toMatchObject({ parts: [{ text: 'Answer with a number.' }] })
    expect(sent.generationConfig).toMatchObject({ temperature: 0, seed: 42 })
    expect(server.seen[0]?.headers['x-goog-api-key']).toBe('g-test')
  })

  test('retries a 429 and then answers', async () => {
    let calls = 0
    server = await startLoopbackServer((request, response) => {
      calls++
      if (calls === 1)
        sendJson(
          response,
          429,
          { error: { code: 429, message: 'quota', status: 'RESOURCE_EXHAUSTED' } },
          { 'retry-after': '0' },
        )
      else {
        const reply = streamedReply('gemini', request.path, 'ok')
        response.writeHead(200, { 'content-type': reply.contentType })
        response.end(reply.frames.join(''))
      }
    })
    const adapter = new GoogleAdapter('gemini-test', { GEMINI_API_KEY: 'g-test', GOOGLE_GEMINI_BASE_URL: server.url })
    expect((await adapter.chat(chatRequest('hi'))).text).toBe('ok')
    expect(calls).toBe(2)
  })
})
