import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { ServerResponse } from 'node:http'
import seedrandom from 'seedrandom'
import type { WireProtocol } from '../../adapters/models/requests/wire-check.ts'
import { startLoopbackServer, type LoopbackServer } from './loopback-server.ts'

/**
 * Response bodies real provider APIs sent, recorded by other projects: `../shared/wire-recordings` beside the
 * repository, never copied into it (its README says where each comes from and how each is framed).
 */
export const WIRE_RECORDINGS_DIR = resolve(import.meta.dirname, '..', '..', '..', 'shared', 'wire-recordings')

export const WIRE_RECORDINGS_MISSING = `needs the recorded provider responses in ${WIRE_RECORDINGS_DIR} (cases.json and recordings/), which are not there`

/** One recorded response, as `cases.json` describes it. */
export interface WireCase {
  name: string
  protocol: WireProtocol
  /** The provider prefix a MODEL names it by: `openai`, `openrouter`, `anthropic`, `google`, `ollama`. */
  provider: string
  /** `sse`/`ndjson`: bytes as recorded; `chunks`: one payload a line, to frame; `json`: an error body. */
  format: 'sse' | 'ndjson' | 'chunks' | 'json' | 'json-response'
  file: string
  /** The folder `file` is in (set on loading). */
  dir: string
  /** `tool`: the reply holds a tool call; `demo`: text. */
  suite: 'tool' | 'demo'
  status?: number
  headers?: Record<string, string>
  expect?: 'error' | 'retry'
  error_text?: string
  attempts?: number
  then?: string
  retry_after_s?: number
  error_ok?: string
  reasoning_back?: string
  /** What the recorded client sent next: Anthropic's assistant blocks, OpenRouter's reasoning_details, a Responses `input`. */
  sent_back?: {
    assistant?: unknown[]
    reasoning_details?: unknown[]
    input?: Array<Record<string, unknown>>
    store?: boolean
    include?: string[]
  }
}

export interface WireCases {
  cases: WireCase[]
  /** Per protocol, the recorded text reply that answers a follow-up request. */
  followups: Partial<Record<WireProtocol, string>>
}

/** The cases, or undefined where the folder is absent. */
export function wireCases(dir = WIRE_RECORDINGS_DIR): WireCases | undefined {
  const file = join(dir, 'cases.json')
  if (!existsSync(file)) return undefined
  const loaded = JSON.parse(readFileSync(file, 'utf8')) as WireCases
  return { ...loaded, cases: loaded.cases.map((each) => ({ ...each, dir })) }
}

/** Made-up replies in the providers' own shapes for what the recordings lack, framed and checked as they are. */
export const WIRE_SHAPES_DIR = resolve(import.meta.dirname, '..', '..', 'fixtures', 'wire-shapes')

/** The bytes a server sends for a case: as recorded, or each payload framed as its protocol documents it. */
export function caseBody(wireCase: WireCase): Buffer {
  const raw = readFileSync(join(wireCase.dir, wireCase.file))
  if (wireCase.format !== 'chunks') return raw
  const payloads = raw
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
  const framed = payloads.map((payload) => {
    switch (wireCase.protocol) {
      case 'anthropic':
        return `event: ${(JSON.parse(payload) as { type: string }).type}\ndata: ${payload}\n\n`
      case 'gemini':
        return `data: ${payload}\r\n\r\n`
      case 'ollama':
        return `${payload}\n`
      case 'openai':
        return `data: ${payload}\n\n`
      case 'openai-responses':
        return `event: ${(JSON.parse(payload) as { type: string }).type}\ndata: ${payload}\n\n`
    }
  })
  return Buffer.from(framed.join('') + (wireCase.protocol === 'openai' ? 'data: [DONE]\n\n' : ''), 'utf8')
}

const CONTENT_TYPES: Record<WireProtocol, string> = {
  openai: 'text/event-stream',
  'openai-responses': 'text/event-stream',
  anthropic: 'text/event-stream',
  gemini: 'text/event-stream',
  ollama: 'application/x-ndjson',
}

/**
 * A server on 127.0.0.1 that answers each generation request with the next of `script`'s cases, its body split
 * at `pieces` random places (seeded) and each piece written on its own turn of the event loop, so the client
 * meets frames, lines and UTF-8 characters cut anywhere. Other requests (model checks) get 404.
 */
export async function serveRecordings(
  script: readonly WireCase[],
  seed: string,
  pieces = 24,
): Promise<LoopbackServer & { generations: number }> {
  const random = seedrandom(seed)
  let served = 0
  const server = await startLoopbackServer(async (request, response) => {
    if (request.method !== 'POST') {
      response.writeHead(404).end()
      return
    }
    const wireCase = script[Math.min(served, script.length - 1)]
    served++
    if (wireCase === undefined) throw new Error('serveRecordings: an empty script')
    await sendCase(response, wireCase, random, pieces)
  })
  return Object.defineProperty(server as LoopbackServer & { generations: number }, 'generations', {
    get: () => served,
  })
}

/** Answers with a case: a recorded error with its status and headers, a stream split at `pieces` random places. */
export async function sendCase(
  response: ServerResponse,
  wireCase: WireCase,
  random: () => number,
  pieces = 24,
): Promise<void> {
  const body = caseBody(wireCase)
  if (wireCase.format === 'json' || wireCase.format === 'json-response') {
    const status = wireCase.status ?? (wireCase.format === 'json' ? 500 : 200)
    response.writeHead(status, wireCase.headers ?? { 'content-type': 'application/json' })
    response.end(body)
    return
  }
  await sendSplit(response, CONTENT_TYPES[wireCase.protocol], body, pieces, random)
}

async function sendSplit(
  response: ServerResponse,
  contentType: string,
  body: Buffer,
  pieces: number,
  random: () => number,
): Promise<void> {
  response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-cache' })
  response.flushHeaders()
  const cuts = [...new Set(Array.from({ length: pieces }, () => 1 + Math.floor(random() * (body.length - 1))))]
  cuts.sort((a, b) => a - b)
  let from = 0
  for (const cut of [...cuts, body.length]) {
    response.write(body.subarray(from, cut))
    from = cut
    await new Promise((resolve) => setTimeout(resolve, 0))
  }
  response.end()
}
