import { describe, expect, test, type TestContext } from 'vitest'
import { createAdapter } from '../../../../adapters/models/create-adapter.ts'
import { parseModel } from '../../../../adapters/models/model-spec.ts'
import { ProviderError, type ChatRequest } from '../../../../adapters/models/model-adapter.ts'
import { FAST_RETRIES } from '../../../support/model-test-settings.ts'
import type { WireProtocol } from '../../../../adapters/models/requests/wire-check.ts'
import { chatRequest } from '../../../support/chat-request.ts'
import { sendJson, startLoopbackServer } from '../../../support/loopback-server.ts'
import { promptOf, streamedReply } from '../../../support/wire-replies.ts'
import {
  clientEnv,
  FAULT_KINDS,
  startFaultyModelServer,
  type FaultKind,
  type FaultyServer,
} from '../../../support/fault-injecting-server.ts'

const PROTOCOLS: WireProtocol[] = ['openai', 'openai-responses', 'ollama', 'anthropic', 'gemini']
const REQUESTS = 30

/**
 * A fault-injecting server that closes when the test ends. The tests of this file run side by side (most of
 * their time is spent waiting out stalls and Retry-After), so each passes its context's own hook: the global
 * one may close the server when another test ends.
 */
async function serve(
  options: Parameters<typeof startFaultyModelServer>[0],
  cleanup: TestContext['onTestFinished'],
): Promise<FaultyServer> {
  const server = await startFaultyModelServer(options)
  cleanup(() => server.close())
  return server
}

const answerTo = (prompt: string): string => `The answer to «${prompt}» is <ANSWER>${prompt.length % 5}</ANSWER>.`

function adapterFor(protocol: WireProtocol, url: string, env: Record<string, string> = {}) {
  const { MODEL, ...rest } = clientEnv(protocol, url, 'fake')
  return createAdapter(parseModel(MODEL!), { ...rest, ...FAST_RETRIES, ...env })
}

const request = (index: number): ChatRequest => ({
  ...chatRequest(`question ${index}`),
  item: { suite: 'test', itemId: `q${index}`, sample: 0 },
})

describe.concurrent.each(PROTOCOLS)('%s: every transport fault is retried until the reply is whole', (protocol) => {
  test.concurrent.for(FAULT_KINDS)(
    '%s at 20 percent: every reply equals the clean one',
    async (kind: FaultKind, { onTestFinished: cleanup }) => {
      const server = await serve(
        { protocol, model: 'fake', answer: answerTo, faults: { rate: 0.2, kinds: [kind], seed: 7 } },
        cleanup,
      )
      const adapter = await adapterFor(protocol, server.url)
      const replies = await Promise.all(Array.from({ length: REQUESTS }, (_, index) => adapter.chat(request(index))))
      expect(replies.map((reply) => reply.text)).toEqual(
        Array.from({ length: REQUESTS }, (_, index) => answerTo(`question ${index}`)),
      )
      expect(new Set(replies.map((reply) => reply.finishReason))).toEqual(
        new Set([
          {
            openai: 'stop',
            'openai-responses': 'completed',
            ollama: 'stop',
            anthropic: 'end_turn',
            gemini: 'STOP',
          }[protocol],
        ]),
      )
      expect(server.injected[kind]).toBeGreaterThan(0)
      // A reply counts once however many whole copies were sent; more than one only when a slow machine made a whole reply look stalled.
      expect(server.whole).toBeGreaterThanOrEqual(REQUESTS)
    },
  )

  test('a reply the model ended itself (length) is kept with its finish reason, not retried', async ({
    onTestFinished,
  }) => {
    const finishReason = {
      openai: 'length',
      'openai-responses': 'max_output_tokens',
      ollama: 'length',
      anthropic: 'max_tokens',
      gemini: 'MAX_TOKENS',
    }[protocol]
    const server = await serve({ protocol, model: 'fake', answer: answerTo, finishReason }, onTestFinished)
    const reply = await (await adapterFor(protocol, server.url)).chat(request(1))
    expect(reply).toMatchObject({ text: answerTo('question 1'), finishReason })
    expect(server.whole).toBe(1)
  })

  test('when the retries run out, the provider_error names the fault seen, not an unreachable server', async ({
    onTestFinished,
  }) => {
    const server = await serve(
      { protocol, model: 'fake', answer: answerTo, faults: { rate: 1, kinds: ['cut-short'] } },
      onTestFinished,
    )
    const failure = (await adapterFor(protocol, server.url, { TESTBENCH_RETRIES: '2' })).chat(request(1))
    await expect(failure).rejects.toThrow(ProviderError)
    await expect(failure).rejects.toThrow(
      /gave no complete answer for item q1 in 3 attempts; the last fault: the reply ended early, without /,
    )
    await expect(failure).rejects.not.toThrow(/start|not reachable/)
  })
})

describe.concurrent('retries and the in-flight limit', () => {
  test('retries never put more requests in flight than TESTBENCH_CONCURRENCY, and use all of it', async ({
    onTestFinished,
  }) => {
    const server = await serve(
      {
        protocol: 'openai',
        model: 'fake',
        answer: answerTo,
        faults: { rate: 0.5, kinds: FAULT_KINDS, seed: 3 },
        latencyMs: 20,
      },
      onTestFinished,
    )
    const adapter = await adapterFor('openai', server.url, { TESTBENCH_CONCURRENCY: '2' })
    const replies = await Promise.all(Array.from({ length: 20 }, (_, index) => adapter.chat(request(index))))
    expect(replies.map((reply) => reply.text)).toEqual(
      Array.from({ length: 20 }, (_, index) => answerTo(`question ${index}`)),
    )
    expect(server.mostInFlight).toBe(2)
  })

  test('two models of one provider share its in-flight limit', async ({ onTestFinished }) => {
    const server = await serve({ protocol: 'ollama', model: 'fake', answer: answerTo, latencyMs: 20 }, onTestFinished)
    const env = { OLLAMA_HOST: server.url, TESTBENCH_CONCURRENCY: '2' }
    const adapters = await Promise.all([
      createAdapter(parseModel('ollama:fake'), env),
      createAdapter(parseModel('ollama:other'), env),
    ])
    await Promise.all(Array.from({ length: 12 }, (_, index) => adapters[index % 2]!.chat(request(index))))
    expect(server.mostInFlight).toBe(2)
  })

  test('a Retry-After holds every request to the endpoint, not only the one told; then all are answered', async () => {
    let refusedAt: number | undefined
    const arrivals: number[] = []
    const plain = await startLoopbackServer((seen, response) => {
      arrivals.push(performance.now())
      if (promptOf('openai', seen) === 'question 0' && refusedAt === undefined) {
        refusedAt = performance.now()
        return sendJson(response, 429, { error: { message: 'slow down' } }, { 'retry-after': '2' })
      }
      const reply = streamedReply('openai', seen.path, answerTo(promptOf('openai', seen)))
      response.writeHead(200, { 'content-type': reply.contentType })
      response.end(reply.frames.join(''))
    })
    try {
      const adapter = await adapterFor('openai', plain.url, { TESTBENCH_CONCURRENCY: '2' })
      const waiting = adapter.chat(request(0))
      // The others are asked well after the refusal reached the client (a busy machine may take 100 ms to read it).
      while (refusedAt === undefined) await new Promise((resolve) => setTimeout(resolve, 10))
      await new Promise((resolve) => setTimeout(resolve, 500))
      const replies = await Promise.all([1, 2, 3].map((index) => adapter.chat(request(index))))
      expect(replies.map((reply) => reply.text)).toEqual([1, 2, 3].map((index) => answerTo(`question ${index}`)))
      expect((await waiting).text).toBe(answerTo('question 0'))
      // Nothing reached the server while it had asked to wait.
      expect(arrivals.filter((at) => at > refusedAt! && at < refusedAt! + 1980)).toEqual([])
      expect(arrivals).toHaveLength(5)
    } finally {
      await plain.close()
    }
  })
})

describe.concurrent.each(['openai', 'ollama'] as const)(
  '%s raw completions (/v1/completions, /api/generate) under every fault kind at 20 percent',
  (protocol) => {
    test('every reply equals the clean one', async ({ onTestFinished }) => {
      const server = await serve(
        {
          protocol,
          model: 'fake',
          answer: answerTo,
          faults: { rate: 0.2, kinds: FAULT_KINDS, seed: 5 },
        },
        onTestFinished,
      )
      const adapter = await adapterFor(protocol, server.url)
      const replies = await Promise.all(
        Array.from({ length: 40 }, (_, index) => adapter.chat({ ...request(index), mode: 'completion' })),
      )
      expect(replies.map((reply) => reply.text)).toEqual(
        Array.from({ length: 40 }, (_, index) => answerTo(`question ${index}`)),
      )
      expect(Object.values(server.injected).reduce((sum, count) => sum + count, 0)).toBeGreaterThan(4)
      expect(
        server.seen.some((seen) => seen.path === (protocol === 'openai' ? '/v1/completions' : '/api/generate')),
      ).toBe(true)
    })
  },
)

describe.concurrent('one deadline per request', () => {
  test('a server that stalls every attempt ends in provider_error at TESTBENCH_REQUEST_TIMEOUT, naming the stall', async ({
    onTestFinished,
  }) => {
    const server = await serve(
      {
        protocol: 'ollama',
        model: 'fake',
        answer: answerTo,
        faults: { rate: 1, kinds: ['stall'] },
      },
      onTestFinished,
    )
    const started = performance.now()
    const failure = (
      await adapterFor('ollama', server.url, {
        TESTBENCH_IDLE_TIMEOUT: '0.3',
        TESTBENCH_REQUEST_TIMEOUT: '1',
        TESTBENCH_RETRIES: '100',
      })
    ).chat(request(1))
    await expect(failure).rejects.toThrow(
      /Ollama gave no complete answer for item q1 within 1 s \(TESTBENCH_REQUEST_TIMEOUT\); the last fault: no byte arrived for 0\.3 s/,
    )
    expect(performance.now() - started).toBeLessThan(3000)
  })
})

describe.concurrent('the up-front check', () => {
  test.for(PROTOCOLS)(
    '%s: a 503, a 429 or a reset before the model lookup is asked again; a refused connection fails at once',
    async (protocol, { onTestFinished }) => {
      let lookups = 0
      const answers = await startFaultyModelServer({ protocol, model: 'fake', answer: answerTo })
      const flaky = await startLoopbackServer(async (seen, response) => {
        if (!seen.path.includes('generate') && !seen.path.includes('messages') && !seen.path.includes('chat')) {
          lookups++
          if (lookups === 1) return sendJson(response, 503, { error: 'warming up' })
          if (lookups === 2) return void response.socket?.resetAndDestroy()
          if (lookups === 3) return sendJson(response, 429, { error: 'slow down' }, { 'retry-after': '0' })
        }
        // Everything else, and the fourth lookup on, as the real server answers.
        const upstream = await fetch(`${answers.url}${seen.path}`, {
          method: seen.method,
          body: seen.method === 'GET' ? undefined : seen.body,
          headers: { 'content-type': 'application/json' },
        })
        response.writeHead(upstream.status, {
          'content-type': upstream.headers.get('content-type') ?? 'application/json',
        })
        response.end(Buffer.from(await upstream.arrayBuffer()))
      })
      onTestFinished(async () => {
        await flaky.close()
        await answers.close()
      })
      await expect((await adapterFor(protocol, flaky.url)).preflight()).resolves.toBeDefined()
      expect(lookups).toBeGreaterThanOrEqual(3)

      const { url } = await startLoopbackServer(() => undefined).then(async (gone) => (await gone.close(), gone))
      const started = performance.now()
      await expect((await adapterFor(protocol, url)).preflight()).rejects.toThrow(/not reachable/)
      expect(performance.now() - started).toBeLessThan(1200) // asked again, a refusal would wait 0.25 + 0.5 + 0.75 s
    },
  )
})

describe.concurrent('when the retries run out, the message says what was seen', () => {
  test('connections reset before any byte: the server is up, so no "not reachable"', async ({ onTestFinished }) => {
    const resetting = await startLoopbackServer((_seen, response) => void response.socket?.resetAndDestroy())
    onTestFinished(() => resetting.close())
    const failure = (await adapterFor('openai', resetting.url, { TESTBENCH_RETRIES: '2' })).chat(request(1))
    await expect(failure).rejects.toThrow(
      /gave no complete answer for item q1 in 3 attempts; the last fault: no connection \(ECONNRESET/,
    )
    await expect(failure).rejects.not.toThrow(/not reachable/)
  })

  test('a server gone for good: "not reachable", with where and what to do', async () => {
    const gone = await startLoopbackServer(() => undefined)
    await gone.close()
    await expect((await adapterFor('ollama', gone.url, { TESTBENCH_RETRIES: '2' })).chat(request(1))).rejects.toThrow(
      new RegExp(`Ollama is not reachable at ${gone.url}: ECONNREFUSED[^]*Start Ollama`),
    )
  })
})
