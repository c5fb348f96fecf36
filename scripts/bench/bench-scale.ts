// npm run bench:scale: what a run costs per item as runs grow. FaRel with MODEL=reference at about
// 1,000 and 10,000 quizzes, run after run interleaved; the memory is the peak resident set of the
// whole process tree (Vitest and its workers), sampled from /proc, so this script runs on Linux only.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { killOnInterrupt, removeOnInterrupt } from './support/interrupt-cleanup.ts'
import { refuseArguments } from '../script-usage.ts'
import { treeKiB } from './support/process-tree.ts'

const USAGE = `usage: npm run bench:scale
What a run costs per item as runs grow: FaRel with MODEL=reference at about 1,000 and 10,000 quizzes
(Linux only: it reads memory from /proc).`
refuseArguments(USAGE)

const CLASSES = 9 // FaRel-3 has nine relationship classes
const SIZES = [1_000, 10_000]
const ROUNDS = 2
const GOAL_KIB_PER_ITEM = 100

if (process.platform !== 'linux') {
  console.error(`bench:scale reads memory from /proc and runs on Linux only (this is ${process.platform}).`)
  process.exit(1)
}

interface Measure {
  items: number
  wallMs: number
  peakKiB: number
}

async function run(items: number): Promise<Measure> {
  const reportDir = removeOnInterrupt(mkdtempSync(join(tmpdir(), 'testbench-bench-scale-')))
  const perClass = Math.ceil(items / CLASSES)
  const started = performance.now()
  const child = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', 'suites/farel', '--reporter=dot'], {
    env: {
      ...process.env,
      MODEL: 'reference',
      TESTBENCH_FAREL_PER_CLASS: String(perClass),
      TESTBENCH_REPORT_DIR: reportDir,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  killOnInterrupt(child)
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  let peakKiB = 0
  const sampler = setInterval(() => (peakKiB = Math.max(peakKiB, treeKiB(child.pid ?? 0))), 50)
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  clearInterval(sampler)
  const wallMs = performance.now() - started
  rmSync(reportDir, { recursive: true, force: true })
  if (code !== 0)
    throw new Error(`The run of ${perClass * CLASSES} FaRel items exited with ${code}:\n${stderr.slice(-2000)}`)
  return { items: perClass * CLASSES, wallMs, peakKiB }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

const measures = new Map<number, Measure[]>(SIZES.map((size) => [size, []]))
for (let round = 1; round <= ROUNDS; round++) {
  for (const size of SIZES) {
    const measure = await run(size)
    measures.get(size)?.push(measure)
    const items = String(measure.items).padStart(6)
    const seconds = (measure.wallMs / 1000).toFixed(1).padStart(6)
    console.log(
      `round ${round}: ${items} items  ${seconds} s  peak ${(measure.peakKiB / 1024).toFixed(0).padStart(5)} MiB`,
    )
  }
}

const [small, large] = SIZES.map((size) => {
  const runs = measures.get(size) ?? []
  return {
    items: runs[0]?.items ?? size,
    wallMs: median(runs.map((each) => each.wallMs)),
    peakKiB: median(runs.map((each) => each.peakKiB)),
  }
})
if (small === undefined || large === undefined) throw new Error('bench:scale measured nothing.')
const perItemKiB = (large.peakKiB - small.peakKiB) / (large.items - small.items)
console.log('\nmedians:')
for (const size of [small, large]) {
  const time = `${(size.wallMs / 1000).toFixed(1)} s (${((size.wallMs / size.items) * 1000).toFixed(0)} µs/item)`
  const peak = `${(size.peakKiB / 1024).toFixed(0)} MiB (${(size.peakKiB / size.items).toFixed(0)} KiB/item overall)`
  console.log(`${String(size.items).padStart(6)} items: ${time}, peak ${peak}`)
}
console.log(
  `memory per added item (10k − 1k peaks): ${perItemKiB.toFixed(1)} KiB (goal ≤ ${GOAL_KIB_PER_ITEM} KiB: ${perItemKiB <= GOAL_KIB_PER_ITEM ? 'met' : 'NOT met'})`,
)
console.log(
  `wall time per item, 10k / 1k: ${(large.wallMs / large.items / (small.wallMs / small.items)).toFixed(2)}× (1.00× = linear)`,
)
