import type { WireProtocol } from '../../adapters/models/requests/wire-check.ts'
import { startFaultyModelServer } from './fault-injecting-server.ts'
import { startLoopbackServer, type LoopbackServer } from './loopback-server.ts'
import { streamedReply, type ReplyShape } from './wire-replies.ts'

export interface ScriptedOptions {
  /** What Ollama's /api/show lists as the model's capabilities (`vision`, `thinking`, `tools`); unset: none listed, as older Ollamas answer. */
  capabilities?: readonly string[]
}

/**
 * A loopback model that answers its n-th generation request with the n-th scripted reply (the last one
 * again after that), and the up-front lookups as the fault-injecting server does.
 */
export async function startScriptedModelServer(
  protocol: WireProtocol,
  replies: ReadonlyArray<{ text: string } & ReplyShape>,
  options: ScriptedOptions = {},
): Promise<LoopbackServer> {
  const lookups = await startFaultyModelServer({ protocol, model: 'fake', answer: () => '' })
  let turn = 0
  const server = await startLoopbackServer(async (request, response) => {
    if (request.path === '/api/show' && options.capabilities !== undefined) {
      response.writeHead(200, { 'content-type': 'application/json' })
      return void response.end(JSON.stringify({ details: {}, model_info: {}, capabilities: options.capabilities }))
    }
    if (request.method !== 'POST' || request.path === '/api/show') {
      const upstream = await fetch(`${lookups.url}${request.path}`, {
        method: request.method,
        ...(request.method === 'GET' ? {} : { body: request.body }),
      })
      response.writeHead(upstream.status, {
        'content-type': upstream.headers.get('content-type') ?? 'application/json',
      })
      return void response.end(Buffer.from(await upstream.arrayBuffer()))
    }
    const { text, ...shape } = replies[Math.min(turn++, replies.length - 1)]!
    const reply = streamedReply(protocol, request.path, text, shape)
    response.writeHead(200, { 'content-type': reply.contentType })
    response.end(reply.frames.join(''))
  })
  return {
    ...server,
    close: async () => {
      await server.close()
      await lookups.close()
    },
  }
}
