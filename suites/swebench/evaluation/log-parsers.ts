/**
 * Test logs read into test id → status, one parser per log format of the
 * SWE-bench repositories. The formats (and the quirks each parser tolerates) are
 * those SWE-bench's harness reads (swebench/harness/log_parsers).
 */

export const TEST_STATUSES = ['PASSED', 'FAILED', 'SKIPPED', 'ERROR', 'XFAIL'] as const
export type TestStatus = (typeof TEST_STATUSES)[number]
export type TestStatusMap = Map<string, TestStatus>

export const LOG_PARSERS = {
  pytest: parsePytestLog,
  'pytest-options': parsePytestLogWithOptions,
  'pytest-v2': parsePytestLogV2,
  django: parseDjangoLog,
  sympy: parseSympyLog,
  matplotlib: parseMatplotlibLog,
  seaborn: parseSeabornLog,
} satisfies Record<string, (log: string) => TestStatusMap>

export type LogParserName = keyof typeof LOG_PARSERS

export function parseTestLog(parser: LogParserName, log: string): TestStatusMap {
  return LOG_PARSERS[parser](log)
}

const STATUS = TEST_STATUSES.join('|')
const STATUS_FIRST = new RegExp(`^(${STATUS})\\s+(\\S+)`)
const TEST_FIRST = new RegExp(`^(\\S+)\\s+(${STATUS})(?:\\s|$)`)

/** `PASSED tests/x.py::test_a` (pytest -rA summary) or `tests/x.py::test_a PASSED` (verbose progress). */
function pytestResult(line: string): [string, TestStatus] | undefined {
  const statusFirst = STATUS_FIRST.exec(line)
  if (statusFirst) {
    const status = statusFirst[1] as TestStatus
    let name = statusFirst[2] ?? ''
    // `FAILED tests/x.py::test_a - AssertionError: …`
    if (status === 'FAILED') name = words(line.replace(' - ', ' '))[1] ?? name
    // `SKIPPED [2] tests/x.py:10: reason` counts skips, it names no test.
    if (status === 'SKIPPED' && /^\[\d+\]/.test(name)) return undefined
    return [name, status]
  }
  const testFirst = TEST_FIRST.exec(line)
  return testFirst ? [testFirst[1] ?? '', testFirst[2] as TestStatus] : undefined
}

export function parsePytestLog(log: string): TestStatusMap {
  const statuses: TestStatusMap = new Map()
  for (const line of log.split('\n')) {
    const result = pytestResult(line)
    if (result) statuses.set(...result)
  }
  return statuses
}

/** pytest, with parameters that are absolute paths shortened to their last part, as the dataset's ids have them. */
export function parsePytestLogWithOptions(log: string): TestStatusMap {
  const statuses: TestStatusMap = new Map()
  for (const [name, status] of parsePytestLog(log)) statuses.set(shortenPathOption(name), status)
  return statuses
}

function shortenPathOption(name: string): string {
  const match = /^(.*?)\[(.*)\]/.exec(name)
  if (!match) return name
  const [, main = '', option = ''] = match
  const shortened =
    option.startsWith('/') && !option.startsWith('//') && !option.includes('*')
      ? `/${option.split('/').pop() ?? ''}`
      : option
  return `${main}[${shortened}]`
}

/** pytest whose output carries colour codes and other control characters. */
export function parsePytestLogV2(log: string): TestStatusMap {
  const statuses: TestStatusMap = new Map()
  for (const raw of log.split('\n')) {
    // eslint-disable-next-line no-control-regex
    const line = raw.replace(/\[(\d+)m/g, '').replace(/[\u0001-\u001f]/g, '')
    const result = pytestResult(line)
    if (result) statuses.set(...result)
  }
  return statuses
}

/** Django's runner at verbosity 2: `test_a (app.tests.ATest) ... ok`, `... FAIL`, `... ERROR`, `... skipped '…'`. */
export function parseDjangoLog(log: string): TestStatusMap {
  const statuses: TestStatusMap = new Map()
  let previous: string | undefined
  for (const raw of log.split('\n')) {
    const line = raw.trim()
    if (line.includes('--version is equivalent to version'))
      statuses.set('--version is equivalent to version', 'PASSED')
    if (line.includes(' ... ')) previous = line.split(' ... ')[0]
    const passed = [' ... ok', ' ... OK', ' ...  OK'].find((suffix) => line.endsWith(suffix))
    if (passed !== undefined) {
      // A migration's output can run into the test's line: `Applying sites.0002…test_no_migrations (…) ... ok`.
      const text = line.startsWith('Applying sites.0002_alter_domain_unique...')
        ? line.slice(line.indexOf('...') + 3).trim()
        : line
      statuses.set(text.slice(0, text.length - passed.length), 'PASSED')
    }
    if (line.includes(' ... skipped')) statuses.set(line.split(' ... skipped')[0] ?? '', 'SKIPPED')
    if (line.endsWith(' ... FAIL')) statuses.set(line.split(' ... FAIL')[0] ?? '', 'FAILED')
    if (line.startsWith('FAIL:')) statuses.set(words(line)[1] ?? '', 'FAILED')
    if (line.endsWith(' ... ERROR')) statuses.set(line.split(' ... ERROR')[0] ?? '', 'ERROR')
    if (line.startsWith('ERROR:')) statuses.set(words(line)[1] ?? '', 'ERROR')
    // Output printed between `...` and `ok` puts the `ok` on a line of its own.
    if (line.startsWith('ok') && previous !== undefined) statuses.set(previous, 'PASSED')
  }
  // Some test lines are cut by a long message, the `ok` following on the next line.
  const interrupted = [
    /^(.*?)\s\.\.\.\sTesting against Django installed in [\s\S]*? silenced\)\.\nok$/gm,
    /^(.*?)\s\.\.\.\sInternal Server Error: \/(.*)\/\nok$/gm,
    /^(.*?)\s\.\.\.\sSystem check identified no issues \(0 silenced\)\nok$/gm,
  ]
  for (const pattern of interrupted) for (const match of log.matchAll(pattern)) statuses.set(match[1] ?? '', 'PASSED')
  return statuses
}

/** SymPy's bin/test --verbose: `test_a ok`, `test_b F`, `test_c E`, and `____ sympy/x/tests/test_y.py:test_b ____` headers of failures. */
export function parseSympyLog(log: string): TestStatusMap {
  const statuses: TestStatusMap = new Map()
  for (const match of log.matchAll(/(_*) (.*)\.py:(.*) (_*)/g))
    statuses.set(`${match[2] ?? ''}.py:${match[3] ?? ''}`, 'FAILED')
  for (const raw of log.split('\n')) {
    const line = raw.trim()
    if (!line.startsWith('test_')) continue
    const name = words(line)[0] ?? ''
    if (line.endsWith(' E')) statuses.set(name, 'ERROR')
    if (line.endsWith(' F')) statuses.set(name, 'FAILED')
    if (line.endsWith(' ok')) statuses.set(name, 'PASSED')
  }
  return statuses
}

/** pytest -rA lines, with mouse-button enum names in parameters written as numbers, as the dataset's ids have them. */
export function parseMatplotlibLog(log: string): TestStatusMap {
  const statuses: TestStatusMap = new Map()
  for (const raw of log.split('\n')) {
    let line = raw.replaceAll('MouseButton.LEFT', '1').replaceAll('MouseButton.RIGHT', '3')
    const status = TEST_STATUSES.find((candidate) => line.startsWith(candidate))
    if (status === undefined) continue
    if (status === 'FAILED') line = line.replace(' - ', ' ')
    const parts = words(line)
    if (parts.length <= 1) continue
    statuses.set(parts[1] ?? '', status)
  }
  return statuses
}

/** seaborn's pytest runs: `FAILED tests/x.py::test_a`, `PASSED tests/x.py::test_a`, or `tests/x.py::test_a PASSED …`. */
export function parseSeabornLog(log: string): TestStatusMap {
  const statuses: TestStatusMap = new Map()
  for (const line of log.split('\n')) {
    const parts = words(line)
    if (line.startsWith('FAILED')) statuses.set(parts[1] ?? '', 'FAILED')
    else if (line.includes(' PASSED ')) {
      if (parts[1] === 'PASSED') statuses.set(parts[0] ?? '', 'PASSED')
    } else if (line.startsWith('PASSED')) statuses.set(parts[1] ?? '', 'PASSED')
  }
  return statuses
}

/** Python's `str.split()`: the words of a line, without empty ones. */
function words(line: string): string[] {
  const trimmed = line.trim()
  return trimmed === '' ? [] : trimmed.split(/\s+/)
}
