import { describe, expect, test } from 'vitest'
import { exclusionOf, missingModule } from '../../../suites/bigcodebench/exclusion.ts'
import {
  judgeVerdict,
  type MethodResult,
  type RunnerVerdict,
  type TaskRun,
} from '../../../suites/bigcodebench/task-run.ts'

function run(fields: Partial<RunnerVerdict>): TaskRun {
  const methods = fields.methods ?? []
  const verdict: RunnerVerdict = {
    expected: methods.map((method) => method.name),
    tamper: [],
    fixtureErrors: [],
    finished: true,
    timedOut: false,
    childFailed: false,
    cpuMs: 5,
    wallMs: 5,
    output: '',
    ...fields,
    methods,
  }
  return judgeVerdict('BigCodeBench/1', verdict, 10)
}
const passed = (name: string): MethodResult => ({ name, status: 'passed', ms: 1 })
const failed = (name: string, detail: string): MethodResult => ({ name, status: 'failed', ms: 1, detail })
const errored = (name: string, detail: string): MethodResult => ({ name, status: 'error', ms: 1, detail })

describe('exclusionOf: why a canonical solution fails here', () => {
  test('a missing module, at import or inside a test, names the library', () => {
    const atImport = run({
      load: { stage: 'run', error: "Traceback …\nModuleNotFoundError: No module named 'tensorflow'" },
    })
    expect(exclusionOf(atImport, atImport)).toEqual({
      category: 'missing library',
      reason: "No module named 'tensorflow'",
    })
    const inTest = run({ methods: [passed('a'), errored('b', "ModuleNotFoundError: No module named 'keras.layers'")] })
    expect(missingModule(inTest)).toBe('keras')
  })

  test('NLTK data that is not installed names the resource', () => {
    const detail =
      "LookupError: \n****\n  Resource punkt not found.\n  Please use the NLTK Downloader to obtain the resource:\n\n  >>> import nltk\n  >>> nltk.download('punkt')\n****"
    const nltk = run({ methods: [errored('test_tokens', detail)] })
    expect(exclusionOf(nltk, nltk)).toEqual({
      category: 'missing data',
      reason: "NLTK data 'punkt' is not installed (nltk.download('punkt') needs the network)",
    })
  })

  test('network errors, timeouts and other steady failures get their own category', () => {
    const network = run({
      methods: [errored('test_fetch', 'requests.exceptions.ConnectionError: Max retries exceeded with url')],
    })
    expect(exclusionOf(network, network).category).toBe('network')
    const slow = run({ timedOut: true, stoppedBy: 'time', running: 'test_big', methods: [passed('test_small')] })
    expect(exclusionOf(slow, slow)).toEqual({
      category: 'timeout',
      reason: 'Stopped by its time limit of 10 s (not counting the time it waited for a CPU) in test_big.',
    })
    const version = run({ methods: [failed('test_plot', 'AssertionError: 3 != 4')] })
    expect(exclusionOf(version, version)).toEqual({
      category: 'fails here',
      reason: '1 of 1 test methods failed: test_plot. test_plot: AssertionError: 3 != 4',
    })
  })

  test('a failure that does not repeat the same way is flaky', () => {
    const first = run({ methods: [failed('test_random', 'AssertionError'), passed('test_other')] })
    expect(exclusionOf(first, run({ methods: [passed('test_random'), passed('test_other')] })).category).toBe('flaky')
    expect(
      exclusionOf(first, run({ methods: [passed('test_random'), failed('test_other', 'AssertionError')] })).category,
    ).toBe('flaky')
  })

  test('a sandbox failure is infra, which calibration does not cache', () => {
    const infra: TaskRun = { ...run({}), outcome: 'infra_error', reason: 'bwrap failed' }
    expect(exclusionOf(infra, infra)).toEqual({ category: 'infra', reason: 'bwrap failed' })
  })
})
