// npm run bench:throughput: how close a model-bound suite comes to the model's limit. FaRel's 450
// quizzes against an OpenAI-compatible server on 127.0.0.1 that takes 200 ms per reply (BENCH_REPLY_MS=1000: 1 s), at
// TESTBENCH_CONCURRENCY = 8, 32, 64, run after run interleaved with a bare `openai` client loop
// (scripts/bench/support/bare-openai-loop.ts: the same 450 streamed requests, c at a time, nothing else).
// Each run is timed by the server, from the first request to the last reply: the ideal is
// 450 · 0.2 s / c; no schedule can beat ⌈450 / c⌉ · 0.2 s (the last round), so that floor is shown too.
// The server answers each quiz right (it draws the same quizzes), so the run does what a good model's run does.
// The whole command's wall time (start-up, collection and reports included) is printed beside it, and the
// machine's load (1-minute load average) after each run: on a loaded machine the bare loop falls short too.
// And the CPU time each run spent in its window (its whole process tree, read from /proc on Linux; the server's apart),
// with the cores that CPU keeps busy at the goal's pace: where that is near this machine's cores (less what the load
// takes), no schedule here can meet the goal.
// Then the rate-limited case (scripts/bench/support/rate-limited-case.ts): the same quizzes against a server that enforces a limit,
// and the limiters case: each limit providers run (a token bucket, fixed and sliding windows, tokens per minute, 429s
// without headers) at 300 and 3,000 requests a minute and at 60, judged against the larger of the time the limit allows
// and the same run's against a server with no limit.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { killOnInterrupt, removeOnInterrupt } from './support/interrupt-cleanup.ts'
import { farelOptions } from '../../suites/farel/options.ts'
import { generateQuizzes } from '../../suites/farel/quiz.ts'
import { limitersCase, rateLimitedCase } from './support/rate-limited-case.ts'
import { treeCpuMs } from './support/process-tree.ts'
import { refuseArguments } from '../script-usage.ts'

const USAGE = `usage: npm run bench:throughput
How close a model-bound suite comes to the model's limit: FaRel's 450 quizzes against a loopback server,
next to a bare openai loop. Environment: BENCH_REPLY_MS (default 200), BENCH_CONCURRENCIES (default
8,32,64), BENCH_ROUNDS (default 3), BENCH_CASES (default throughput,rate-limited,limiters), BENCH_CPU_PROF (a
folder: CPU profiles of every process of each run); for the limiters case BENCH_LIMITERS (bucket,fixed,sliding,tpm,
retry-after,429-only), BENCH_RATES (requests a minute:items, default 300:450,3000:450,60:60), BENCH_MINUTE_MS.`
refuseArguments(USAGE)

const ITEMS = 450
const REPLY_MS = Number(process.env.BENCH_REPLY_MS ?? 200)
if (!Number.isInteger(REPLY_MS) || REPLY_MS < 1)
  throw new Error(`BENCH_REPLY_MS=${process.env.BENCH_REPLY_MS} is not a whole number of milliseconds ≥ 1.`)
/** BENCH_CONCURRENCIES=64 measures one level only; BENCH_ROUNDS=1 one round. */
const CONCURRENCIES = (process.env.BENCH_CONCURRENCIES ?? '8,32,64').split(',').map(Number)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
/** BENCH_TRACE=1 prints, after each run, the requests in flight every 100 ms (where a run loses time). */
const TRACE = process.env.BENCH_TRACE === '1'
/** BENCH_CPU_PROF=<folder>: each run's processes write their CPU profiles there (Vitest passes --cpu-prof to its workers). */
const PROFILE = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []
const GOAL = 0.9
const CORES = availableParallelism()
const CASES = new Set((process.env.BENCH_CASES ?? 'throughput,rate-limited,limiters').split(','))
/** The rate-limited case runs at the highest concurrency measured. */
const RATE_LIMITED_CONCURRENCY = Math.max(...CONCURRENCIES)
const CORRECT = new Map(generateQuizzes(farelOptions({})).map((quiz) => [quiz.prompt, quiz.correct]))

interface Window {
  /** `seconds:in flight` every 100 ms, with BENCH_TRACE=1. */
  trace: string[]
  requests: number
  /** TCP connections opened for them: reuse keeps this near the concurrency, not the request count. */
  connections: number
  firstMs: number
  lastMs: number
  maxInFlight: number
  /** CPU time in the window, in ms: the command's whole process tree, and this process (the server). */
  clientCpuMs: number
  serverCpuMs: number
  /** The command's CPU time before the first request (start-up: Vitest, workers, modules), in ms. */
  startupCpuMs: number
}

/** CPU time so far: the watched command's process tree (ms) and this process's own. */
interface CpuMark {
  client: number
  server: NodeJS.CpuUsage
}

/** The server: `/v1/models`, and chat completions streamed after REPLY_MS; it times each run's window. */
function startServer(): Promise<BenchServer> {
  let window = emptyWindow()
  let inFlight = 0
  let watched: number | undefined
  let first: CpuMark | undefined
  const mark = (): CpuMark => ({ client: watched === undefined ? 0 : treeCpuMs(watched), server: process.cpuUsage() })
  const sampler = TRACE
    ? setInterval(
        () =>
          window.requests > 0 &&
          window.trace.push(`${((performance.now() - window.firstMs) / 1000).toFixed(1)}:${inFlight}`),
        100,
      )
    : undefined
  sampler?.unref()
  const server = createServer((request, response) => {
    let body = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => (body += chunk))
    request.on('end', () => {
      if (request.url === '/v1/models')
        return sendJson(response, {
          object: 'list',
          data: [{ id: 'bench', object: 'model', created: 0, owned_by: 'bench' }],
        })
      if (request.url !== '/v1/chat/completions')
        return sendJson(response, { error: { message: `no route ${request.url}` } }, 404)
      if (window.requests++ === 0) {
        window.firstMs = performance.now()
        first = mark()
        window.startupCpuMs = first.client
      }
      window.maxInFlight = Math.max(window.maxInFlight, ++inFlight)
      setTimeout(() => {
        streamAnswer(response, answerTo(body))
        inFlight--
        window.lastMs = performance.now()
        if (window.requests < ITEMS || inFlight > 0 || first === undefined) return
        const last = mark()
        window.clientCpuMs = last.client - first.client
        const server = process.cpuUsage(first.server)
        window.serverCpuMs = (server.user + server.system) / 1000
      }, REPLY_MS)
    })
  })
  server.keepAliveTimeout = 60_000
  server.on('connection', () => window.connections++)
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        watch: (pid) => (watched = pid),
        take: () => {
          const taken = window
          window = emptyWindow()
          first = undefined
          return taken
        },
        close: () => server.close(),
      }),
    ),
  )
}

function emptyWindow(): Window {
  return {
    trace: [],
    requests: 0,
    connections: 0,
    firstMs: 0,
    lastMs: 0,
    maxInFlight: 0,
    clientCpuMs: 0,
    serverCpuMs: 0,
    startupCpuMs: 0,
  }
}

function sendJson(response: ServerResponse, body: unknown, status = 200): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
}

/** The right option for a FaRel quiz, and 1 for anything else (the bare loop's questions). */
function answerTo(body: string): number {
  const { messages } = JSON.parse(body) as { messages: Array<{ content: string }> }
  return CORRECT.get(messages.at(-1)?.content ?? '') ?? 1
}

function streamAnswer(response: ServerResponse, answer: number): void {
  const base = { id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 0, model: 'bench' }
  const events = [
    {
      ...base,
      choices: [
        { index: 0, delta: { role: 'assistant', content: `<ANSWER>${answer}</ANSWER>` }, finish_reason: 'stop' },
      ],
    },
    { ...base, choices: [], usage: { prompt_tokens: 100, completion_tokens: 5, total_tokens: 105 } },
  ]
  response.writeHead(200, { 'content-type': 'text/event-stream' })
  response.end(`${events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('')}data: [DONE]\n\n`)
}

type Measure = Pick<Window, 'connections' | 'maxInFlight' | 'clientCpuMs' | 'serverCpuMs' | 'startupCpuMs'> & {
  windowMs: number
  wallMs: number
}

interface BenchServer {
  url: string
  /** The command whose process tree's CPU time the next window counts. */
  watch: (pid: number) => void
  take: () => Window
  close: () => void
}

async function runCommand(
  command: string[],
  env: NodeJS.ProcessEnv,
  server: BenchServer,
  what: string,
): Promise<Measure> {
  server.take()
  const started = performance.now()
  const child = spawn(process.execPath, [...PROFILE, ...command], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  killOnInterrupt(child)
  if (child.pid !== undefined) server.watch(child.pid)
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  const wallMs = performance.now() - started
  const window = server.take()
  if (code !== 0) throw new Error(`${what} exited with ${code}:\n${stderr.slice(-3000)}`)
  if (window.requests !== ITEMS) throw new Error(`${what} sent ${window.requests} chat requests, not ${ITEMS}.`)
  if (TRACE) console.log(`${what}: ${window.trace.join(' ')}`)
  return {
    windowMs: window.lastMs - window.firstMs,
    wallMs,
    maxInFlight: window.maxInFlight,
    connections: window.connections,
    clientCpuMs: window.clientCpuMs,
    serverCpuMs: window.serverCpuMs,
    startupCpuMs: window.startupCpuMs,
  }
}

function farelRun(server: BenchServer, concurrency: number): Promise<Measure> {
  const dir = removeOnInterrupt(mkdtempSync(join(tmpdir(), 'testbench-bench-throughput-')))
  const env = {
    MODEL: 'openai:bench',
    OPENAI_BASE_URL: server.url,
    OPENAI_API_KEY: 'bench',
    TESTBENCH_CONCURRENCY: String(concurrency),
    TESTBENCH_CACHE: 'off',
    TESTBENCH_REPORT_DIR: dir,
  }
  const measured = runCommand(
    ['node_modules/vitest/vitest.mjs', 'run', '--project', 'suites', 'suites/farel', '--reporter=dot'],
    env,
    server,
    `FaRel at c = ${concurrency}`,
  )
  return measured.finally(() => rmSync(dir, { recursive: true, force: true }))
}

function bareRun(server: BenchServer, concurrency: number): Promise<Measure> {
  return runCommand(
    ['scripts/bench/support/bare-openai-loop.ts', server.url, String(ITEMS), String(concurrency)],
    {},
    server,
    `the bare loop at c = ${concurrency}`,
  )
}

/**
 * `CPU 3.10 s (6.9 ms a request) + server 0.21 s, 2.40 s before`: what the window cost the command's processes and
 * the server, and what the command spent before its first request (start-up, outside the window).
 */
function cpuText({ clientCpuMs, serverCpuMs, startupCpuMs }: Measure): string {
  const client = `CPU ${(clientCpuMs / 1000).toFixed(2)} s (${(clientCpuMs / ITEMS).toFixed(1)} ms a request)`
  return `${client} + server ${(serverCpuMs / 1000).toFixed(2)} s, ${(startupCpuMs / 1000).toFixed(2)} s before`
}

/**
 * The cores a run keeps busy at the goal's pace: its window's CPU time (client and server) over the longest window
 * that meets the goal (0.9 of the floor). Where that is near or above this machine's cores, less what other work
 * takes of them (the load), no schedule can meet the goal here:
 * `c=64: CPU a request in the window: testbench 6.6 ms + server 0.4, … at the goal's pace that keeps 1.77 of … 2 cores busy`.
 */
function cpuNeedText(concurrency: number, bench: Measure[], bare: Measure[]): string {
  const goalWindow = (Math.ceil(ITEMS / concurrency) * REPLY_MS) / GOAL
  const perRequest = (runs: Measure[]) => ({
    client: median(runs.map((each) => each.clientCpuMs)) / ITEMS,
    server: median(runs.map((each) => each.serverCpuMs)) / ITEMS,
  })
  const cores = ({ client, server }: { client: number; server: number }) =>
    (((client + server) * ITEMS) / goalWindow).toFixed(2)
  const [ours, theirs] = [perRequest(bench), perRequest(bare)]
  const each = ({ client, server }: { client: number; server: number }) =>
    `${client.toFixed(1)} ms + server ${server.toFixed(1)}`
  return (
    `c=${String(concurrency).padStart(2)}: CPU a request in the window: testbench ${each(ours)}, bare loop ${each(theirs)};` +
    ` at the goal's pace that keeps ${cores(ours)} of this machine's ${CORES} cores busy (bare loop ${cores(theirs)})`
  )
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

if (CASES.has('throughput')) await throughputCase()
if (CASES.has('rate-limited')) await rateLimitedCase(RATE_LIMITED_CONCURRENCY, REPLY_MS)
if (CASES.has('limiters')) await limitersCase(RATE_LIMITED_CONCURRENCY, REPLY_MS)

/** Each concurrency, run after run: FaRel through testbench, then the bare loop, against the 200 ms server. */
async function throughputCase(): Promise<void> {
  const server = await startServer()
  const results = new Map<string, Measure[]>()
  const record = (key: string, measure: Measure) => results.set(key, [...(results.get(key) ?? []), measure])
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      for (const concurrency of CONCURRENCIES) {
        for (const [kind, run] of [
          ['testbench', farelRun],
          ['bare openai', bareRun],
        ] as const) {
          const measure = await run(server, concurrency)
          record(`${kind}\u0000${concurrency}`, measure)
          const ideal = (ITEMS * REPLY_MS) / concurrency
          const requests = `${(measure.windowMs / 1000).toFixed(2)} s requests (${(ideal / measure.windowMs).toFixed(2)} of ideal)`
          const whole = `${(measure.wallMs / 1000).toFixed(2)} s whole command`
          const inFlight = `max ${measure.maxInFlight} in flight over ${measure.connections} connections`
          const load = `load ${loadavg()[0]?.toFixed(1) ?? '?'}`
          console.log(
            `round ${round}  c=${String(concurrency).padStart(2)}  ${kind.padEnd(11)}  ${requests}, ${whole}, ${inFlight}, ${cpuText(measure)} (${load})`,
          )
        }
      }
    }
  } finally {
    server.close()
  }

  console.log(
    `\nmedians over ${ROUNDS} rounds; ideal = ${ITEMS} · ${REPLY_MS / 1000} s / c; floor = ⌈${ITEMS} / c⌉ · ${REPLY_MS / 1000} s; fraction = ideal / time, goal ≥ ${GOAL}`,
  )
  for (const concurrency of CONCURRENCIES) {
    const ideal = (ITEMS * REPLY_MS) / concurrency
    const floor = Math.ceil(ITEMS / concurrency) * REPLY_MS
    // 450 items in waves of c: the last wave is part-full, so even a perfect schedule stays below the ideal.
    if (ideal / floor < GOAL) {
      const waves = `⌈${ITEMS} / ${concurrency}⌉ = ${Math.ceil(ITEMS / concurrency)} waves`
      const most = `the ideal counts ${(ITEMS / concurrency).toFixed(2)}: at most ${(ideal / floor).toFixed(2)}`
      console.log(
        `c=${String(concurrency).padStart(2)}: no schedule reaches ${GOAL} of the ideal here (${waves} where ${most}); the goal is judged against the floor`,
      )
    }
    const line = (['testbench', 'bare openai'] as const).map((kind) => {
      const runs = results.get(`${kind}\u0000${concurrency}`) ?? []
      const windowMs = median(runs.map((each) => each.windowMs))
      const wallMs = median(runs.map((each) => each.wallMs))
      return {
        kind,
        windowMs,
        wallMs,
        fraction: ideal / windowMs,
        wallFraction: ideal / wallMs,
        inFlight: Math.max(...runs.map((each) => each.maxInFlight)),
      }
    })
    const [bench, bare] = line
    if (!bench || !bare) continue
    const benchFloor = `${(floor / bench.windowMs).toFixed(2)} of the floor; whole command ${bench.wallFraction.toFixed(2)}`
    const bareFloor = `floor ${(floor / bare.windowMs).toFixed(2)}; whole ${bare.wallFraction.toFixed(2)}`
    const goal = bench.fraction >= GOAL ? 'met' : floor / bench.windowMs >= GOAL ? 'met against the floor' : 'NOT met'
    console.log(
      `c=${String(concurrency).padStart(2)}: testbench ${bench.fraction.toFixed(2)} of ideal (${benchFloor}), max ${bench.inFlight} in flight` +
        ` · bare openai loop ${bare.fraction.toFixed(2)} (${bareFloor}) · ` +
        `ratio ${(bench.fraction / bare.fraction).toFixed(2)} · goal ${goal}`,
    )
    const runs = (kind: string) => results.get(`${kind}\u0000${concurrency}`) ?? []
    console.log(cpuNeedText(concurrency, runs('testbench'), runs('bare openai')))
  }
}
