import { describe, expect, test } from 'vitest'
import { classify, signalFromStatus, type Ending } from '../../../adapters/sandbox/classify.ts'
import { LANGUAGE_SPECS } from '../../../adapters/sandbox/languages.ts'
import { DEFAULT_RUN_LIMITS } from '../../../adapters/sandbox/limits.ts'

const ending = (overrides: Partial<Ending>): Ending => ({
  step: 'run',
  exitCode: 0,
  signal: undefined,
  wallLimitHit: false,
  stderr: '',
  cpuMs: 10,
  peakMemoryBytes: 10_000_000,
  markerRequired: false,
  markerSeen: false,
  ...overrides,
})
const outcome = (overrides: Partial<Ending>, language: keyof typeof LANGUAGE_SPECS = 'python') =>
  classify(ending(overrides), LANGUAGE_SPECS[language], DEFAULT_RUN_LIMITS).outcome

describe('classify', () => {
  test('exit 0 passes, unless a marker was asked for and not printed', () => {
    expect(outcome({})).toBe('passed')
    expect(outcome({ markerRequired: true, markerSeen: true })).toBe('passed')
    expect(outcome({ markerRequired: true, markerSeen: false })).toBe('runtime_error')
    expect(outcome({ exitCode: 1, markerRequired: true, markerSeen: true })).toBe('runtime_error')
  })

  test('limits: wall and CPU are timeouts, memory is memory', () => {
    expect(outcome({ wallLimitHit: true, exitCode: null, signal: 'SIGKILL' })).toBe('timeout')
    expect(outcome({ exitCode: null, signal: 'SIGXCPU' })).toBe('timeout')
    expect(outcome({ exitCode: null, signal: 'SIGKILL', cpuMs: 10_000 })).toBe('timeout')
    expect(outcome({ exitCode: 1, stderr: 'Traceback (most recent call last):\n  ...\nMemoryError\n' })).toBe('memory')
    expect(
      outcome(
        { exitCode: 134, stderr: 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory' },
        'javascript',
      ),
    ).toBe('memory')
    expect(outcome({ exitCode: null, signal: 'SIGKILL', oomKilled: true })).toBe('memory')
  })

  test('a source that never ran is a compile error; a crash while running is not', () => {
    expect(
      outcome({
        exitCode: 1,
        stderr: '  File "main.py", line 1\n    def f(:\n          ^\nSyntaxError: invalid syntax\n',
      }),
    ).toBe('compile_error')
    expect(
      outcome({
        exitCode: 1,
        stderr: 'Traceback (most recent call last):\n  File "main.py", line 1\nSyntaxError: bad input\n',
      }),
    ).toBe('runtime_error')
    expect(outcome({ step: 'compile', exitCode: 1 }, 'c')).toBe('compile_error')
    expect(outcome({ exitCode: null, signal: 'SIGSEGV' }, 'c')).toBe('runtime_error')
  })

  test('exit statuses above 128 name the signal, as sandboxes report it', () => {
    expect(signalFromStatus(137)).toBe('SIGKILL')
    expect(signalFromStatus(152)).toBe('SIGXCPU')
    expect(signalFromStatus(1)).toBeUndefined()
  })
})
