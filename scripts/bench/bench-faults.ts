// npm run bench:faults: what a flaky provider costs. The 450 FaRel-3 quizzes through the real OpenAI SDK
// against a loopback server that answers after 200 ms, clean and with 20 % of its replies broken (every
// fault kind: reset, FIN, cut short, malformed frame, stall, 429, 503), interleaved round by round.
// Prints both scores (they must be equal, item by item), the faults injected and retried, and the
// wall-time ratio. The yardstick for the extra time is the retries' own delay: the time the broken
// attempts held the server (their latency, a stalled one's idle timeout) and the backoff waits, spread
// over the requests the clean run had in flight on average, plus the last retry's wait (the tail).
// First, the fault tables: each wire protocol's adapter alone, each fault kind at 20 % over 100 requests,
// for plain text replies and for replies that stream two tool calls (`npm run bench:faults -- --table-only`
// stops after them).
import { rmSync } from 'node:fs'
import { dirname } from 'node:path'
import { createAdapter } from '../../adapters/models/create-adapter.ts'
import { parseModel } from '../../adapters/models/model-spec.ts'
import type { ChatReply, ToolDefinition } from '../../adapters/models/model-adapter.ts'
import type { WireProtocol } from '../../adapters/models/requests/wire-check.ts'
import type { ItemRecord } from '../../harness/records/item-record.ts'
import { scoreFarel } from '../../suites/farel/score.ts'
import {
  clientEnv,
  FAULT_KINDS,
  startFaultyModelServer,
  type FaultKind,
} from '../../test/support/fault-injecting-server.ts'
import { runSuiteForRecords } from '../../test/support/run-vitest.ts'
import { steadyFarelModel } from '../../test/support/steady-model.ts'
import type { WireToolCall } from '../../test/support/wire-replies.ts'
import { refuseArguments } from '../script-usage.ts'
import { cleanUpRunOnInterrupt } from './support/interrupt-cleanup.ts'

const USAGE = `usage: npm run bench:faults [-- --table-only]
What a flaky provider costs: FaRel-3 through the OpenAI SDK against a loopback server, clean and with 20 %
of its replies broken. --table-only stops after the per-adapter fault tables.`
refuseArguments(USAGE, ['--table-only'])

const ROUNDS = 2
const LATENCY_MS = 200
const FAULT_RATE = 0.2
const CONCURRENCY = 8
const IDLE_TIMEOUT_S = 2
const RETRY_DELAY_S = 0.5

interface Measure {
  wallMs: number
  score: string
  records: ItemRecord[]
  injected: Record<FaultKind, number>
  retries: number
  /** Seconds of backoff the retries waited, and the longest single wait. */
  backoffS: number
  longestBackoffS: number
  /** The generation requests' time open on the server, summed, and the span from first to last. */
  busyMs: number
  spanMs: number
}

async function run(faulty: boolean, round: number): Promise<Measure> {
  const server = await startFaultyModelServer({
    protocol: 'openai',
    model: 'fake',
    answer: steadyFarelModel,
    latencyMs: LATENCY_MS,
    ...(faulty ? { faults: { rate: FAULT_RATE, kinds: FAULT_KINDS, seed: round } } : {}),
  })
  try {
    const started = performance.now()
    const env = {
      ...clientEnv('openai', server.url, 'fake'),
      TESTBENCH_CONCURRENCY: String(CONCURRENCY),
      TESTBENCH_IDLE_TIMEOUT: String(IDLE_TIMEOUT_S),
      TESTBENCH_RETRY_DELAY: String(RETRY_DELAY_S),
    }
    const { code, output, records, reports } = await runSuiteForRecords('farel', env, cleanUpRunOnInterrupt)
    const wallMs = performance.now() - started
    rmSync(dirname(reports), { recursive: true, force: true })
    if (records.length !== 450)
      throw new Error(
        `The ${faulty ? 'faulty' : 'clean'} FaRel run recorded ${records.length} of 450 items (exit ${code}):\n${output.slice(-3000)}`,
      )
    const retryLines = [...output.matchAll(/; retry \d+ of \d+ in ([\d.]+) s/g)]
    const waits = retryLines.map(([, seconds]) => Number(seconds))
    const [score] = scoreFarel(records)
    return {
      wallMs,
      score: score?.display ?? '?',
      records,
      injected: { ...server.injected },
      retries: retryLines.length,
      backoffS: waits.reduce((sum, each) => sum + each, 0),
      longestBackoffS: Math.max(0, ...waits),
      busyMs: server.busyMs,
      spanMs: server.spanMs,
    }
  } finally {
    await server.close()
  }
}

const differing = (a: ItemRecord[], b: ItemRecord[]): number => {
  const outcomes = new Map(a.map((record) => [`${record.itemId} #${record.sample}`, record.outcome]))
  return b.filter((record) => outcomes.get(`${record.itemId} #${record.sample}`) !== record.outcome).length
}

const TOOLS: ToolDefinition[] = [
  {
    name: 'write_file',
    description: 'Writes a file.',
    parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } },
  },
  {
    name: 'syntax_check',
    description: 'Checks a file.',
    parameters: { type: 'object', properties: { path: { type: 'string' } } },
  },
]

/** The two calls a tool-call reply streams after its text (compact JSON, which the object-sending wires give back unchanged). */
function callsFor(prompt: string): WireToolCall[] {
  return [
    {
      id: `w_${prompt}`,
      name: 'write_file',
      arguments: JSON.stringify({ path: 'main.py', content: `print(${JSON.stringify(prompt)})\n`.repeat(4) }),
    },
    { id: `c_${prompt}`, name: 'syntax_check', arguments: JSON.stringify({ path: 'main.py' }) },
  ]
}

/**
 * Each protocol's adapter, one fault kind at 20 %: the faults injected, and how many replies equal the clean
 * one (text, and with `withCalls` every call whole: its name and arguments as scripted, no call more or less).
 */
async function faultTable(withCalls: boolean): Promise<boolean> {
  const protocols: WireProtocol[] = ['openai', 'openai-responses', 'ollama', 'anthropic', 'gemini']
  const requests = 100
  const answer = (prompt: string): string => `an answer to ${prompt} that arrives in several frames`
  const whole = (reply: ChatReply, prompt: string): boolean =>
    reply.text === answer(prompt) &&
    (!withCalls ||
      JSON.stringify(reply.toolCalls?.map(({ name, arguments: text }) => [name, text])) ===
        JSON.stringify(callsFor(prompt).map(({ name, arguments: text }) => [name, text])))
  let allWhole = true
  const what = withCalls ? 'replies streaming two tool calls' : 'text replies'
  const cell = withCalls
    ? 'faults injected (of them after a call had begun to arrive) / replies equal to the clean one'
    : 'faults injected / replies equal to the clean one'
  const width = withCalls ? 16 : 11
  console.log(
    `fault table, ${what}: ${requests} requests per cell, 20 % of them broken the way the column says; cell = ${cell}`,
  )
  console.log(`${'protocol'.padEnd(10)}${FAULT_KINDS.map((kind) => kind.padStart(width)).join('')}`)
  for (const protocol of protocols) {
    const cells: string[] = []
    for (const kind of FAULT_KINDS) {
      const server = await startFaultyModelServer({
        protocol,
        model: 'fake',
        answer,
        ...(withCalls ? { toolCalls: callsFor } : {}),
        faults: { rate: FAULT_RATE, kinds: [kind], seed: 1 },
      })
      try {
        const { MODEL, ...env } = clientEnv(protocol, server.url, 'fake')
        const adapter = await createAdapter(parseModel(MODEL!), {
          ...env,
          TESTBENCH_CONCURRENCY: String(CONCURRENCY),
          TESTBENCH_IDLE_TIMEOUT: '1',
          TESTBENCH_RETRY_DELAY: '0.01',
        })
        const replies = await Promise.all(
          Array.from({ length: requests }, (_, index) =>
            adapter.chat({
              messages: [{ role: 'user', content: `q${index}` }],
              params: {},
              item: { suite: 'bench', itemId: `q${index}`, sample: 0 },
              ...(withCalls ? { tools: TOOLS } : {}),
            }),
          ),
        )
        const equal = replies.filter((reply, index) => whole(reply, `q${index}`)).length
        allWhole &&= equal === requests
        cells.push(`${server.injected[kind]}${withCalls ? ` (${server.struckCalls})` : ''} / ${equal}`.padStart(width))
      } finally {
        await server.close()
      }
    }
    console.log(`${protocol.padEnd(10)}${cells.join('')}`)
  }
  console.log()
  return allWhole
}

/** Runs `work` with stderr and console.error held back: each retry says what it saw, which here would be hundreds of lines. */
async function quietly<T>(work: () => Promise<T>): Promise<T> {
  const { write } = process.stderr
  const { error } = console
  process.stderr.write = () => true
  console.error = () => undefined
  try {
    return await work()
  } finally {
    process.stderr.write = write
    console.error = error
  }
}

const tableWhole = (await quietly(() => faultTable(false))) && (await quietly(() => faultTable(true)))
if (process.argv.includes('--table-only')) process.exit(tableWhole ? 0 : 1)

console.log(
  `FaRel-3, 450 quizzes, openai SDK → loopback server, ${LATENCY_MS} ms per reply, TESTBENCH_CONCURRENCY=${CONCURRENCY}; ` +
    `faulty runs break ${FAULT_RATE * 100} % of replies (idle timeout ${IDLE_TIMEOUT_S} s, first backoff ${RETRY_DELAY_S} s)\n`,
)
const clean: Measure[] = []
const faulty: Measure[] = []
for (let round = 1; round <= ROUNDS; round++) {
  for (const isFaulty of [false, true]) {
    const measure = await run(isFaulty, round)
    ;(isFaulty ? faulty : clean).push(measure)
    const injected = Object.values(measure.injected).reduce((sum, count) => sum + count, 0)
    const kinds = FAULT_KINDS.filter((kind) => measure.injected[kind] > 0)
      .map((kind) => `${kind} ${measure.injected[kind]}`)
      .join(', ')
    console.log(
      `round ${round} ${isFaulty ? 'faulty' : 'clean '}: ${(measure.wallMs / 1000).toFixed(1).padStart(5)} s  FaRel-3 ${measure.score}` +
        `  server busy ${(measure.busyMs / 1000).toFixed(1)} s over ${(measure.spanMs / 1000).toFixed(1)} s` +
        (isFaulty
          ? `  faults injected ${injected} (${kinds}), retried ${measure.retries}, backoff ${measure.backoffS.toFixed(1)} s`
          : ''),
    )
  }
}

const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length
const cleanMs = mean(clean.map((each) => each.wallMs))
const faultyMs = mean(faulty.map((each) => each.wallMs))
const changed = faulty.map((each) => differing(clean[0]!.records, each.records))
const retries = mean(faulty.map((each) => each.retries))
/** Requests in flight on average in the clean runs: how much work the run does side by side. */
const parallel = mean(clean.map((each) => each.busyMs / each.spanMs))
const brokenBusyS = (mean(faulty.map((each) => each.busyMs)) - mean(clean.map((each) => each.busyMs))) / 1000
const backoffS = mean(faulty.map((each) => each.backoffS))
const tailS = mean(faulty.map((each) => each.longestBackoffS)) + IDLE_TIMEOUT_S + LATENCY_MS / 1000
const budgetS = (brokenBusyS + backoffS) / parallel + tailS
const extraS = (faultyMs - cleanMs) / 1000
const cleanScores = [...new Set(clean.map((each) => each.score))].join(' / ')
const faultyScores = faulty.map((each) => each.score).join(' / ')
console.log(
  `\nscores: clean ${cleanScores}, faulty ${faultyScores}; items whose outcome changed: ${changed.join(' / ')}`,
)
const times = `clean ${(cleanMs / 1000).toFixed(1)} s, faulty ${(faultyMs / 1000).toFixed(1)} s`
console.log(
  `wall time: ${times}, ratio ${(faultyMs / cleanMs).toFixed(2)}× (${retries.toFixed(0)} retries per faulty run)`,
)
const delay = `(broken attempts ${brokenBusyS.toFixed(1)} s of server time + backoff ${backoffS.toFixed(1)} s) / ${parallel.toFixed(1)} in flight`
console.log(
  `extra time ${extraS.toFixed(1)} s; the retries' own delay ${budgetS.toFixed(1)} s = ${delay} ` +
    `+ tail ${tailS.toFixed(1)} s (longest backoff, one idle timeout, one reply): ${extraS <= budgetS ? 'within' : 'NOT within'} it`,
)
if (!tableWhole || changed.some((count) => count > 0) || faulty.some((each) => each.score !== clean[0]!.score))
  process.exitCode = 1
