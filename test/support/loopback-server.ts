import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface SeenRequest {
  method: string
  path: string
  headers: IncomingMessage['headers']
  body: string
}

export type Handler = (request: SeenRequest, response: ServerResponse) => void | Promise<void>

export interface LoopbackServer {
  url: string
  /** Every request the server saw, in arrival order. */
  seen: SeenRequest[]
  close(): Promise<void>
}

/** A real HTTP server on 127.0.0.1 that speaks whatever the handler says, for driving the real SDKs. */
export async function startLoopbackServer(handler: Handler): Promise<LoopbackServer> {
  const seen: SeenRequest[] = []
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => {
      const request = {
        method: incoming.method ?? 'GET',
        path: incoming.url ?? '/',
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      }
      seen.push(request)
      Promise.resolve(handler(request, response)).catch((error: unknown) => {
        response.statusCode = 500
        response.end(String(error))
      })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers })
  response.end(JSON.stringify(body))
}

/** Server-sent events, as OpenAI and Anthropic stream them. */
export function sendEvents(response: ServerResponse, events: Array<{ event?: string; data: unknown }>): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  for (const { event, data } of events) {
    if (event) response.write(`event: ${event}\n`)
    response.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`)
  }
  response.end()
}

/** Newline-delimited JSON, as Ollama streams. */
export function sendNdjson(response: ServerResponse, lines: unknown[]): void {
  response.writeHead(200, { 'content-type': 'application/x-ndjson' })
  for (const line of lines) response.write(`${JSON.stringify(line)}\n`)
  response.end()
}
