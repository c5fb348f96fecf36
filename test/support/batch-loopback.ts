import type { ServerResponse } from 'node:http'
import { streamChatCompletion } from './fake-openai.ts'
import { streamedReply } from './wire-replies.ts'
import { sendJson, startLoopbackServer, type LoopbackServer, type SeenRequest } from './loopback-server.ts'

/** How the simulated provider behaves: how long a batch takes, and which of its ways to fail it shows. */
export interface BatchBehaviour {
  /** How long a whole batch takes; its requests are answered evenly over that time. */
  batchMs: number
  /** The reply to one prompt. */
  answer: (prompt: string) => string
  /** Every nth request of a batch (1-based) is answered with a server error. */
  errorEvery?: number
  /** The first batch expires when half of it is answered. */
  expireFirstHalfway?: boolean
  /** Every nth poll fails with HTTP 503. */
  failPollEvery?: number
  /** Every batch is refused with this validation message. */
  refuse?: string
  /** The answer to a create comes this much later (the batch exists at once): a run killed meanwhile never hears its id. */
  holdCreateMs?: number
}

/** What the server was asked, counted: the figures a kill-and-resume test and bench:batch check. */
export interface BatchCounts {
  uploads: number
  creates: number
  polls: number
  downloads: number
  /** Requests asked the ordinary way (streamed, one by one). */
  ordinary: number
  /** How many created batches carried each key (custom id). */
  carried: Map<string, number>
}

interface SimulatedBatch {
  id: string
  /** What the creator tagged it with: OpenAI's metadata, Gemini's display name. */
  tag: string
  keys: string[]
  prompts: string[]
  createdAt: number
  expires: boolean
}

interface Progress {
  answered: number
  ended: boolean
  expired: boolean
}

/** The provider side of batches, whatever the wire: batches made of (key, prompt) pairs that answer over time. */
export class BatchEngine {
  readonly behaviour: BatchBehaviour
  readonly counts: BatchCounts = { uploads: 0, creates: 0, polls: 0, downloads: 0, ordinary: 0, carried: new Map() }
  readonly batches = new Map<string, SimulatedBatch>()
  /** When the server answered the last request of each batch: the batch time the harness cannot do better than. */
  readonly endedAt = new Map<string, number>()

  constructor(behaviour: BatchBehaviour) {
    this.behaviour = behaviour
  }

  create(id: string, requests: Array<{ key: string; prompt: string }>, tag = ''): SimulatedBatch {
    this.counts.creates++
    for (const { key } of requests) this.counts.carried.set(key, (this.counts.carried.get(key) ?? 0) + 1)
    const batch: SimulatedBatch = {
      id,
      tag,
      keys: requests.map((request) => request.key),
      prompts: requests.map((request) => request.prompt),
      createdAt: Date.now(),
      expires: this.behaviour.expireFirstHalfway === true && this.batches.size === 0,
    }
    this.batches.set(id, batch)
    return batch
  }

  /** The batches newest first, as the providers list them. */
  listed(): SimulatedBatch[] {
    return [...this.batches.values()].reverse()
  }

  /** Answers a create once the behaviour's hold is over. */
  async held(): Promise<void> {
    const hold = this.behaviour.holdCreateMs
    if (hold !== undefined) await new Promise((resolve) => setTimeout(resolve, hold))
  }

  /** Whether this poll fails (counted either way). */
  pollFails(): boolean {
    this.counts.polls++
    const every = this.behaviour.failPollEvery
    return every !== undefined && this.counts.polls % every === 0
  }

  progress(batch: SimulatedBatch, now = Date.now()): Progress {
    const total = batch.keys.length
    const share = Math.min(1, (now - batch.createdAt) / this.behaviour.batchMs)
    const answered = Math.floor(share * total)
    if (batch.expires && answered >= total / 2) return { answered: Math.floor(total / 2), ended: true, expired: true }
    if (answered >= total && !this.endedAt.has(batch.id))
      this.endedAt.set(batch.id, batch.createdAt + this.behaviour.batchMs)
    return { answered, ended: answered >= total, expired: false }
  }

  /** The answered requests of a batch: each a reply text or an error. */
  results(batch: SimulatedBatch): Array<{ key: string; text: string } | { key: string; error: string }> {
    const { answered } = this.progress(batch)
    const every = this.behaviour.errorEvery
    return batch.keys
      .slice(0, answered)
      .map((key, index) =>
        every !== undefined && (index + 1) % every === 0
          ? { key, error: 'The server had an error while processing your request.' }
          : { key, text: this.behaviour.answer(batch.prompts[index] ?? '') },
      )
  }
}

/** The demo suite's answer: the sum the prompt asks for, in its tag. */
export function sumAnswer(prompt: string): string {
  const [, a = '0', b = '0'] = /What is (-?\d+) \+ (-?\d+)\?/.exec(prompt) ?? []
  return `<ANSWER>${Number(a) + Number(b)}</ANSWER>`
}

const USAGE = { prompt_tokens: 20, completion_tokens: 6, total_tokens: 26 }

/**
 * OpenAI's Batch API on 127.0.0.1, as the SDK speaks it: `/v1/files` (multipart upload, purpose `batch`),
 * `/v1/batches` create and retrieve, `/v1/files/{id}/content` (output and error files), for batches on
 * `/v1/chat/completions` (chat completions in the output lines) or `/v1/responses` (Response objects); plus
 * `/v1/models` and a streamed `/v1/chat/completions` and `/v1/responses` for what is asked the ordinary way.
 */
export async function startOpenAIBatchServer(engine: BatchEngine): Promise<LoopbackServer> {
  const files = new Map<string, string>()
  /** Each batch's endpoint, as its create named it. */
  const endpoints = new Map<string, string>()
  let made = 0
  const batchObject = (batch: SimulatedBatch) => {
    const progress = engine.progress(batch)
    const results = progress.ended ? engine.results(batch) : []
    const ok = results.filter((result) => 'text' in result)
    const failed = results.filter((result) => 'error' in result)
    const output = `file-out-${batch.id}`
    const errors = `file-err-${batch.id}`
    if (progress.ended) {
      files.set(
        output,
        ok
          .map((result) => {
            const text = 'text' in result ? result.text : ''
            const line =
              endpoints.get(batch.id) === '/v1/responses'
                ? responseLine(result.key, text)
                : outputLine(result.key, text)
            return `${JSON.stringify(line)}\n`
          })
          .join(''),
      )
      files.set(errors, failed.map((result) => `${JSON.stringify(errorLine(result.key))}\n`).join(''))
    }
    return {
      id: batch.id,
      object: 'batch',
      endpoint: endpoints.get(batch.id) ?? '/v1/chat/completions',
      input_file_id: 'file-in',
      completion_window: '24h',
      created_at: Math.floor(batch.createdAt / 1000),
      metadata: batch.tag === '' ? null : { source: 'llm-testbench', testbench_tag: batch.tag },
      status: progress.ended ? (progress.expired ? 'expired' : 'completed') : 'in_progress',
      request_counts: { total: batch.keys.length, completed: progress.answered, failed: 0 },
      ...(progress.ended ? { output_file_id: output, ...(failed.length > 0 ? { error_file_id: errors } : {}) } : {}),
    }
  }
  return startLoopbackServer(async (request: SeenRequest, response: ServerResponse) => {
    const path = request.path.split('?')[0] ?? ''
    if (path === '/v1/models')
      return sendJson(response, 200, {
        object: 'list',
        data: ['fake', 'gpt-5.3-codex'].map((id) => ({ id, object: 'model', created: 0, owned_by: 't' })),
      })
    if (path === '/v1/chat/completions') {
      engine.counts.ordinary++
      const body = JSON.parse(request.body) as { messages: Array<{ content: unknown }> }
      return streamChatCompletion(response, engine.behaviour.answer(textOf(body.messages.at(-1)?.content)))
    }
    if (path === '/v1/responses') {
      engine.counts.ordinary++
      const body = JSON.parse(request.body) as { input: Array<{ content?: unknown }> }
      const reply = streamedReply('openai-responses', path, engine.behaviour.answer(textOf(body.input.at(-1)?.content)))
      response.writeHead(200, { 'content-type': reply.contentType })
      return void response.end(reply.frames.join(''))
    }
    if (path === '/v1/files' && request.method === 'POST') {
      engine.counts.uploads++
      const form = await new Response(request.body, {
        headers: { 'content-type': String(request.headers['content-type']) },
      }).formData()
      const file = form.get('file')
      const id = `file-${++made}`
      files.set(id, typeof file === 'string' ? file : await (file as Blob).text())
      return sendJson(response, 200, {
        id,
        object: 'file',
        bytes: files.get(id)?.length ?? 0,
        created_at: 0,
        filename: 'batch.jsonl',
        purpose: 'batch',
        status: 'processed',
      })
    }
    if (path === '/v1/batches' && request.method === 'GET') {
      const data = engine.listed().map(batchObject)
      return sendJson(response, 200, {
        object: 'list',
        data,
        first_id: data[0]?.id ?? null,
        last_id: data.at(-1)?.id ?? null,
        has_more: false,
      })
    }
    if (path === '/v1/batches' && request.method === 'POST') {
      const { input_file_id, metadata, endpoint } = JSON.parse(request.body) as {
        input_file_id: string
        endpoint: string
        metadata?: { testbench_tag?: string }
      }
      if (engine.behaviour.refuse !== undefined)
        return sendJson(response, 400, { error: { message: engine.behaviour.refuse, type: 'invalid_request_error' } })
      const lines = (files.get(input_file_id) ?? '').split('\n').filter((line) => line.trim() !== '')
      const requests = lines.map((line) => {
        const parsed = JSON.parse(line) as {
          custom_id: string
          url: string
          body: { messages?: Array<{ content: unknown }>; input?: Array<{ content?: unknown }> }
        }
        if (parsed.url !== endpoint) throw new Error(`a ${parsed.url} line in a batch on ${endpoint}`)
        const turns = parsed.body.messages ?? parsed.body.input ?? []
        return { key: parsed.custom_id, prompt: textOf(turns.at(-1)?.content) }
      })
      const created = engine.create(`batch_${++made}`, requests, metadata?.testbench_tag)
      endpoints.set(created.id, endpoint)
      await engine.held()
      return sendJson(response, 200, batchObject(created))
    }
    const batch = /^\/v1\/batches\/([^/]+)$/.exec(path)
    if (batch !== null) {
      if (engine.pollFails()) return sendJson(response, 503, { error: { message: 'overloaded' } })
      const found = engine.batches.get(batch[1] ?? '')
      return found === undefined
        ? sendJson(response, 404, { error: { message: 'no such batch' } })
        : sendJson(response, 200, batchObject(found))
    }
    const content = /^\/v1\/files\/([^/]+)\/content$/.exec(path)
    if (content !== null) {
      engine.counts.downloads++
      response.writeHead(200, { 'content-type': 'application/octet-stream' })
      response.end(files.get(content[1] ?? '') ?? '')
      return
    }
    sendJson(response, 404, { error: { message: `no route ${request.method} ${path}` } })
  })
}

function outputLine(key: string, text: string): unknown {
  return {
    id: `out-${key.slice(0, 8)}`,
    custom_id: key,
    response: {
      status_code: 200,
      request_id: 'req',
      body: {
        id: 'chatcmpl-b',
        object: 'chat.completion',
        created: 0,
        model: 'fake',
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
        usage: USAGE,
      },
    },
    error: null,
  }
}

/** An output line of a `/v1/responses` batch: a whole Response object, as the API answers `stream: false`. */
function responseLine(key: string, text: string): unknown {
  return {
    id: `out-${key.slice(0, 8)}`,
    custom_id: key,
    response: {
      status_code: 200,
      request_id: 'req',
      body: {
        id: 'resp_b',
        object: 'response',
        created_at: 0,
        model: 'fake',
        status: 'completed',
        output: [
          { id: 'rs_b', type: 'reasoning', summary: [], encrypted_content: 'enc-b' },
          {
            id: 'msg_b',
            type: 'message',
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text, annotations: [] }],
          },
        ],
        usage: {
          input_tokens: 20,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: 6,
          output_tokens_details: { reasoning_tokens: 4 },
          total_tokens: 26,
        },
      },
    },
    error: null,
  }
}

function errorLine(key: string): unknown {
  return {
    id: `out-${key.slice(0, 8)}`,
    custom_id: key,
    response: { status_code: 500, request_id: 'req', body: { error: { message: 'server error' } } },
    error: null,
  }
}

function sendStreamed(response: ServerResponse, protocol: 'anthropic' | 'gemini', path: string, text: string): void {
  const reply = streamedReply(protocol, path, text)
  response.writeHead(200, { 'content-type': reply.contentType })
  for (const frame of reply.frames) response.write(frame)
  response.end()
}

/** The text of a message's content, as a string or as blocks/parts. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content.map((block: { text?: string }) => block.text ?? '').join('')
}

/**
 * Anthropic's Message Batches on 127.0.0.1, as the SDK speaks them: `POST /v1/messages/batches` (requests inline),
 * `GET /v1/messages/batches/{id}` and its `results_url` (JSONL); plus the model check and a streamed
 * `/v1/messages` for what is asked the ordinary way.
 */
export async function startAnthropicBatchServer(engine: BatchEngine): Promise<LoopbackServer> {
  let made = 0
  let url = ''
  const batchObject = (batch: SimulatedBatch) => {
    const progress = engine.progress(batch)
    const total = batch.keys.length
    const errored = progress.ended ? engine.results(batch).filter((result) => 'error' in result).length : 0
    return {
      id: batch.id,
      type: 'message_batch',
      processing_status: progress.ended ? 'ended' : 'in_progress',
      request_counts: {
        processing: progress.ended ? 0 : total - progress.answered,
        succeeded: progress.answered - errored,
        errored,
        canceled: 0,
        expired: progress.ended ? total - progress.answered : 0,
      },
      created_at: new Date(batch.createdAt).toISOString(),
      expires_at: new Date(batch.createdAt + 86_400_000).toISOString(),
      ended_at: progress.ended ? new Date().toISOString() : null,
      archived_at: null,
      cancel_initiated_at: null,
      results_url: progress.ended ? `${url}/v1/messages/batches/${batch.id}/results` : null,
    }
  }
  const server = await startLoopbackServer(async (request: SeenRequest, response: ServerResponse) => {
    const path = request.path.split('?')[0] ?? ''
    if (path.startsWith('/v1/models/'))
      return sendJson(response, 200, {
        id: 'fake',
        type: 'model',
        display_name: 'fake',
        created_at: '2025-01-01T00:00:00Z',
      })
    if (path === '/v1/messages') {
      engine.counts.ordinary++
      const body = JSON.parse(request.body) as { messages: Array<{ content: unknown }> }
      return sendStreamed(response, 'anthropic', path, engine.behaviour.answer(textOf(body.messages.at(-1)?.content)))
    }
    if (path === '/v1/messages/batches' && request.method === 'GET') {
      const data = engine.listed().map(batchObject)
      return sendJson(response, 200, {
        data,
        has_more: false,
        first_id: data[0]?.id ?? null,
        last_id: data.at(-1)?.id ?? null,
      })
    }
    if (path === '/v1/messages/batches' && request.method === 'POST') {
      engine.counts.uploads++
      if (engine.behaviour.refuse !== undefined)
        return sendJson(response, 400, {
          type: 'error',
          error: { type: 'invalid_request_error', message: engine.behaviour.refuse },
        })
      const { requests } = JSON.parse(request.body) as {
        requests: Array<{ custom_id: string; params: { messages: Array<{ content: unknown }> } }>
      }
      const carried = requests.map((each) => ({
        key: each.custom_id,
        prompt: textOf(each.params.messages.at(-1)?.content),
      }))
      const created = engine.create(`msgbatch_${++made}`, carried)
      await engine.held()
      return sendJson(response, 200, batchObject(created))
    }
    const results = /^\/v1\/messages\/batches\/([^/]+)\/results$/.exec(path)
    if (results !== null) {
      engine.counts.downloads++
      const batch = engine.batches.get(results[1] ?? '')
      response.writeHead(200, { 'content-type': 'application/binary' })
      for (const result of batch === undefined ? [] : engine.results(batch))
        response.write(`${JSON.stringify(anthropicResult(result))}\n`)
      response.end()
      return
    }
    const batch = /^\/v1\/messages\/batches\/([^/]+)$/.exec(path)
    if (batch !== null) {
      if (engine.pollFails())
        return sendJson(response, 529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })
      const found = engine.batches.get(batch[1] ?? '')
      return found === undefined
        ? sendJson(response, 404, { type: 'error', error: { type: 'not_found_error', message: 'no such batch' } })
        : sendJson(response, 200, batchObject(found))
    }
    sendJson(response, 404, { type: 'error', error: { type: 'not_found_error', message: `no route ${path}` } })
  })
  url = server.url
  return server
}

function anthropicResult(result: { key: string; text: string } | { key: string; error: string }): unknown {
  if ('error' in result)
    return {
      custom_id: result.key,
      result: { type: 'errored', error: { type: 'error', error: { type: 'api_error', message: result.error } } },
    }
  return {
    custom_id: result.key,
    result: {
      type: 'succeeded',
      message: {
        id: 'msg_b',
        type: 'message',
        role: 'assistant',
        model: 'fake',
        content: [{ type: 'text', text: result.text }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 20, output_tokens: 6, cache_read_input_tokens: 4, cache_creation_input_tokens: 0 },
      },
    },
  }
}

/**
 * Gemini's batch mode on 127.0.0.1, as @google/genai speaks it: `POST /v1beta/models/{model}:batchGenerateContent`
 * with inline requests, `GET /v1beta/batches/{id}` with the inlined responses once the job ends; plus the model
 * check and a streamed `:streamGenerateContent` for what is asked the ordinary way.
 */
export async function startGeminiBatchServer(engine: BatchEngine): Promise<LoopbackServer> {
  let made = 0
  const job = (batch: SimulatedBatch) => {
    const progress = engine.progress(batch)
    const state = progress.ended
      ? progress.expired
        ? 'BATCH_STATE_EXPIRED'
        : 'BATCH_STATE_SUCCEEDED'
      : 'BATCH_STATE_RUNNING'
    const responses = progress.ended
      ? engine
          .results(batch)
          .map((result) =>
            'error' in result
              ? { error: { code: 13, message: result.error }, metadata: { key: result.key } }
              : { response: geminiResponse(result.text), metadata: { key: result.key } },
          )
      : undefined
    return {
      name: batch.id,
      metadata: {
        '@type': 'type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatch',
        model: 'models/fake',
        displayName: batch.tag,
        state,
        createTime: new Date(batch.createdAt).toISOString(),
        ...(responses === undefined ? {} : { output: { inlinedResponses: { inlinedResponses: responses } } }),
      },
    }
  }
  return startLoopbackServer(async (request: SeenRequest, response: ServerResponse) => {
    const path = request.path.split('?')[0] ?? ''
    if (request.method === 'GET' && /^\/v1(beta)?\/batches$/.test(path))
      return sendJson(response, 200, { operations: engine.listed().map(job) })
    if (request.method === 'GET' && /^\/v1(beta)?\/models\/[^/:]+$/.test(path))
      return sendJson(response, 200, { name: 'models/fake', version: '001', displayName: 'fake' })
    if (path.endsWith(':streamGenerateContent')) {
      engine.counts.ordinary++
      const body = JSON.parse(request.body) as { contents: Array<{ parts: unknown }> }
      return sendStreamed(response, 'gemini', path, engine.behaviour.answer(textOf(body.contents.at(-1)?.parts)))
    }
    if (path.endsWith(':batchGenerateContent')) {
      engine.counts.uploads++
      if (engine.behaviour.refuse !== undefined)
        return sendJson(response, 400, {
          error: { code: 400, message: engine.behaviour.refuse, status: 'INVALID_ARGUMENT' },
        })
      const body = JSON.parse(request.body) as {
        batch: {
          displayName?: string
          inputConfig: {
            requests: {
              requests: Array<{ request: { contents: Array<{ parts: unknown }> }; metadata: { key: string } }>
            }
          }
        }
      }
      const carried = body.batch.inputConfig.requests.requests.map((each) => ({
        key: each.metadata.key,
        prompt: textOf(each.request.contents.at(-1)?.parts),
      }))
      const created = engine.create(`batches/b${++made}`, carried, body.batch.displayName)
      await engine.held()
      return sendJson(response, 200, job(created))
    }
    const batch = /^\/v1(?:beta)?\/(batches\/[^/]+)$/.exec(path)
    if (batch !== null) {
      if (engine.pollFails())
        return sendJson(response, 503, { error: { code: 503, message: 'unavailable', status: 'UNAVAILABLE' } })
      const found = engine.batches.get(batch[1] ?? '')
      return found === undefined
        ? sendJson(response, 404, { error: { code: 404, message: 'no such batch', status: 'NOT_FOUND' } })
        : sendJson(response, 200, job(found))
    }
    sendJson(response, 404, { error: { code: 404, message: `no route ${path}`, status: 'NOT_FOUND' } })
  })
}

function geminiResponse(text: string): unknown {
  return {
    candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 6, totalTokenCount: 26 },
  }
}
