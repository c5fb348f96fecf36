// npm run bench:batch: a run of 1,143 made-up one-shot items (FaRel quizzes, 127 per class) through the loopback
// OpenAI batch server, which answers every batch in a set time: the requests the run sent (uploads, creates,
// polls, downloads), the harness's memory per waiting item (peak resident set of Vitest and its workers, from
// /proc, against the same run of 9 items), and its wall time beyond the server's batch time. Linux only.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { killOnInterrupt, removeOnInterrupt } from './support/interrupt-cleanup.ts'
import { BatchEngine, startOpenAIBatchServer } from '../../test/support/batch-loopback.ts'
import { refuseArguments } from '../script-usage.ts'
import { treeKiB } from './support/process-tree.ts'

const USAGE = `usage: npm run bench:batch
1,143 made-up one-shot items (FaRel) through the loopback OpenAI batch server, whose batches take
BENCH_BATCH_SECONDS (default 120): requests sent, memory per waiting item (against a run of 9 items),
and wall time beyond the batch time (Linux only: it reads memory from /proc).`
refuseArguments(USAGE)

const CLASSES = 9 // FaRel-3 has nine relationship classes
const PER_CLASS = { few: 1, many: 127 }
const BATCH_SECONDS = Number(process.env.BENCH_BATCH_SECONDS ?? 120)
const GOAL_KIB_PER_ITEM = 100
const GOAL_BEYOND = 0.05

if (process.platform !== 'linux') {
  console.error(`bench:batch reads memory from /proc and runs on Linux only (this is ${process.platform}).`)
  process.exit(1)
}

interface Measure {
  items: number
  wallMs: number
  /** From the run's start to the batch's create, and from the batch's end (at the server) to the run's exit. */
  beforeMs: number
  afterMs: number
  /** Peak resident set of the run's process tree while its items waited on the batch. */
  waitingKiB: number
  counts: BatchEngine['counts']
}

async function run(perClass: number): Promise<Measure> {
  const engine = new BatchEngine({ batchMs: BATCH_SECONDS * 1000, answer: () => 'I cannot tell.' })
  const server = await startOpenAIBatchServer(engine)
  const dir = removeOnInterrupt(mkdtempSync(join(tmpdir(), 'testbench-bench-batch-')))
  const started = Date.now()
  const child = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', 'suites/farel', '--reporter=dot'], {
    env: {
      ...process.env,
      MODEL: 'openai:fake',
      OPENAI_BASE_URL: `${server.url}/v1`,
      OPENAI_API_KEY: 'bench',
      TESTBENCH_BATCH: 'on',
      TESTBENCH_FAREL_PER_CLASS: String(perClass),
      TESTBENCH_CACHE_DIR: join(dir, 'cache'),
      TESTBENCH_REPORT_DIR: join(dir, 'reports'),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  killOnInterrupt(child)
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  let waitingKiB = 0
  const sampler = setInterval(() => {
    if (engine.batches.size > 0) waitingKiB = Math.max(waitingKiB, treeKiB(child.pid ?? 0))
  }, 200)
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  const ended = Date.now()
  clearInterval(sampler)
  await server.close()
  rmSync(dir, { recursive: true, force: true })
  const batches = [...engine.batches.values()]
  if (code === null || batches.length === 0)
    throw new Error(`The run of ${perClass * CLASSES} FaRel items exited with ${code}:\n${stderr.slice(-2000)}`)
  const created = Math.min(...batches.map((batch) => batch.createdAt))
  const batchEnd = Math.max(...batches.map((batch) => batch.createdAt)) + BATCH_SECONDS * 1000
  return {
    items: perClass * CLASSES,
    wallMs: ended - started,
    beforeMs: created - started,
    afterMs: ended - batchEnd,
    waitingKiB,
    counts: engine.counts,
  }
}

const few = await run(PER_CLASS.few)
const many = await run(PER_CLASS.many)
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`
for (const measure of [few, many]) {
  const { uploads, creates, polls, downloads, ordinary } = measure.counts
  console.log(
    `${String(measure.items).padStart(5)} items: ${uploads} uploads, ${creates} creates, ${polls} polls, ${downloads} downloads, ${ordinary} asked one by one; ` +
      `wall ${seconds(measure.wallMs)} (before the batch ${seconds(measure.beforeMs)}, after it ${seconds(measure.afterMs)}); ` +
      `peak while waiting ${(measure.waitingKiB / 1024).toFixed(0)} MiB`,
  )
}
const perItemKiB = (many.waitingKiB - few.waitingKiB) / (many.items - few.items)
const overallKiB = many.waitingKiB / many.items
const memoryMet = perItemKiB <= GOAL_KIB_PER_ITEM ? 'met' : 'NOT met'
console.log(
  `memory per added waiting item (${many.items} − ${few.items} items): ${perItemKiB.toFixed(1)} KiB ` +
    `(goal ≤ ${GOAL_KIB_PER_ITEM} KiB: ${memoryMet}); the whole tree over ${many.items} items: ${overallKiB.toFixed(0)} KiB each`,
)
const batchMs = BATCH_SECONDS * 1000
const beyond = (many.wallMs - batchMs) / batchMs
const percent = (share: number) => `${(share * 100).toFixed(1)} %`
console.log(
  `wall time beyond the server's ${BATCH_SECONDS} s batch: ${percent(beyond)} ` +
    `(goal ≤ ${percent(GOAL_BEYOND)}: ${beyond <= GOAL_BEYOND ? 'met' : 'NOT met'}): ` +
    `${percent(many.beforeMs / batchMs)} before it was created (Vitest, the items, TESTBENCH_BATCH_WAIT), ` +
    `${percent(many.afterMs / batchMs)} after it ended (the last poll, the results, scoring, reports)`,
)
