/**
 * One program's checks in the sandbox (runner/checks_parent.py and its child), on the made-up
 * tasks of fixtures/bigcodebench/make-tasks.py, each ending one known way.
 */
import { beforeEach, describe, expect, test } from 'vitest'
import { canonicalProgram } from '../../../suites/bigcodebench/dataset.ts'
import { runChecks, verdictLine, type RawMemoryAccess } from '../../../suites/bigcodebench/run-checks.ts'
import { describeTaskRun, type TaskRun } from '../../../suites/bigcodebench/task-run.ts'
import { fixtureTasks } from './fixture-tasks.ts'
import { isolationMissing, skipWithoutSandbox } from '../../support/sandbox-available.ts'

const MiB = 1024 * 1024

describe('runChecks: a program and its unittest checks in the sandbox', async () => {
  const tasks = await fixtureTasks()
  beforeEach((context) => skipWithoutSandbox(context))
  // Programs never run unsandboxed: without a sandbox every test skips, saying why.
  const runs = new Map<number, TaskRun>()
  /** 9016's canonical solution with the raw memory it needs. */
  let withRawMemory: TaskRun | undefined
  if (isolationMissing() === undefined) {
    const checks = (number: number, rawMemory: RawMemoryAccess): Promise<TaskRun> => {
      const task = tasks.get(number)!
      const timeLimitSeconds = number === 9006 || number === 9014 ? 2 : 30
      return runChecks({
        id: task.id,
        program: canonicalProgram(task),
        test: task.test,
        entryPoint: task.entryPoint,
        timeLimitSeconds,
        memoryBytes: 1024 * MiB,
        preload: [],
        rawMemory,
      })
    }
    await Promise.all([
      ...[...tasks.keys()].map(async (number) => runs.set(number, await checks(number, 'blocked'))),
      checks(9016, 'allowed').then((run) => (withRawMemory = run)),
    ])
  }
  const run = (number: number): TaskRun => runs.get(number)!

  test('a correct program passes, with every planned method listed', () => {
    expect(run(9001)).toMatchObject({
      id: 'BigCodeBench/9001',
      outcome: 'passed',
      finished: true,
      tamper: [],
      expected: ['test_empty', 'test_squares', 'test_two'],
    })
    expect(run(9001).methods.map((method) => [method.name, method.status])).toEqual([
      ['test_empty', 'passed'],
      ['test_squares', 'passed'],
      ['test_two', 'passed'],
    ])
    expect(run(9001).cpuMs).toBeGreaterThan(0)
  })

  test('a failed assertion is a wrong answer and names its method, with the traceback in the output', () => {
    expect(run(9002).outcome).toBe('wrong_answer')
    expect(run(9002).methods.find((method) => method.name === 'test_two')).toMatchObject({
      status: 'failed',
      detail: expect.stringContaining('AssertionError: 1 != 1.41'),
    })
    expect(describeTaskRun(run(9002))).toMatch(
      /^1 of 3 test methods failed: test_two\.\ntime limit 30000 ms; CPU \d+ ms, wall \d+ ms, \d+ ms on an idle machine's clock\n✓ test_empty passed \(\d+ ms\)\n✓ test_squares passed/,
    )
  })

  test('an exception in a method is a runtime error; a failing subtest fails its method', () => {
    expect(run(9003).outcome).toBe('runtime_error')
    expect(run(9003).methods.find((method) => method.name === 'test_empty')).toMatchObject({
      status: 'error',
      detail: expect.stringContaining('ZeroDivisionError'),
    })
    expect(run(9011)).toMatchObject({
      outcome: 'wrong_answer',
      methods: [{ name: 'test_each', status: 'failed', detail: expect.stringContaining('numbers=[2]') }],
    })
  })

  test('a missing module fails before any test, a syntax error does not compile', () => {
    expect(run(9004)).toMatchObject({
      outcome: 'runtime_error',
      load: { stage: 'run', error: expect.stringContaining("No module named 'no_such_library_for_testbench'") },
    })
    expect(run(9005)).toMatchObject({ outcome: 'compile_error', load: { stage: 'compile' } })
  })

  test('the time limit stops a program that computes forever, and one that waits, naming the method it was in', () => {
    for (const number of [9006, 9014]) {
      expect(run(number)).toMatchObject({
        outcome: 'timeout',
        running: 'test_empty',
        timedOut: true,
        stoppedBy: 'time',
      })
      expect(run(number).reason).toBe(
        'Stopped by its time limit of 2 s (not counting the time it waited for a CPU) in test_empty.',
      )
    }
    // The one that waits used (almost) no CPU: its limit is the clock's, less only what it waited for a CPU.
    expect(run(9014).cpuMs).toBeLessThan(run(9006).cpuMs)
  })

  test('leaving early, before or during the tests, never passes', () => {
    // As upstream: builtins.exit is None, so exit(0) raises before the tests.
    expect(run(9007)).toMatchObject({
      outcome: 'runtime_error',
      methods: [],
      load: { stage: 'run', error: expect.stringContaining("'NoneType' object is not callable") },
    })
    expect(run(9008)).toMatchObject({ outcome: 'runtime_error', finished: false, running: 'test_empty' })
  })

  test("a program's own prints are its output, never a verdict", () => {
    expect(run(9009)).toMatchObject({ outcome: 'passed', id: 'BigCodeBench/9009' })
    expect(run(9009).output).toContain('TESTBENCH_PASS_0')
    expect(verdictLine('TESTBENCH_PASS_0 {"methods": [], "finished": true}\n', 'TESTBENCH_PASS_1')).toBeUndefined()
  })

  test('as upstream: a writable root for absolute paths, os in the namespace, skips that the tests make count as passes', () => {
    expect(run(9010)).toMatchObject({ outcome: 'passed' })
    // A program rebinding its own globals (a counter) is not tampering with the tests' names.
    expect(run(9015)).toMatchObject({ outcome: 'passed', tamper: [] })
    expect(run(9013)).toMatchObject({ outcome: 'passed' })
    expect(run(9012)).toMatchObject({
      outcome: 'passed',
      methods: [
        { name: 'test_skipped', status: 'skipped' },
        { name: 'test_squares', status: 'passed' },
      ],
    })
  })

  test('raw memory: a program that needs it fails as tampering where it is taken away, and passes where it is allowed', () => {
    expect(run(9016).outcome).toBe('wrong_answer')
    expect(run(9016).reason).toMatch(
      /tampered with its checks: the program used ctypes\.(addressof|memmove), which this task does without/,
    )
    expect(withRawMemory).toMatchObject({ outcome: 'passed', tamper: [] })
  })

  test('raw memory: taken away, id() and default repr() still tell objects apart, stably, without their address', () => {
    expect(run(9017)).toMatchObject({ outcome: 'passed', tamper: [] })
  })
})
