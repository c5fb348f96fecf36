import { beforeEach, describe, expect, test } from 'vitest'
import type { RunResult } from '../../../adapters/sandbox/index.ts'
import { LANGUAGES } from '../../../suites/euler/languages.ts'
import { judge, mainFile, runSolution } from '../../../suites/euler/run-solution.ts'
import { skipWithoutSandbox } from '../../support/sandbox-available.ts'

function ran(stdout: string, overrides: Partial<RunResult> = {}): RunResult {
  return {
    outcome: 'passed',
    stdout: { text: stdout, truncated: false, bytes: Buffer.byteLength(stdout) },
    stderr: { text: '', truncated: false, bytes: 0 },
    exitCode: 0,
    signal: undefined,
    wallMs: 12,
    cpuMs: 10,
    peakMemoryBytes: undefined,
    compileOutput: undefined,
    markerSeen: undefined,
    reason: 'Exited 0.',
    ...overrides,
  }
}

describe('judge', () => {
  test('a program that exits 0 with the answer as its last line solved the problem', () => {
    expect(judge(ran('thinking...\n233168\n'), '233168')).toMatchObject({ outcome: 'passed' })
  })

  test('a program that ran but printed something else is a wrong answer, saying what it printed', () => {
    expect(judge(ran('233168.0\n'), '233168')).toMatchObject({
      outcome: 'wrong_answer',
      reason: 'The last line printed, "233168.0", is not the answer.',
      output: expect.stringContaining('"233168.0", is not the answer'),
    })
    expect(judge(ran(''), '233168')).toMatchObject({
      outcome: 'wrong_answer',
      output: expect.stringContaining('printed nothing'),
    })
  })

  test('output cut off by the sandbox has lost its last line: a wrong answer', () => {
    const flood = ran('1\n'.repeat(10), { stdout: { text: '1\n'.repeat(10), truncated: true, bytes: 5_000_000 } })
    expect(judge(flood, '1')).toMatchObject({
      outcome: 'wrong_answer',
      output: expect.stringContaining('5000000 bytes'),
    })
  })

  test('the sandbox’s own outcome stands, even when the answer was printed before the failure', () => {
    for (const outcome of ['compile_error', 'runtime_error', 'timeout', 'memory', 'infra_error'] as const) {
      expect(judge(ran('233168\n', { outcome, reason: `it was ${outcome}` }), '233168')).toMatchObject({
        outcome,
        output: expect.stringContaining(`it was ${outcome}`),
      })
    }
  })
})

describe('mainFile', () => {
  test('Java files are named after their public class', () => {
    expect(
      mainFile(
        'import java.util.*;\n\npublic class Solution {\n  public static void main(String[] a) {}\n}',
        LANGUAGES.java,
      ),
    ).toBe('Solution.java')
    expect(mainFile('class Helper {}\npublic final class Euler22 {}', LANGUAGES.java)).toBe('Euler22.java')
    expect(mainFile('class Only { public static void main(String[] a) {} }', LANGUAGES.java)).toBe('Only.java')
    expect(mainFile('System.out.println(1);', LANGUAGES.java)).toBe('Main.java')
  })

  test('other languages have one entry file', () => {
    expect(mainFile('public class X {}', LANGUAGES.python)).toBe('main.py')
    expect(mainFile('fn main() {}', LANGUAGES.rust)).toBe('main.rs')
    expect(mainFile('(println 1)', LANGUAGES.clojure)).toBe('main.clj')
  })
})

describe('runSolution in the sandbox', () => {
  beforeEach((context) => skipWithoutSandbox(context))
  test('a Java program whose public class is not Main compiles and runs', async (context) => {
    await skipWithoutSandbox(context, ['java'])
    const program =
      'public class Solution {\n    public static void main(String[] args) {\n        System.out.println(5050);\n    }\n}'
    expect(await runSolution(program, LANGUAGES.java, '5050', { runTimeoutMs: 60_000 })).toMatchObject({
      outcome: 'passed',
    })
  })

  test('the run limit stops a program that runs too long', async () => {
    const started = performance.now()
    expect(await runSolution('while True:\n    pass', LANGUAGES.python, '1', { runTimeoutMs: 1000 })).toMatchObject({
      outcome: 'timeout',
    })
    expect(performance.now() - started).toBeLessThan(20_000)
  })

  test('a program that prints the answer and then crashes has not solved the problem', async () => {
    expect(
      await runSolution('print(45)\nraise SystemExit(3)', LANGUAGES.python, '45', { runTimeoutMs: 60_000 }),
    ).toMatchObject({ outcome: 'runtime_error' })
  })
})
