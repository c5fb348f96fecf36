// npm run bench:slots: what the run-wide slot protocol (harness/run-wide/run-slots.ts) costs alone, in CPU a task. A slot server
// in this process, 2 worker processes, each running 450 tasks of 20 ms in 5 rounds (as part files one after another:
// a round's slots go back when it ends) under one key at TESTBENCH_CONCURRENCY 64; each task reports to the pace as a
// model request does. Printed: the workers' and the server's CPU a task, 3 runs (the tasks' own timers included).
import { fork } from 'node:child_process'
import { runWideLimiter, startSlotServer } from '../../harness/run-wide/run-slots.ts'
import { refuseArguments } from '../script-usage.ts'

const USAGE = `usage: npm run bench:slots
The CPU the run-wide slot protocol costs a task: a slot server, 2 worker processes, 900 tasks of 20 ms at limit 64.`

const WORKERS = 2
const TASKS_PER_WORKER = 450
const ROUNDS = 5
const LIMIT = 64
const TASK_MS = 20
const RUNS = 3
/** Set in a worker process: the slot server's address. */
const WORKER_OF = process.env.BENCH_SLOTS_SERVER

if (WORKER_OF !== undefined) await runWorker(WORKER_OF)
else {
  refuseArguments(USAGE)
  for (let run = 1; run <= RUNS; run++) {
    const { workerMs, serverMs } = await measure()
    const tasks = WORKERS * TASKS_PER_WORKER
    console.log(
      `run ${run}: workers ${(workerMs / tasks).toFixed(3)} ms of CPU a task, server ${(serverMs / tasks).toFixed(3)} ms`,
    )
  }
}

async function measure(): Promise<{ workerMs: number; serverMs: number }> {
  const server = await startSlotServer()
  const before = process.cpuUsage()
  const workers = await Promise.all(
    Array.from(
      { length: WORKERS },
      () =>
        new Promise<number>((resolve, reject) => {
          const worker = fork(import.meta.filename, [], { env: { ...process.env, BENCH_SLOTS_SERVER: server.address } })
          worker.once('message', (cpuMs) => resolve(Number(cpuMs)))
          worker.once('exit', (code) =>
            reject(new Error(`a bench:slots worker exited (code ${code}) before it reported.`)),
          )
        }),
    ),
  )
  const used = process.cpuUsage(before)
  await server.close()
  return { workerMs: workers.reduce((sum, each) => sum + each, 0), serverMs: (used.user + used.system) / 1000 }
}

async function runWorker(address: string): Promise<void> {
  const limited = runWideLimiter(address, 'endpoint:bench', LIMIT)
  const task = async (report: (signal: { throttled: false }) => void): Promise<void> => {
    await new Promise((resolve) => setTimeout(resolve, TASK_MS))
    report({ throttled: false })
  }
  const before = process.cpuUsage()
  for (let round = 0; round < ROUNDS; round++)
    await Promise.all(Array.from({ length: TASKS_PER_WORKER / ROUNDS }, () => limited(task)))
  const used = process.cpuUsage(before)
  process.send?.((used.user + used.system) / 1000)
  process.disconnect?.()
}
