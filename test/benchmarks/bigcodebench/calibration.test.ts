import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, test } from 'vitest'
import { claim } from '../../../suites/bigcodebench/calibration-claim.ts'
import {
  calibrate,
  exclusionsByCategory,
  taskKey,
  type CalibrationEntry,
} from '../../../suites/bigcodebench/calibration.ts'
import { bigCodeBenchTask } from '../../../suites/bigcodebench/dataset.ts'
import type { PythonEnvironment } from '../../../suites/bigcodebench/environment.ts'
import { skipWithoutSandbox } from '../../support/sandbox-available.ts'
import { fixtureTasks } from './fixture-tasks.ts'

describe('exclusionsByCategory', () => {
  test('groups excluded tasks by category in a fixed order; tasks without an entry could not be calibrated (infra)', () => {
    const entries = new Map<string, CalibrationEntry>([
      ['BigCodeBench/1', { status: 'scored', canonicalMs: 10, canonicalCpuMs: 10, rawMemory: 'blocked' }],
      ['BigCodeBench/2', { status: 'excluded', category: 'network', reason: 'gaierror' }],
      ['BigCodeBench/3', { status: 'excluded', category: 'missing library', reason: "No module named 'tensorflow'" }],
      ['BigCodeBench/4', { status: 'excluded', category: 'network', reason: 'urlopen error' }],
    ])
    expect([...exclusionsByCategory(entries)]).toEqual([
      ['missing library', ['BigCodeBench/3']],
      ['network', ['BigCodeBench/2', 'BigCodeBench/4']],
    ])
    expect([...exclusionsByCategory(entries, ['BigCodeBench/1', 'BigCodeBench/4', 'BigCodeBench/9'])]).toEqual([
      ['network', ['BigCodeBench/4']],
      ['infra', ['BigCodeBench/9']],
    ])
  })
})

describe('taskKey: a task is calibrated again only when something it depends on changed', () => {
  const task = bigCodeBenchTask(
    {
      task_id: 'BigCodeBench/1',
      complete_prompt: 'import pandas\ndef task_func():\n',
      instruct_prompt: 'i',
      canonical_solution: '    return 1\n',
      code_prompt: 'import pandas\ndef task_func():\n',
      test: 'import unittest\nclass TestCases(unittest.TestCase):\n    def test_a(self): pass\n',
      entry_point: 'task_func',
      doc_struct: '{}',
      libs: "['pandas', 'os']",
    },
    'fixture',
  )
  const environment = (
    libraries: Record<string, string>,
    interpreter = 'process 3.11.2 /usr/bin/python3 x86_64',
  ): PythonEnvironment => ({ interpreter, libraries: new Map(Object.entries(libraries)), preload: [] })
  const options = { memoryBytes: 1024, timeLimitSeconds: 240 }
  const base = taskKey(
    task,
    environment({ pandas: 'numpy==1.24.2 pandas==1.5.3', os: 'stdlib', requests: 'requests==2.28.1' }),
    options,
  )

  test('the versions of what it imports, its requirements included, the interpreter and the limits', () => {
    expect(
      taskKey(
        task,
        environment({ pandas: 'numpy==1.26.0 pandas==1.5.3', os: 'stdlib', requests: 'requests==2.28.1' }),
        options,
      ),
    ).not.toBe(base)
    expect(
      taskKey(task, environment({ pandas: 'absent', os: 'stdlib', requests: 'requests==2.28.1' }), options),
    ).not.toBe(base)
    expect(
      taskKey(
        task,
        environment({ pandas: 'numpy==1.24.2 pandas==1.5.3', os: 'stdlib' }, 'process 3.12.1 /usr/bin/python3 x86_64'),
        options,
      ),
    ).not.toBe(base)
    expect(
      taskKey(task, environment({ pandas: 'numpy==1.24.2 pandas==1.5.3', os: 'stdlib' }), {
        ...options,
        timeLimitSeconds: 10,
      }),
    ).not.toBe(base)
    expect(
      taskKey(
        { ...task, test: `${task.test}    def test_b(self): pass\n` },
        environment({ pandas: 'numpy==1.24.2 pandas==1.5.3', os: 'stdlib' }),
        options,
      ),
    ).not.toBe(base)
  })

  test('not a library it does not import', () => {
    expect(
      taskKey(
        task,
        environment({
          pandas: 'numpy==1.24.2 pandas==1.5.3',
          os: 'stdlib',
          requests: 'requests==2.31.0',
          flask: 'flask==3.0',
        }),
        options,
      ),
    ).toBe(base)
  })
})

describe('claim: one worker per task calibration', () => {
  test('a claim holds until released; one whose maker is gone is taken over', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bigcodebench-claim-'))
    try {
      const lock = join(dir, '1.json.lock')
      const first = await claim(lock, 60_000)
      expect(first).toBeDefined()
      expect(await claim(lock, 60_000)).toBeUndefined()
      await first?.release()
      const second = await claim(lock, 60_000)
      expect(second).toBeDefined()
      await second?.release()
      // A process of this host that has ended: its claim is stale at once.
      const ended = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
        encoding: 'utf8',
      })
      writeFileSync(lock, JSON.stringify({ pid: Number(ended.stdout), host: hostname(), since: Date.now() }))
      expect(await claim(lock, 60_000)).toBeDefined()
      // Another host's claim is taken over only once old.
      writeFileSync(lock, JSON.stringify({ pid: 1, host: 'elsewhere', since: Date.now() }))
      expect(await claim(lock, 60_000)).toBeUndefined()
      expect(await claim(lock, -1)).toBeDefined()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('calibrate: which tasks keep raw memory', () => {
  beforeEach((context) => skipWithoutSandbox(context))

  test('a task keeps it only when its canonical solution fails without it; a failure both ways is excluded as before', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bigcodebench-calibration-'))
    try {
      const fixtures = await fixtureTasks()
      const tasks = [9001, 9002, 9016].map((number) => fixtures.get(number)!)
      const calibration = await calibrate(tasks, {
        version: 'fixtures',
        memoryBytes: 1024 * 1024 * 1024,
        timeLimitSeconds: 30,
        env: { ...process.env, TESTBENCH_CACHE_DIR: dir },
        progress: () => {},
      })
      expect(calibration.entries.get('BigCodeBench/9001')).toMatchObject({ status: 'scored', rawMemory: 'blocked' })
      expect(calibration.entries.get('BigCodeBench/9016')).toMatchObject({ status: 'scored', rawMemory: 'allowed' })
      expect(calibration.entries.get('BigCodeBench/9002')).toMatchObject({ status: 'excluded', category: 'fails here' })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 600_000)
})
