/**
 * Replays rows of the original's `benchmark.json` (made-up models, in its format: a score and a
 * per-problem 0/1 string per language and problem count, `_parameter_size`, `_quantization_level`,
 * `_context_size`) through the suite's scorer and results table, and checks every figure against
 * what the original's scripts print for the same file: today's `publish.py` for the PE-200 table
 * and the archived PE-100 table, the PE-100 era's `publish.py` for that era's estimate.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import type { ItemRecord } from '../../../harness/records/item-record.ts'
import { rowsByModel } from '../../../reporters/markdown-table.ts'
import { pointsFor, problemId } from '../../../suites/euler/dataset/problems.ts'
import { eulerResultsTable } from '../../../suites/euler/results-table.ts'
import { scoreEuler } from '../../../suites/euler/score.ts'
import type { Era } from '../../../suites/euler/options.ts'
import { EULER_SNAPSHOT_MISSING, eulerSnapshot } from '../../support/test-datasets.ts'

const SNAPSHOT = eulerSnapshot()
const BENCHMARK = fileURLToPath(new URL('../../../fixtures/euler/published/benchmark.json', import.meta.url))
const LANGUAGES = ['python', 'java', 'rust', 'clojure'] as const

type BenchmarkEntry = Record<string, string | number | boolean>

/** One model's items as the suite records them, from its `<language>-<N>-test` strings. */
function recordsOf(
  model: string,
  entry: BenchmarkEntry,
  problems: number,
  era: Era,
  solvedBy: (number: number) => number,
): ItemRecord[] {
  const parameters = entry._parameter_size
  const bits = entry._quantization_level
  const context = entry._context_size
  return LANGUAGES.flatMap((language) => {
    const passed = entry[`${language}-${problems}-test`]
    if (typeof passed !== 'string') return []
    return [...passed].map((bit, index): ItemRecord => ({
      suite: 'euler',
      itemId: problemId(index + 1),
      model,
      provider: 'replay',
      sample: 0,
      variant: language,
      outcome: bit === '1' ? 'passed' : 'wrong_answer',
      scoring: {
        points: pointsFor(solvedBy(index + 1)),
        problem: index + 1,
        era,
        ...(typeof parameters === 'number' ? { parameters } : {}),
        ...(typeof bits === 'number' ? { bits } : {}),
      },
      modelDetails: typeof context === 'number' ? { contextLength: context * 1024 } : {},
    }))
  })
}

describe.skipIf(SNAPSHOT === undefined)(
  `benchmark.json rows replayed give the original's published figures (${EULER_SNAPSHOT_MISSING})`,
  () => {
    // The block is collected even where it skips: read the snapshot only where there is one.
    const solutions = (
      SNAPSHOT === undefined ? {} : JSON.parse(readFileSync(join(SNAPSHOT, 'solutions.json'), 'utf8'))
    ) as Record<string, { solved_by: number }>
    const solvedBy = (number: number) => solutions[problemId(number)]?.solved_by ?? Number.NaN
    const benchmark = JSON.parse(readFileSync(BENCHMARK, 'utf8')) as Record<string, BenchmarkEntry>

    /** The table the score reporter prints: each model scored from its own records, then laid out across models. */
    function table(problems: number, era: Era) {
      const scores = Object.entries(benchmark).flatMap(([model, entry]) =>
        scoreEuler(recordsOf(model, entry, problems, era, solvedBy)),
      )
      return { scores, rows: eulerResultsTable(rowsByModel(scores)) }
    }

    test('every language score equals the stored one (Σ points of the solved / N, rounded as Python rounds)', () => {
      for (const [problems, era] of [
        [200, 'current'],
        [100, 'pe100'],
      ] as const) {
        const { scores } = table(problems, era)
        for (const [model, entry] of Object.entries(benchmark)) {
          for (const language of LANGUAGES) {
            const stored = entry[`${language}-${problems}`]
            const name = `PE-Bench-${language[0]?.toUpperCase()}${language.slice(1)}-${problems}`
            expect(
              scores.find((score) => score.model === model && score.name === name)?.value,
              `${model} ${name}`,
            ).toBe(stored)
          }
        }
      }
    })

    test("PE-200: publish.py's table, row by row: order, Best Model for Size, PE-200-Score, Mem-Score", () => {
      const { rows } = table(200, 'current')
      const published = rows.map((row) => [
        row.Model,
        row['Best Model for Size (GB)'],
        row['PE-200-Score'],
        row['Mem-Score'],
      ])
      expect(published).toEqual([
        ['alpha:70b-instruct-q4_K_M', '52.95', '56.37', '106'],
        ['Gamma-API', '', '55.78', ''],
        ['beta:32b-instruct-q8_0', '36.08', '47.11', '131'],
        // Rounded language scores first: 28.87; the raw ones would give 28.88.
        ['eta:7b-instruct-q4_K_M', '5.70', '28.87', '507'],
        // Rust and Clojure not run count 0.
        ['delta:8b-instruct-fp16', '', '22.64', '142'],
        ['theta:7b-instruct-q8_0', '', '18.00', '215'],
        ['epsilon:3b-instruct-q4_K_M', '2.40', '13.63', '568'],
        // No Python: no combined score (the original leaves the model out), last here.
        ['zeta:14b-q4_K_M', '', undefined, undefined],
      ])
    })

    test('the combined score is a score of its own, with Python only as well', () => {
      const { scores } = table(200, 'current')
      expect(
        scores.filter((score) => score.name === 'PE-200-Score').map((score) => [score.model, score.value]),
      ).toEqual([
        ['alpha:70b-instruct-q4_K_M', 56.37],
        ['beta:32b-instruct-q8_0', 47.11],
        ['Gamma-API', 55.78],
        ['delta:8b-instruct-fp16', 22.64],
        ['epsilon:3b-instruct-q4_K_M', 13.63],
        ['eta:7b-instruct-q4_K_M', 28.87],
        ['theta:7b-instruct-q8_0', 18],
      ])
    })

    test("PE-100 with today's prompts: the archived table's figures, a missing language counted 0", () => {
      const { rows } = table(100, 'current')
      expect(
        rows
          .filter((row) => row['PE-100-Score'] !== undefined)
          .map((row) => [row.Model, row['Best Model for Size (GB)'], row['PE-100-Score'], row['Mem-Score']]),
      ).toEqual([
        ['alpha:70b-instruct-q4_K_M', '52.95', '7.52', '14'],
        ['beta:32b-instruct-q8_0', '36.08', '6.40', '18'],
        ['Gamma-API', '', '4.51', ''],
        ['theta:7b-instruct-q8_0', '8.36', '3.83', '46'],
        ['delta:8b-instruct-fp16', '', '2.86', '18'],
      ])
    })

    test("TESTBENCH_EULER_ERA=pe100: the era's estimate of a missing language (coef · Python), its order and PE-100-Score", () => {
      const { rows, scores } = table(100, 'pe100')
      expect(
        rows
          .filter((row) => row['PE-100-Score'] !== undefined)
          .map((row) => [row.Model, row['PE-100-Score'], row['Estimated from Python'] ?? '']),
      ).toEqual([
        ['Gamma-API', '8.94', 'Java, Rust, Clojure'],
        ['alpha:70b-instruct-q4_K_M', '7.52', ''],
        ['beta:32b-instruct-q8_0', '6.40', ''],
        ['theta:7b-instruct-q8_0', '3.83', ''],
        ['delta:8b-instruct-fp16', '3.47', 'Rust, Clojure'],
      ])
      // The model's own score does not depend on the other models: the missing languages count 0 there.
      expect(scores.find((score) => score.model === 'Gamma-API' && score.name === 'PE-100-Score')?.value).toBe(4.51)
    })
  },
)
