import { beforeEach, describe, expect, test } from 'vitest'
import { canonicalProgram } from '../../../suites/bigcodebench/dataset.ts'
import { runBatch, testProgram } from '../../../suites/bigcodebench/run-batch.ts'
import { describeTaskRun } from '../../../suites/bigcodebench/task-run.ts'
import { fixtureTasks } from './fixture-tasks.ts'
import { isolationMissing, skipWithoutSandbox } from '../../support/sandbox-available.ts'

const MiB = 1024 * 1024

describe('runBatch: the unittest runner in the sandbox', async () => {
  const tasks = await fixtureTasks()
  const numbers = [...tasks.keys()]
  beforeEach((context) => skipWithoutSandbox(context))
  // Programs never run unsandboxed: without a sandbox every test skips, saying why.
  const runs = isolationMissing() !== undefined ? [] : await runBatch(
    numbers.map((number) => {
      const task = tasks.get(number)!
      return { id: task.id, program: testProgram(canonicalProgram(task), task.test), limitMs: number === 9006 ? 4000 : 20_000 }
    }),
    { memoryBytes: 1024 * MiB, preload: ['math', 'json'] },
  )
  const run = (number: number) => runs[numbers.indexOf(number)]!

  test('a correct program passes, with every method listed', () => {
    expect(run(9001)).toMatchObject({ id: 'BigCodeBench/9001', outcome: 'passed', finished: true })
    expect(run(9001).methods.map((method) => [method.name, method.status])).toEqual([
      ['test_empty', 'passed'],
      ['test_squares', 'passed'],
      ['test_two', 'passed'],
    ])
  })

  test('a failed assertion is a wrong answer and names its method, with the traceback in the output', () => {
    expect(run(9002).outcome).toBe('wrong_answer')
    expect(run(9002).methods.find((method) => method.name === 'test_two')).toMatchObject({ status: 'failed', detail: expect.stringContaining('AssertionError: 1 != 1.41') })
    expect(describeTaskRun(run(9002))).toMatch(/^1 of 3 test methods failed: test_two\.\n✓ test_empty passed \(\d+ ms\)\n✓ test_squares passed/)
  })

  test('an exception in a method is a runtime error', () => {
    expect(run(9003).outcome).toBe('runtime_error')
    expect(run(9003).methods.find((method) => method.name === 'test_empty')).toMatchObject({ status: 'error', detail: expect.stringContaining('ZeroDivisionError') })
  })

  test('a missing module fails before any test, a syntax error does not compile', () => {
    expect(run(9004)).toMatchObject({ outcome: 'runtime_error', load: { stage: 'run', error: expect.stringContaining("No module named 'no_such_library_for_testbench'") } })
    expect(run(9005)).toMatchObject({ outcome: 'compile_error', load: { stage: 'compile' } })
  })

  test('the time limit stops a program that never ends, naming the method it was in', () => {
    expect(run(9006)).toMatchObject({ outcome: 'timeout', running: 'test_empty', timedOut: true })
    expect(run(9006).wallMs).toBeLessThan(8000)
  })

  test('leaving early, before or during the tests, never passes', () => {
    expect(run(9007)).toMatchObject({ outcome: 'runtime_error', methods: [], load: { stage: 'run', error: expect.stringContaining('SystemExit') } })
    expect(run(9008)).toMatchObject({ outcome: 'runtime_error', finished: false, running: 'test_empty' })
  })

  test("a program's own prints cannot pose as the runner's results", () => {
    expect(run(9009)).toMatchObject({ outcome: 'passed', id: 'BigCodeBench/9009' })
    expect(run(9009).output).toContain('BCB-RESULT')
    expect(runs).toHaveLength(numbers.length)
  })
})
