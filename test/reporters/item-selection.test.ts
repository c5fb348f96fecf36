import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, test } from 'vitest'
import type { ItemRecord } from '../../harness/records/item-record.ts'
import { itemsWithOutcome, parseOutcomes, rerunPattern } from '../../reporters/saved-reports/failed-items.ts'
import { itemNamePattern, rawTestNamePattern } from '../../reporters/item-name-pattern.ts'
import { buildRunReport, type RunReport } from '../../reporters/run-report.ts'
import { readJsonReport, REPO_ROOT, startVitestRun } from '../support/run-vitest.ts'
import { skipWithoutSandbox } from '../support/sandbox-available.ts'

/** Names as benchmark() declares them: `<model> > <suite> [> <variant>] > <id> <title>`. */
const NAMES = [
  'reference > euler > python > 0001 Multiples of 3 or 5',
  'reference > euler > python > 0007 10001st Prime',
  'reference > euler > python > 0010 Summation of Primes',
  'reference > euler > python > 0022 Names Scores',
  'reference > euler > python > 0122 Efficient Exponentiation',
  'reference > euler > java > 0022 Names Scores',
  'reference > humaneval > humaneval > HumanEval/0 has_close_elements',
  'reference > humaneval > humaneval+ > HumanEval/0 has_close_elements',
  'reference > humaneval > humaneval > HumanEval/1 separate_paren_groups',
  'reference > humaneval > humaneval > HumanEval/10 make_palindrome',
  'reference > humaneval > humaneval > HumanEval/163 generate_integers',
]

function selected(raw: string): string[] {
  const pattern = itemNamePattern(raw)
  return NAMES.filter((name) => pattern.test(name))
}

describe('-t as typed selects exactly what it names', () => {
  test('the value is read as typed, whichever way it was given (Vitest itself parses -t 0001 as the number 1)', () => {
    expect(rawTestNamePattern(['node', 'vitest', 'run', 'suites/euler', '-t', '0001'])).toBe('0001')
    expect(rawTestNamePattern(['node', 'vitest', 'run', '-t=0022', 'suites/euler'])).toBe('0022')
    expect(rawTestNamePattern(['node', 'vitest', '--testNamePattern', 'HumanEval/0'])).toBe('HumanEval/0')
    expect(rawTestNamePattern(['node', 'vitest', '--test-name-pattern=Names Scores'])).toBe('Names Scores')
    expect(rawTestNamePattern(['node', 'vitest', 'run', 'suites/demo'])).toBeUndefined()
    // What Vitest's parse gives: every name with a 1 in it.
    expect(NAMES.filter((name) => new RegExp(String(Number('0001'))).test(name))).toHaveLength(7)
  })

  test('README examples: -t 0001, -t 0022, -t HumanEval/0, a title', () => {
    expect(selected('0001')).toEqual(['reference > euler > python > 0001 Multiples of 3 or 5'])
    expect(selected('0022')).toEqual([
      'reference > euler > python > 0022 Names Scores',
      'reference > euler > java > 0022 Names Scores',
    ])
    expect(selected('HumanEval/0')).toEqual([
      'reference > humaneval > humaneval > HumanEval/0 has_close_elements',
      'reference > humaneval > humaneval+ > HumanEval/0 has_close_elements',
    ])
    expect(selected('HumanEval/1')).toEqual(['reference > humaneval > humaneval > HumanEval/1 separate_paren_groups'])
    expect(selected('Names Scores')).toEqual([
      'reference > euler > python > 0022 Names Scores',
      'reference > euler > java > 0022 Names Scores',
    ])
  })

  test('a variant, a suite or a model selects its items; a word must be whole', () => {
    expect(selected('humaneval+')).toEqual(['reference > humaneval > humaneval+ > HumanEval/0 has_close_elements'])
    expect(selected('java')).toEqual(['reference > euler > java > 0022 Names Scores'])
    expect(selected('euler')).toHaveLength(6)
    expect(selected('Name')).toEqual([])
  })

  test('a value with regular-expression syntax is a regular expression, as in Vitest', () => {
    expect(selected('HumanEval/(0|10) ')).toEqual([
      'reference > humaneval > humaneval > HumanEval/0 has_close_elements',
      'reference > humaneval > humaneval+ > HumanEval/0 has_close_elements',
      'reference > humaneval > humaneval > HumanEval/10 make_palindrome',
    ])
    expect(selected('^reference > euler > java')).toEqual(['reference > euler > java > 0022 Names Scores'])
  })
})

function record(itemId: string, outcome: ItemRecord['outcome'], variant?: string): ItemRecord {
  return {
    suite: 'euler',
    itemId,
    model: 'reference',
    provider: 'reference',
    sample: 0,
    ...(variant ? { variant } : {}),
    ...(outcome ? { outcome } : {}),
  }
}

describe('the items that failed last time, as one -t value', () => {
  const report: RunReport = buildRunReport(
    [
      record('0001', 'passed', 'python'),
      record('0022', 'wrong_answer', 'python'),
      record('0022', 'passed', 'java'),
      record('0010', 'timeout', 'python'),
      record('0007', undefined, 'python'),
    ],
    [],
    { complete: false, endedAt: new Date(0) },
  )

  test('by default every item that did not pass, each in its own variant only', () => {
    const pattern = new RegExp(rerunPattern(itemsWithOutcome(report, ['wrong_answer', 'timeout', 'unfinished'])))
    expect(NAMES.filter((name) => pattern.test(name))).toEqual([
      'reference > euler > python > 0007 10001st Prime',
      'reference > euler > python > 0010 Summation of Primes',
      'reference > euler > python > 0022 Names Scores',
    ])
  })

  test('by outcome', () => {
    const outcomes = parseOutcomes('timeout')
    expect(outcomes).toEqual(['timeout'])
    const pattern = new RegExp(rerunPattern(itemsWithOutcome(report, ['timeout'])))
    expect(NAMES.filter((name) => pattern.test(name))).toEqual([
      'reference > euler > python > 0010 Summation of Primes',
    ])
    expect(parseOutcomes('wrong,timeout')).toEqual({ unknown: ['wrong'] })
  })
})

const run = promisify(execFile)

function ranTitles(file: string): string[] {
  return readJsonReport(file)
    .filter((result) => result.status !== 'skipped' && result.status !== 'pending')
    .map((result) => result.title)
}

describe('end to end', () => {
  test('-t 3 on the demo suite runs one item, and its reports say "1 of 5 items"; npm run failed gives back exactly the failed items', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'item-selection-'))
    const reports = join(dir, 'reports')
    const filtered = await startVitestRun(
      [
        '--project',
        'suites',
        'suites/demo',
        '-t',
        '3',
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${join(dir, 'filtered.json')}`,
      ],
      {
        MODEL: 'reference',
        TESTBENCH_REPORT_DIR: reports,
      },
    ).done
    expect(ranTitles(join(dir, 'filtered.json'))).toEqual(['sum-2+3 2 + 3'])
    expect(filtered.output).toContain(
      'demo · reference · PARTIAL: 1 of 5 items (filtered with -t 3); scores cover those items only',
    )
    const [saved] = readdirSync(join(reports, 'demo')).filter((name) => name.endsWith('.json'))
    const partial = JSON.parse(readFileSync(join(reports, 'demo', saved ?? ''), 'utf8')) as RunReport
    expect(partial).toMatchObject({ complete: false, partial: { items: 1, of: 5, reasons: ['filtered with -t 3'] } })

    // A replay that gets two sums wrong; the command prints the -t value that runs exactly those again.
    const replies = join(dir, 'replies.jsonl')
    const answers: Record<string, number> = {
      'sum-2+3': 5,
      'sum-17+25': 41,
      'sum-123+877': 1000,
      'sum--40+2': -39,
      'sum-99999+1': 100000,
    }
    writeFileSync(
      replies,
      Object.entries(answers)
        .map(([id, answer]) => `${JSON.stringify({ id, reply: `<ANSWER>${answer}</ANSWER>` })}\n`)
        .join(''),
    )
    const full = join(dir, 'full')
    const first = await startVitestRun(['--project', 'suites', 'suites/demo'], {
      MODEL: `replay:${replies}`,
      TESTBENCH_REPORT_DIR: full,
    }).done
    expect(first.output).not.toContain('PARTIAL')
    const [firstReport] = readdirSync(join(full, 'demo')).filter((name) => name.endsWith('.json'))
    const complete = JSON.parse(readFileSync(join(full, 'demo', firstReport ?? ''), 'utf8')) as RunReport
    expect(complete.complete).toBe(true)
    expect(complete.partial).toBeUndefined()
    const { stdout } = await run(process.execPath, ['scripts/failed-items.ts', join(full, 'demo', firstReport ?? '')], {
      cwd: REPO_ROOT,
    })
    const again = await startVitestRun(
      [
        '--project',
        'suites',
        'suites/demo',
        '-t',
        stdout.trim(),
        '--reporter=json',
        `--outputFile.json=${join(dir, 'again.json')}`,
      ],
      {
        MODEL: `replay:${replies}`,
        TESTBENCH_REPORT_DIR: join(dir, 'again'),
      },
    ).done
    expect(ranTitles(join(dir, 'again.json')).sort(), again.output).toEqual(['sum--40+2 -40 + 2', 'sum-17+25 17 + 25'])
  }, 60_000)

  test('-t 0001 and a title on PE-Bench select exactly their item', async (context) => {
    await skipWithoutSandbox(context)
    const dir = mkdtempSync(join(tmpdir(), 'item-selection-euler-'))
    const env = {
      MODEL: 'reference',
      TESTBENCH_DATA_DIR: 'fixtures/euler/datasets',
      // The made-up answers' own pin, for a suite that refuses an unpinned solutions.json.
      TESTBENCH_EULER_SHA256: 'b3aeedb669617655a526e325a303cff999c6d8304aaa762ac47953ecb511d57f',
      TESTBENCH_EULER_LANGUAGES: 'python',
      TESTBENCH_EULER_PROBLEMS: '1-6',
      TESTBENCH_CACHE: 'off',
      TESTBENCH_REPORT_DIR: join(dir, 'reports'),
    }
    for (const [value, expected] of [
      ['0001', ['0001 Sum Below Ten']],
      ['Power Digit Sum', ['0005 Power Digit Sum of 2^15']],
    ] as const) {
      const output = join(dir, `${value.replace(/\W/g, '_')}.json`)
      const result = await startVitestRun(
        ['--project', 'suites', 'suites/euler', '-t', value, '--reporter=json', `--outputFile.json=${output}`],
        env,
      ).done
      expect(ranTitles(output), result.output).toEqual(expected)
    }
  }, 120_000)
})
