// npm run bench:agent: what a conversation costs in the harness per turn, against a bare SDK loop.
// A 48-turn scripted conversation (PE-Bench's tool agent: 47 workspace calls, then deliver_code) against
// an OpenAI-compatible server on 127.0.0.1 that answers each turn at once, streamed. Run after run,
// interleaved: a bare `openai` client loop that makes the same requests and runs the same tool functions;
// the harness's converse() through the reply cache off, and on (a fresh cache, written every turn); and a
// rerun from that cache (no request). Goal: the harness's time per turn ≤ 1.2 × the bare loop's.
// BENCH_ADAPTER=openai (default) asks through the project's OpenAI adapter; BENCH_ADAPTER=sdk through a
// minimal adapter of this script making the bare loop's SDK call (the harness's overhead alone), for a
// branch whose OpenAI adapter does not map tools yet.
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { removeOnInterrupt } from './support/interrupt-cleanup.ts'
import OpenAI from 'openai'
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions'
import type { ChatReply, ChatRequest, ToolCall } from '../../adapters/models/model-adapter.ts'
import { ReplyCache } from '../../adapters/models/reply-cache.ts'
import { converse } from '../../harness/conversation/converse.ts'
import { EulerAgent } from '../../suites/euler/tools/agent-tools.ts'
import { upstreamToolResult } from '../../suites/euler/tools/tool-result.ts'
import { TOOL_LIMITS } from '../../suites/euler/tool-mode.ts'
import { refuseArguments } from '../script-usage.ts'

const USAGE = `usage: npm run bench:agent
What a conversation costs in the harness per turn, against a bare SDK loop (48 scripted turns on 127.0.0.1).
Environment: BENCH_ROUNDS (default 5), BENCH_ADAPTER (openai, the default, or sdk).`
refuseArguments(USAGE)

const TURNS = 48
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const ADAPTER = process.env.BENCH_ADAPTER ?? 'openai'
const GOAL = 1.2
const CYCLE = ['write_file', 'read_file', 'list_files', 'update_plan'] as const

/** The call the scripted model makes at a turn: four cheap tools in turn (12 calls each at most), then deliver_code. */
function scriptedCall(turn: number): { name: string; arguments: string } {
  if (turn === TURNS) return { name: 'deliver_code', arguments: JSON.stringify({ path: 'main.py' }) }
  const name = CYCLE[(turn - 1) % CYCLE.length] ?? 'list_files'
  const args =
    name === 'write_file'
      ? { path: 'main.py', content: `print(${turn})\n`.repeat(20) }
      : name === 'read_file'
        ? { path: 'main.py' }
        : name === 'update_plan'
          ? {
              plan: [
                { step: 'Write', status: 'completed' },
                { step: `Turn ${turn}`, status: 'in_progress' },
              ],
            }
          : {}
  return { name, arguments: JSON.stringify(args) }
}

function startServer(): Promise<{ server: Server; baseURL: string; requests: () => number }> {
  let requests = 0
  const server = createServer((request, response) => {
    let body = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => (body += chunk))
    request.on('end', () => {
      if (request.url?.endsWith('/models')) {
        response.writeHead(200, { 'content-type': 'application/json' })
        return response.end(
          JSON.stringify({ object: 'list', data: [{ id: 'bench', object: 'model', created: 0, owned_by: 'bench' }] }),
        )
      }
      requests++
      const messages = (JSON.parse(body) as { messages: Array<{ role: string }> }).messages
      const turn = messages.filter((message) => message.role === 'assistant').length + 1
      const call = scriptedCall(turn)
      const base = { id: `c${turn}`, object: 'chat.completion.chunk', created: 0, model: 'bench' }
      const chunks = [
        {
          ...base,
          choices: [{ index: 0, delta: { role: 'assistant', content: `Turn ${turn}.` }, finish_reason: null }],
        },
        {
          ...base,
          choices: [
            {
              index: 0,
              delta: {
                tool_calls: [
                  { index: 0, id: `call_${turn}`, type: 'function', function: { name: call.name, arguments: '' } },
                ],
              },
              finish_reason: null,
            },
          ],
        },
        {
          ...base,
          choices: [
            {
              index: 0,
              delta: { tool_calls: [{ index: 0, function: { arguments: call.arguments } }] },
              finish_reason: null,
            },
          ],
        },
        { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
        {
          ...base,
          choices: [],
          usage: { prompt_tokens: 100 * turn, completion_tokens: 20, total_tokens: 100 * turn + 20 },
        },
      ]
      response.writeHead(200, { 'content-type': 'text/event-stream' })
      response.end(`${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}data: [DONE]\n\n`)
    })
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        requests: () => requests,
      }),
    ),
  )
}

/** One streamed turn through the SDK: its text, its calls (fragments joined by index) and its usage. */
async function streamedTurn(
  client: OpenAI,
  messages: ChatCompletionMessageParam[],
  tools: ChatCompletionTool[],
): Promise<{ text: string; calls: ToolCall[]; tokens?: ChatReply['tokens'] }> {
  const stream = await client.chat.completions.create({
    model: 'bench',
    messages,
    tools,
    temperature: 0,
    stream: true,
    stream_options: { include_usage: true },
  })
  let text = ''
  const calls: ToolCall[] = []
  let tokens: ChatReply['tokens']
  for await (const chunk of stream) {
    const delta = chunk.choices[0]?.delta
    text += delta?.content ?? ''
    for (const fragment of delta?.tool_calls ?? []) {
      const call = (calls[fragment.index] ??= { id: '', name: '', arguments: '' })
      call.id ||= fragment.id ?? ''
      call.name += fragment.function?.name ?? ''
      call.arguments += fragment.function?.arguments ?? ''
    }
    if (chunk.usage) tokens = { prompt: chunk.usage.prompt_tokens, completion: chunk.usage.completion_tokens }
  }
  return { text, calls, ...(tokens ? { tokens } : {}) }
}

/** The yardstick: the SDK's streamed call, the calls joined by index, the first one run, its result sent back. */
async function bareLoop(client: OpenAI): Promise<number> {
  const agent = new EulerAgent()
  const counts = new Map<string, number>()
  const messages: ChatCompletionMessageParam[] = [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Solve the problem.' },
  ]
  for (let turn = 1; turn <= TURNS; turn++) {
    const offered: ChatCompletionTool[] = agent.tools
      .filter((tool) => (counts.get(tool.definition.name) ?? 0) < TOOL_LIMITS.callsPerTool)
      .map((tool) => ({
        type: 'function',
        function: {
          name: tool.definition.name,
          description: tool.definition.description,
          parameters: tool.definition.parameters,
        },
      }))
    const { text, calls } = await streamedTurn(client, messages, offered)
    const call = calls[0]
    if (call === undefined) throw new Error(`bare loop: turn ${turn} made no tool call`)
    const tool = agent.tools.find((candidate) => candidate.definition.name === call.name)
    if (tool === undefined) throw new Error(`bare loop: unknown tool ${call.name}`)
    counts.set(call.name, (counts.get(call.name) ?? 0) + 1)
    const answer = await tool.run(JSON.parse(call.arguments) as Parameters<typeof tool.run>[0])
    messages.push({
      role: 'assistant',
      content: text,
      tool_calls: [{ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }],
    })
    messages.push({ role: 'tool', tool_call_id: call.id, content: upstreamToolResult(call.name, answer) })
    if (answer.ends) return turn
  }
  return TURNS
}

/** A minimal adapter (BENCH_ADAPTER=sdk): the bare loop's SDK call, mapped to the harness's types. */
function sdkAsk(client: OpenAI) {
  return async (request: ChatRequest): Promise<ChatReply> => {
    const started = performance.now()
    const messages: ChatCompletionMessageParam[] = request.messages.map((message) => {
      if (message.role === 'tool') return { role: 'tool', tool_call_id: message.callId, content: message.content }
      if (message.role === 'assistant') {
        const calls = (message.toolCalls ?? []).map((call) => ({
          id: call.id,
          type: 'function' as const,
          function: { name: call.name, arguments: call.arguments },
        }))
        return { role: 'assistant', content: message.content, ...(calls.length === 0 ? {} : { tool_calls: calls }) }
      }
      return { role: message.role, content: message.content }
    })
    const tools: ChatCompletionTool[] = (request.tools ?? []).map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }))
    const { text, calls, tokens } = await streamedTurn(client, messages, tools)
    return {
      text,
      ...(calls.length === 0 ? {} : { toolCalls: calls }),
      ...(tokens ? { tokens } : {}),
      latencyMs: performance.now() - started,
    }
  }
}

async function harnessAsk(baseURL: string, client: OpenAI): Promise<(request: ChatRequest) => Promise<ChatReply>> {
  if (ADAPTER === 'sdk') return sdkAsk(client)
  process.env.OPENAI_BASE_URL = baseURL
  process.env.OPENAI_API_KEY = 'bench'
  const { OpenAIAdapter, openaiEndpoint } = await import('../../adapters/models/openai/openai.ts')
  const adapter = new OpenAIAdapter('bench', openaiEndpoint(process.env), process.env)
  return (request) => adapter.chat(request)
}

async function harnessRun(
  ask: (request: ChatRequest) => Promise<ChatReply>,
  cacheDir: string | undefined,
): Promise<number> {
  const agent = new EulerAgent()
  const model = { provider: 'openai', model: 'bench', details: {} }
  const cached = cacheDir === undefined ? ask : new ReplyCache(cacheDir, 'on').wrap(model, ask)
  const result = await converse(
    (messages, tools, params, signal) =>
      cached({
        messages,
        tools,
        params,
        item: { suite: 'euler', itemId: '0101', sample: 0 },
        ...(signal ? { signal } : {}),
      }),
    {
      messages: [
        { role: 'system', content: 'You are a coding agent.' },
        { role: 'user', content: 'Solve the problem.' },
      ],
      tools: agent.tools,
      limits: TOOL_LIMITS,
      params: { temperature: 0 },
      firstCallOnly: true,
      formatResult: upstreamToolResult,
    },
  )
  if (result.end.kind !== 'tool') {
    throw new Error(
      `the harness's conversation ended at turn ${result.trajectory.length}: ${result.end.reason} (BENCH_ADAPTER=${ADAPTER}: an OpenAI adapter without tool calls ends every conversation at turn 1; its support comes with the wire branch, BENCH_ADAPTER=sdk measures the harness without it)`,
    )
  }
  return result.trajectory.length
}

async function timed(run: () => Promise<number>): Promise<number> {
  const started = performance.now()
  const turns = await run()
  if (turns !== TURNS) throw new Error(`a run ended after ${turns} turns, not ${TURNS}`)
  return (performance.now() - started) / TURNS
}

const { server, baseURL, requests } = await startServer()
const client = new OpenAI({ baseURL, apiKey: 'bench', maxRetries: 0 })
const ask = await harnessAsk(baseURL, client)
const scratch = removeOnInterrupt(mkdtempSync(join(tmpdir(), 'bench-agent-')))
const series: Record<'bare' | 'cacheOff' | 'cacheOn' | 'cacheHit', number[]> = {
  bare: [],
  cacheOff: [],
  cacheOn: [],
  cacheHit: [],
}
try {
  // One warm-up of each, untimed: the first run of anything pays for loading and JIT.
  await bareLoop(client)
  await harnessRun(ask, undefined)
  for (let round = 1; round <= ROUNDS; round++) {
    const cacheDir = join(scratch, `round-${round}`)
    series.bare.push(await timed(() => bareLoop(client)))
    series.cacheOff.push(await timed(() => harnessRun(ask, undefined)))
    series.cacheOn.push(await timed(() => harnessRun(ask, cacheDir)))
    const before = requests()
    series.cacheHit.push(await timed(() => harnessRun(ask, cacheDir)))
    if (requests() !== before) throw new Error(`a rerun from the cache sent ${requests() - before} requests`)
    const [bare, off, on, hit] = [series.bare, series.cacheOff, series.cacheOn, series.cacheHit].map(
      (values) => values[round - 1]!,
    ) as [number, number, number, number]
    const ratios = `cache off ${(off / bare).toFixed(2)}×, on ${(on / bare).toFixed(2)}×`
    const harness = `${off.toFixed(2)} ms (cache off), ${on.toFixed(2)} ms (on), ${hit.toFixed(2)} ms (rerun, 0 requests)`
    console.log(`round ${round}: per turn bare ${bare.toFixed(2)} ms, harness ${harness}: ${ratios}`)
  }
} finally {
  server.close()
  rmSync(scratch, { recursive: true, force: true })
}
const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN
const ratioOff = median(series.cacheOff) / median(series.bare)
const ratioOn = median(series.cacheOn) / median(series.bare)
const off = `${median(series.cacheOff).toFixed(2)} ms cache off (${ratioOff.toFixed(2)}×)`
const on = `${median(series.cacheOn).toFixed(2)} ms cache on (${ratioOn.toFixed(2)}×)`
const hit = `${median(series.cacheHit).toFixed(2)} ms rerun from the cache`
console.log(
  `\nmedians per turn (${ROUNDS} rounds, ${TURNS} turns each, BENCH_ADAPTER=${ADAPTER}): bare ${median(series.bare).toFixed(2)} ms; harness ${off}, ${on}, ${hit}`,
)
console.log(
  Math.max(ratioOff, ratioOn) <= GOAL
    ? `goal met: ≤ ${GOAL}× the bare loop`
    : `goal missed: the harness takes more than ${GOAL}× the bare loop per turn`,
)
