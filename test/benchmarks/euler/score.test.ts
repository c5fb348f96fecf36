import { describe, expect, test } from 'vitest'
import type { ItemRecord } from '../../../harness/records/item-record.ts'
import type { Outcome } from '../../../adapters/outcome.ts'
import { contextKilo, scoreEuler } from '../../../suites/euler/score.ts'

const POINTS: Record<string, number> = { '0001': 2, '0002': 1, '0003': 13.25386, '0004': 3.313465 }

function record(
  model: string,
  variant: string,
  itemId: string,
  outcome: Outcome,
  sample = 0,
  details: Record<string, string | number> = {},
): ItemRecord {
  return {
    suite: 'euler',
    itemId,
    model,
    provider: 'ollama',
    sample,
    variant,
    outcome,
    scoring: { points: POINTS[itemId] ?? 0, problem: Number(itemId), era: 'current' },
    modelDetails: details,
  }
}

/** Four problems in each language; which ones pass is chosen per language. */
function run(
  model: string,
  variant: string,
  passed: readonly string[],
  details: Record<string, string | number> = {},
): ItemRecord[] {
  return Object.keys(POINTS).map((id) =>
    record(model, variant, id, passed.includes(id) ? 'passed' : 'wrong_answer', 0, details),
  )
}

describe('scoreEuler', () => {
  const details = { parameterSize: '7.6B', quantization: 'Q4_K_M', contextLength: 32768, digest: 'abc' }
  const records = [
    // python: 2 + 13.25386 = 15.25386 / 4 = 3.813465 → 3.81
    ...run('ollama:qwen2.5', 'python', ['0001', '0003'], details),
    // java: 1 + 3.313465 = 4.313465 / 4 = 1.07836625 → 1.08
    ...run('ollama:qwen2.5', 'java', ['0002', '0004'], details),
    // rust: 2 / 4 = 0.5
    ...run('ollama:qwen2.5', 'rust', ['0001'], details),
    // clojure: nothing solved
    ...run('ollama:qwen2.5', 'clojure', [], details),
    // Another model with Python only: everything solved: 19.567325 / 4 = 4.89183125 → 4.89
    ...run('openai:gpt-4o', 'python', ['0001', '0002', '0003', '0004']),
    // A record of another suite is not counted.
    { ...record('openai:gpt-4o', 'python', '0001', 'passed'), suite: 'humaneval' },
  ]
  const scores = scoreEuler(records)

  test('one PE-Bench-<Lang>-<N> per model and language: Σ points of the solved / N, 2 decimals, solved k/N', () => {
    expect(
      scores.map(({ model, name, value, display, counted }) => ({ model, name, value, display, counted })),
    ).toEqual([
      {
        model: 'ollama:qwen2.5',
        name: 'PE-Bench-Python-4',
        value: 3.81,
        display: '3.81',
        counted: { solved: 2, total: 4 },
      },
      {
        model: 'ollama:qwen2.5',
        name: 'PE-Bench-Java-4',
        value: 1.08,
        display: '1.08',
        counted: { solved: 2, total: 4 },
      },
      {
        model: 'ollama:qwen2.5',
        name: 'PE-Bench-Rust-4',
        value: 0.5,
        display: '0.50',
        counted: { solved: 1, total: 4 },
      },
      {
        model: 'ollama:qwen2.5',
        name: 'PE-Bench-Clojure-4',
        value: 0,
        display: '0.00',
        counted: { solved: 0, total: 4 },
      },
      // The rounded scores: 4·3.81 + 3·1.08 + 2·0.50 + 0 = 19.48 / 10 = 1.948 → 1.95
      { model: 'ollama:qwen2.5', name: 'PE-4-Score', value: 1.95, display: '1.95', counted: undefined },
      {
        model: 'openai:gpt-4o',
        name: 'PE-Bench-Python-4',
        value: 4.89,
        display: '4.89',
        counted: { solved: 4, total: 4 },
      },
      // Java, Rust and Clojure not run count 0: 4·4.89 / 10 = 1.956 → 1.96
      { model: 'openai:gpt-4o', name: 'PE-4-Score', value: 1.96, display: '1.96', counted: undefined },
    ])
    expect(scores.every((score) => score.suite === 'euler')).toBe(true)
  })

  test("the results table: one row per model, in the original's column order, with Ollama details", () => {
    const rows = scores.filter((score) => score.columns).map((score) => score.columns)
    expect(rows).toEqual([
      {
        Model: 'ollama:qwen2.5',
        // Filled across models by results-table.ts.
        'Best Model for Size (GB)': '',
        'PE-4-Score': '1.95',
        // 100 · 1.948 / (7.6 · 0.75) = 34.2
        'Mem-Score': '34',
        'Size (B params)': '7.6',
        'Quantization (bits)': '4',
        'Context (K)': '32',
        'PE-Bench-Python-4': '3.81',
        'PE-Bench-Java-4': '1.08',
        'PE-Bench-Rust-4': '0.50',
        'PE-Bench-Clojure-4': '0.00',
      },
      {
        Model: 'openai:gpt-4o',
        'Best Model for Size (GB)': '',
        'PE-4-Score': '1.96',
        'Mem-Score': '',
        'Size (B params)': '',
        'Quantization (bits)': '',
        'Context (K)': '',
        'PE-Bench-Python-4': '4.89',
      },
    ])
  })

  test('no combined score without Python, as the original', () => {
    const javaOnly = scoreEuler(run('m', 'java', ['0001']))
    expect(javaOnly.map((score) => score.name)).toEqual(['PE-Bench-Java-4'])
    expect(javaOnly[0]?.columns).toEqual({
      Model: 'm',
      'Best Model for Size (GB)': '',
      'Size (B params)': '',
      'Quantization (bits)': '',
      'Context (K)': '',
      'PE-Bench-Java-4': '0.50',
    })
  })

  test('sizes stated with the knobs (recorded as facts) win over the name; the PE-100 era is marked', () => {
    const stated = run('replay:x', 'python', ['0001']).map((item) => ({
      ...item,
      scoring: { ...item.scoring, era: 'pe100', parameters: 30.7, bits: 8 },
    }))
    // 4 · 0.50 / 10 = 0.2; 100 · 0.2 / (30.7 · 1.1) = 0.59
    expect(scoreEuler(stated)[1]?.columns).toMatchObject({
      'PE-4-Score': '0.20',
      'Mem-Score': '1',
      'Size (B params)': '30.7',
      'Quantization (bits)': '8',
      Era: 'pe100',
    })
  })

  test('with several samples a problem counts with the share of its samples that passed', () => {
    const sampled = [
      record('m', 'python', '0001', 'passed', 0),
      record('m', 'python', '0001', 'wrong_answer', 1),
      record('m', 'python', '0002', 'passed', 0),
      record('m', 'python', '0002', 'passed', 1),
    ]
    // (2 · 1/2 + 1 · 1) / 2 = 1
    expect(scoreEuler(sampled)[0]).toMatchObject({
      name: 'PE-Bench-Python-2',
      value: 1,
      counted: { solved: 1.5, total: 2 },
    })
  })

  test('every outcome but passed scores nothing, infra errors included', () => {
    const outcomes: Outcome[] = [
      'wrong_answer',
      'no_answer',
      'compile_error',
      'runtime_error',
      'timeout',
      'memory',
      'provider_error',
      'infra_error',
    ]
    const failed = outcomes.map((outcome, index) => ({
      ...record('m', 'python', '0001', outcome),
      itemId: `x${index}`,
    }))
    expect(scoreEuler(failed)[0]).toMatchObject({
      name: 'PE-Bench-Python-8',
      value: 0,
      counted: { solved: 0, total: 8 },
    })
  })

  test('the maximum over problems 1-100 rounds to 32.07', () => {
    // Σ points of the real problems 1-100 is 3206.6711…; made-up points with that sum behave the same.
    const perfect = Array.from({ length: 100 }, (_, i) => ({
      ...record('reference', 'python', String(i + 1).padStart(4, '0'), 'passed'),
      scoring: { points: 32.066711, problem: i + 1, era: 'current' },
    }))
    expect(scoreEuler(perfect)[0]).toMatchObject({
      name: 'PE-Bench-Python-100',
      display: '32.07',
      counted: { solved: 100, total: 100 },
    })
  })

  test('a record without points is an error naming the model and problem, not a zero', () => {
    const broken = { ...record('m', 'python', '0001', 'passed'), scoring: {} }
    expect(() => scoreEuler([broken])).toThrow(
      /euler record of m for item 0001 does not hold euler facts \(scoring\.points is missing\)/,
    )
  })
})

test.for([
  [32768, '32'],
  [131072, '128'],
  ['8192', '8'],
  [undefined, ''],
] as const)('contextKilo(%s) is %s', ([length, expected]) => {
  expect(contextKilo(length)).toBe(expected)
})

describe('records without scoring facts (a problem that broke before recording them)', () => {
  const broken = (itemId: string, outcome: Outcome, sample = 0): ItemRecord => ({
    suite: 'euler',
    itemId,
    model: 'm',
    provider: 'ollama',
    sample,
    variant: 'python',
    outcome,
    reason: 'broke early',
  })

  test('count as asked and unsolved, as a problem whose samples broke later does', () => {
    const [python] = scoreEuler([
      record('m', 'python', '0001', 'passed'),
      broken('0002', 'infra_error'),
      broken('0003', 'provider_error'),
    ])
    // 2 points of problem 1 over the 3 problems asked.
    expect(python).toMatchObject({ name: 'PE-Bench-Python-3', value: 0.67, counted: { solved: 1, total: 3 } })
  })

  test("a sample without facts takes its problem's points from a sample that has them", () => {
    const [python] = scoreEuler([broken('0001', 'infra_error', 0), record('m', 'python', '0001', 'passed', 1)])
    expect(python).toMatchObject({ value: 1, counted: { solved: 0.5, total: 1 } })
  })

  test('alone give a score of 0, and no error', () => {
    const [python] = scoreEuler([broken('0001', 'infra_error'), broken('0002', 'provider_error')])
    expect(python).toMatchObject({ value: 0, counted: { solved: 0, total: 2 } })
  })
})
