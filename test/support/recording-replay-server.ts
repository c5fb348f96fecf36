import type { ServerResponse } from 'node:http'
import seedrandom from 'seedrandom'
import type { JsonValue } from '../../adapters/models/model-adapter.ts'
import { sendJson, startLoopbackServer, type LoopbackServer, type SeenRequest } from './loopback-server.ts'
import { sendCase, type WireCase } from './wire-recordings.ts'

/** One benchmark item of a run: strings every request of it carries, and the recording its first turn gets. */
export interface ReplayedItem {
  needles: readonly string[]
  wireCase: WireCase
}

export interface ReplayPlan {
  /** The model a MODEL names, as the model checks list it. */
  model: string
  items: readonly ReplayedItem[]
  /** What answers a later turn: a request that carries the model's earlier turn back. */
  followup?: WireCase
  seed: string
}

export interface ReplayServer extends LoopbackServer {
  /** Per item (its index in the plan), the generation requests' bodies in arrival order. */
  generations: Map<number, Array<Record<string, JsonValue>>>
  /** Requests the server had no answer for (404), which no adapter should make. */
  unanswered: SeenRequest[]
}

/**
 * A provider on 127.0.0.1 for a whole suite run: it answers the model checks each adapter makes before the
 * first item (OpenAI's and OpenRouter's model list, Anthropic's and Gemini's model get, Ollama's tags and
 * show), and each generation request with its item's recording, or the follow-up for a later turn, split at
 * random places. An item is known by the strings its prompt holds, as the server cannot know the item's id.
 */
export async function startReplayServer(plan: ReplayPlan): Promise<ReplayServer> {
  const random = seedrandom(plan.seed)
  const generations = new Map<number, Array<Record<string, JsonValue>>>()
  const unanswered: SeenRequest[] = []
  const server = await startLoopbackServer(async (request, response) => {
    const path = request.path.split('?')[0] ?? ''
    if (answersModelCheck(plan.model, request.method, path, response)) return
    if (request.method !== 'POST' || !GENERATION_PATH.test(path)) {
      unanswered.push(request)
      response.writeHead(404).end()
      return
    }
    const index = plan.items.findIndex((item) =>
      item.needles.every((needle) => request.body.includes(JSON.stringify(needle).slice(1, -1))),
    )
    const item = plan.items[index]
    if (item === undefined) throw new Error(`startReplayServer: no item of the plan matches ${request.body}`)
    const body = JSON.parse(request.body) as Record<string, JsonValue>
    generations.set(index, [...(generations.get(index) ?? []), body])
    const later = earlierTurns(body) > 0
    if (later && plan.followup === undefined) throw new Error('startReplayServer: a later turn, and no follow-up')
    await sendCase(response, later && plan.followup ? plan.followup : item.wireCase, random)
  })
  return Object.assign(server, { generations, unanswered })
}

const GENERATION_PATH = /\/chat\/completions$|\/v1\/responses$|\/v1\/messages$|:streamGenerateContent$|\/api\/chat$/

/**
 * How many of the model's own turns a request carries back (OpenAI, Anthropic and Ollama `messages`, Gemini
 * `contents`, the Responses API's `input`: the assistant's messages and calls).
 */
function earlierTurns(body: Record<string, JsonValue>): number {
  const turns = (body.messages ?? body.contents ?? body.input ?? []) as Array<{ role?: string; type?: string }>
  return turns.filter((turn) => turn.role === 'assistant' || turn.role === 'model' || turn.type === 'function_call')
    .length
}

function answersModelCheck(model: string, method: string, path: string, response: ServerResponse): boolean {
  if (method === 'GET' && path === '/v1/models') {
    sendJson(response, 200, { object: 'list', data: [{ id: model, object: 'model', created: 0, owned_by: 'replay' }] })
    return true
  }
  if (method === 'GET' && path === `/v1/models/${model}`) {
    sendJson(response, 200, { type: 'model', id: model, display_name: model, created_at: '2025-01-01T00:00:00Z' })
    return true
  }
  if (method === 'GET' && path === `/v1beta/models/${model}`) {
    sendJson(response, 200, {
      name: `models/${model}`,
      version: '001',
      displayName: model,
      inputTokenLimit: 1_048_576,
      outputTokenLimit: 65_536,
      supportedGenerationMethods: ['generateContent'],
      thinking: true,
    })
    return true
  }
  const details = { format: 'gguf', family: 'replay', parameter_size: '8B', quantization_level: 'Q4_K_M' }
  if (method === 'GET' && path === '/api/tags') {
    const digest = 'a'.repeat(64)
    sendJson(response, 200, {
      models: [{ name: model, model, modified_at: '2025-01-01T00:00:00Z', size: 1, digest, details }],
    })
    return true
  }
  if (method === 'POST' && path === '/api/show') {
    sendJson(response, 200, {
      details,
      model_info: { 'general.architecture': 'replay', 'replay.context_length': 32_768 },
      capabilities: ['completion', 'tools', 'thinking'],
    })
    return true
  }
  return false
}
