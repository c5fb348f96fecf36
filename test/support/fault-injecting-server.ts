import type { ServerResponse } from 'node:http'
import type { WireProtocol } from '../../adapters/models/requests/wire-check.ts'
import { sendJson, startLoopbackServer, type LoopbackServer, type SeenRequest } from './loopback-server.ts'
import { promptOf, streamedReply, type StreamedReply, type WireToolCall } from './wire-replies.ts'

/**
 * How real servers and proxies break a streamed reply:
 * - `reset`: the connection is reset (RST) in the middle of the body;
 * - `fin`: the connection is closed (FIN) in the middle of the body, the chunked encoding left open;
 * - `cut-short`: the body ends cleanly, but before the protocol's end marker;
 * - `malformed`: one frame is broken JSON, the rest arrives as usual;
 * - `stall`: a few frames, then silence with the connection left open;
 * - `http-429` (with `Retry-After: 0`) and `http-503`: the server refuses before any body.
 */
export const FAULT_KINDS = ['reset', 'fin', 'cut-short', 'malformed', 'stall', 'http-429', 'http-503'] as const
export type FaultKind = (typeof FAULT_KINDS)[number]

export interface FaultPlan {
  /** Share of generation requests that get a fault, 0..1. */
  rate: number
  kinds: readonly FaultKind[]
  /** Seed of the pseudo-random choice of which request breaks, and how. */
  seed?: number
}

export interface FaultyServerOptions {
  protocol: WireProtocol
  /** The model's name, as its up-front check must find it. */
  model: string
  /** What the model answers to a prompt: the same every time it is asked. */
  answer: (prompt: string) => string
  /** The tool calls the model makes after its text, the same every time it is asked; none by default. */
  toolCalls?: (prompt: string) => readonly WireToolCall[]
  faults?: FaultPlan
  /** Delay before each generation reply's first byte. */
  latencyMs?: number
  /** How the model ends its replies, in the protocol's words; its usual `stop` by default. */
  finishReason?: string
}

export interface FaultyServer extends LoopbackServer {
  /** Generation requests answered whole. */
  whole: number
  /** Faults injected, by kind. */
  injected: Record<FaultKind, number>
  /** Faults that struck a reply after a tool call had begun to arrive (a frame of it sent, or the broken frame one of its own or later). */
  struckCalls: number
  /** The most generation requests that were open at once. */
  mostInFlight: number
  /** Generation requests' time open, summed (ms), and the span from the first one's start to the last one's end. */
  busyMs: number
  spanMs: number
}

/** A model server on 127.0.0.1 that speaks one wire protocol for real, and breaks a share of its replies on purpose. */
export async function startFaultyModelServer(options: FaultyServerOptions): Promise<FaultyServer> {
  const { protocol, model, faults, latencyMs = 0 } = options
  const random = mulberry32(faults?.seed ?? 1)
  const injected = Object.fromEntries(FAULT_KINDS.map((kind) => [kind, 0])) as Record<FaultKind, number>
  const state = { whole: 0, struckCalls: 0, inFlight: 0, mostInFlight: 0, busyMs: 0, firstAt: 0, lastAt: 0 }
  const server = await startLoopbackServer(async (request, response) => {
    if (answerUpFrontCheck(protocol, model, request, response)) return
    if (!isGeneration(protocol, request.path))
      return sendJson(response, 404, { error: { message: `no route ${request.path}` } })
    const openedAt = performance.now()
    if (state.firstAt === 0) state.firstAt = openedAt
    state.inFlight++
    state.mostInFlight = Math.max(state.mostInFlight, state.inFlight)
    response.on('close', () => {
      state.inFlight--
      state.lastAt = performance.now()
      state.busyMs += state.lastAt - openedAt
    })
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs))
    const prompt = promptOf(protocol, request)
    const shape = {
      ...(options.finishReason === undefined ? {} : { finishReason: options.finishReason }),
      ...(options.toolCalls === undefined ? {} : { toolCalls: options.toolCalls(prompt) }),
    }
    const reply = streamedReply(protocol, request.path, options.answer(prompt), shape)
    const kinds = faults?.kinds ?? []
    const fault =
      kinds.length > 0 && random() < (faults?.rate ?? 0) ? kinds[Math.floor(random() * kinds.length)] : undefined
    if (fault === undefined) {
      state.whole++
      return send(response, reply, reply.frames.length, 'end')
    }
    injected[fault]++
    const struck = breakReply(protocol, fault, response, reply, random)
    if (reply.firstCallFrame !== undefined && struck > reply.firstCallFrame) state.struckCalls++
  })
  return {
    ...server,
    injected,
    get whole() {
      return state.whole
    },
    get struckCalls() {
      return state.struckCalls
    },
    get mostInFlight() {
      return state.mostInFlight
    },
    get busyMs() {
      return state.busyMs
    },
    get spanMs() {
      return state.lastAt - state.firstAt
    },
  }
}

/** Breaks the reply as `fault` says; returns how many frames arrived intact before the break (0 for a refusal). */
function breakReply(
  protocol: WireProtocol,
  fault: FaultKind,
  response: ServerResponse,
  reply: StreamedReply,
  random: () => number,
): number {
  const count = reply.frames.length
  /** A cut point that leaves out at least the last frame, which carries the end marker. */
  const cut = 1 + Math.floor(random() * (count - 1))
  switch (fault) {
    case 'http-429':
      sendJson(response, 429, errorBody(protocol, 'rate limited'), { 'retry-after': '0' })
      return 0
    case 'http-503':
      sendJson(response, 503, errorBody(protocol, 'overloaded'))
      return 0
    case 'reset':
    case 'fin':
    case 'stall':
      send(response, reply, cut, fault)
      return cut
    case 'cut-short': {
      // A chat completion whose finish_reason came is whole without `[DONE]` (llama-box ends so): cut before it.
      const ending = protocol === 'openai' ? reply.frames.findIndex((frame) => /"finish_reason":"/.test(frame)) : -1
      const short = ending > 0 ? Math.min(cut, ending) : cut
      send(response, reply, short, 'end')
      return short
    }
    case 'malformed': {
      const broken = Math.floor(random() * count)
      const frames = reply.frames.map((frame, index) => (index === broken ? malformed(frame) : frame))
      send(response, { ...reply, frames }, count, 'end')
      return broken + 1
    }
  }
}

/** An error body as each provider writes one. */
function errorBody(protocol: WireProtocol, message: string): unknown {
  if (protocol === 'ollama') return { error: message }
  if (protocol === 'anthropic') return { type: 'error', error: { type: 'overloaded_error', message } }
  if (protocol === 'gemini') return { error: { code: 503, message, status: 'UNAVAILABLE' } }
  return { error: { message, type: 'server_error' } }
}

/** Writes the first `count` frames, each flushed on its own, then ends the way `ending` says. */
function send(
  response: ServerResponse,
  reply: StreamedReply,
  count: number,
  ending: 'end' | 'reset' | 'fin' | 'stall',
): void {
  response.writeHead(200, { 'content-type': reply.contentType, 'cache-control': 'no-cache' })
  response.flushHeaders()
  for (const frame of reply.frames.slice(0, count)) response.write(frame)
  const socket = response.socket
  if (ending === 'end') response.end()
  // Let the frames reach the client before the connection goes, as a proxy dropping a reply mid-way would.
  else if (ending === 'reset') setTimeout(() => socket?.resetAndDestroy(), 5)
  else if (ending === 'fin') setTimeout(() => socket?.end(), 5)
  // `stall` sends nothing more; the client gives up, or the server's close ends the connection.
}

/** The frame with its JSON cut in half: an SSE event keeps its framing, an NDJSON line its newline. */
function malformed(frame: string): string {
  const body = frame.trimEnd()
  const ending = frame.slice(body.length)
  const start = body.indexOf('{')
  if (start === -1) return `data: {"broken": ${ending}` // `[DONE]` itself
  return `${body.slice(0, start + Math.ceil((body.length - start) / 2))}${ending}`
}

function isGeneration(protocol: WireProtocol, path: string): boolean {
  switch (protocol) {
    case 'openai':
      return path.endsWith('/chat/completions') || path.endsWith('/completions')
    case 'openai-responses':
      return path.endsWith('/responses') || path.endsWith('/completions')
    case 'ollama':
      return path === '/api/chat' || path === '/api/generate'
    case 'anthropic':
      return path.startsWith('/v1/messages')
    case 'gemini':
      return path.includes(':streamGenerateContent')
  }
}

/** Answers each protocol's model lookup, which the adapters' up-front checks make; false for any other request. */
function answerUpFrontCheck(
  protocol: WireProtocol,
  model: string,
  request: SeenRequest,
  response: ServerResponse,
): boolean {
  if (request.method !== 'GET' && !(protocol === 'ollama' && request.path === '/api/show')) return false
  switch (protocol) {
    case 'openai':
    case 'openai-responses':
      if (!request.path.endsWith('/models')) return false
      sendJson(response, 200, { object: 'list', data: [{ id: model, object: 'model', created: 0, owned_by: 'test' }] })
      return true
    case 'ollama':
      if (request.path === '/api/tags') {
        const details = {
          format: 'gguf',
          family: 'fake',
          families: ['fake'],
          parameter_size: '1B',
          quantization_level: 'Q4_K_M',
        }
        sendJson(response, 200, {
          models: [
            { name: model, model, modified_at: '2026-01-01T00:00:00Z', size: 1, digest: 'f'.repeat(64), details },
          ],
        })
        return true
      }
      if (request.path === '/api/show') {
        sendJson(response, 200, {
          details: {},
          model_info: { 'general.architecture': 'fake', 'fake.context_length': 8192 },
        })
        return true
      }
      return false
    case 'anthropic':
      if (!request.path.startsWith('/v1/models/')) return false
      sendJson(response, 200, { id: model, type: 'model', display_name: model, created_at: '2026-01-01T00:00:00Z' })
      return true
    case 'gemini':
      if (!request.path.includes(`/models/${model}`)) return false
      sendJson(response, 200, { name: `models/${model}`, version: '001', displayName: model })
      return true
  }
}

/** A small seeded generator, so a fault run can be repeated exactly. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** `MODEL` and the variables that point a provider of `protocol` at a loopback server. */
export function clientEnv(protocol: WireProtocol, url: string, model: string): Record<string, string> {
  switch (protocol) {
    case 'openai':
      return { MODEL: `openai:${model}`, OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: 'test-key' }
    case 'openai-responses':
      return {
        MODEL: `openai:${model}`,
        OPENAI_BASE_URL: `${url}/v1`,
        OPENAI_API_KEY: 'test-key',
        TESTBENCH_OPENAI_API: 'responses',
      }
    case 'ollama':
      return { MODEL: `ollama:${model}`, OLLAMA_HOST: url }
    case 'anthropic':
      return { MODEL: `anthropic:${model}`, ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: 'test-key' }
    case 'gemini':
      return { MODEL: `google:${model}`, GOOGLE_GEMINI_BASE_URL: url, GEMINI_API_KEY: 'test-key' }
  }
}
