/**
 * Programs that try to forge a pass, replayed through the real suite as samples of one task, with
 * the task's canonical solution as the last sample of the same run (the others' siblings, served
 * at the same time by the same warm interpreters): none may pass or be an infra_error, the
 * canonical solution must pass, and nothing they started may outlive the run. The task does
 * without raw memory (calibration says so), so the suite takes it away; the programs that write
 * raw memory run once more with it allowed, as a task that needs ctypes would have it, where only
 * the checks' memory digest stands in their way.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeEach, describe, expect, test } from 'vitest'
import type { ItemRecord } from '../../../harness/records/item-record.ts'
import { cacheDir } from '../../../harness/knobs.ts'
import { canonicalProgram, loadBigCodeBench } from '../../../suites/bigcodebench/dataset.ts'
import { runChecks } from '../../../suites/bigcodebench/run-checks.ts'
import type { TaskRun } from '../../../suites/bigcodebench/task-run.ts'
import { sandboxConcurrency } from '../../../adapters/sandbox/concurrency.ts'
import { killProcessesWith } from '../../support/host-processes.ts'
import { runSuiteForRecords } from '../../support/run-vitest.ts'
import { skipWithoutSandbox } from '../../support/sandbox-available.ts'
import { datasetEnv, datasetOrSkip, withDatasets } from '../../support/test-datasets.ts'
import { HOSTILE_PROGRAMS, LEFTOVER_SLEEP } from './hostile-programs.ts'
import { RAW_MEMORY_PROGRAMS } from './raw-memory-programs.ts'

const TASK = 'BigCodeBench/4'
const PROGRAMS = [...HOSTILE_PROGRAMS, ...RAW_MEMORY_PROGRAMS]

describe('BigCodeBench: programs that try to forge their checks', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bigcodebench-hostile-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  let run: Promise<{ records: ItemRecord[]; output: string }> | undefined

  /** One run for all the tests below: every hostile program and the canonical solution, as samples of TASK. */
  function hostileRun(): Promise<{ records: ItemRecord[]; output: string }> {
    run ??= (async () => {
      const task = (await loadBigCodeBench('full', withDatasets())).find((candidate) => candidate.id === TASK)
      if (task === undefined) throw new Error(`${TASK} is not in the dataset`)
      const samples = [...PROGRAMS.map((hostile) => hostile.solution), canonicalProgram(task)]
      const replay = join(dir, 'hostile--bigcodebench-complete--sanitized-calibrated.jsonl')
      writeFileSync(replay, samples.map((solution) => JSON.stringify({ task_id: TASK, solution })).join('\n') + '\n')
      const { records, output } = await runSuiteForRecords('bigcodebench', {
        ...datasetEnv(),
        TESTBENCH_CACHE_DIR: cacheDir(),
        MODEL: `replay:${replay}`,
        SAMPLES: String(samples.length),
        TESTBENCH_BIGCODEBENCH_TASKS: TASK.split('/')[1] ?? '',
        // Lower than the official 240 s, for the programs that would spin until the limit.
        TESTBENCH_BIGCODEBENCH_TIME_LIMIT: '20',
      })
      return { records, output }
    })()
    return run
  }

  beforeEach(async (context) => {
    await skipWithoutSandbox(context)
    await datasetOrSkip(context, (env) => loadBigCodeBench('full', env))
  })

  test.for(PROGRAMS.map((hostile, sample) => ({ ...hostile, sample })))(
    '$name: fails, and not as an infra error',
    { timeout: 900_000 },
    async ({ sample, reason }) => {
      const { records, output } = await hostileRun()
      const record = records.find((candidate) => candidate.sample === sample)
      expect(record, output.slice(-3000)).toBeDefined()
      expect(record?.outcome).not.toBe('passed')
      expect(record?.outcome).not.toBe('infra_error')
      if (reason !== undefined) expect(`${record?.reason}\n${record?.output}`).toMatch(reason)
    },
  )

  test('the canonical solution, run beside them, passes', async () => {
    const { records, output } = await hostileRun()
    expect(records, output.slice(-3000)).toHaveLength(PROGRAMS.length + 1)
    expect(records.find((record) => record.sample === PROGRAMS.length)).toMatchObject({ outcome: 'passed' })
  }, 900_000)

  test('nothing they started outlives the run', async () => {
    await hostileRun()
    expect(killProcessesWith(`sleep ${LEFTOVER_SLEEP}`)).toEqual([])
  }, 900_000)
})

describe('BigCodeBench: programs that write raw memory, in a task that keeps raw memory', () => {
  let runs: Promise<{ hostile: TaskRun[]; canonical: TaskRun }> | undefined

  /** Each program, and the canonical solution, with raw memory allowed: a few at a time, straight to the checks. */
  function allowedRuns(): Promise<{ hostile: TaskRun[]; canonical: TaskRun }> {
    runs ??= (async () => {
      const task = (await loadBigCodeBench('full', withDatasets())).find((candidate) => candidate.id === TASK)
      if (task === undefined) throw new Error(`${TASK} is not in the dataset`)
      const programs = [...RAW_MEMORY_PROGRAMS.map((hostile) => hostile.solution), canonicalProgram(task)]
      const results: TaskRun[] = []
      let next = 0
      const worker = async (): Promise<void> => {
        for (let index = next++; index < programs.length; index = next++) {
          const program = programs[index] ?? ''
          results[index] = await runChecks({
            id: task.id,
            program,
            test: task.test,
            entryPoint: task.entryPoint,
            timeLimitSeconds: 20,
            memoryBytes: 2048 * 1024 * 1024,
            preload: ['numpy', 'pandas'],
            rawMemory: 'allowed',
          })
        }
      }
      await Promise.all(Array.from({ length: sandboxConcurrency() }, worker))
      return { hostile: results.slice(0, -1), canonical: results.at(-1) as TaskRun }
    })()
    return runs
  }

  beforeEach(async (context) => {
    await skipWithoutSandbox(context)
    await datasetOrSkip(context, (env) => loadBigCodeBench('full', env))
  })

  test.for(RAW_MEMORY_PROGRAMS.map((hostile, index) => ({ ...hostile, index })))(
    '$name: fails as tampering',
    { timeout: 900_000 },
    async ({ index, reason }) => {
      const run = (await allowedRuns()).hostile[index]
      expect(run?.outcome).not.toBe('passed')
      expect(run?.outcome).not.toBe('infra_error')
      if (reason !== undefined) expect(run?.reason).toMatch(reason)
    },
  )

  test('the canonical solution, with raw memory allowed, passes', async () => {
    expect((await allowedRuns()).canonical).toMatchObject({ outcome: 'passed', tamper: [] })
  }, 900_000)
})
