/**
 * PE-Bench's results table across models, as the original's `publish.py` lays it out: rows ordered
 * by the combined score before printing, best first (rows with equal scores keep their order);
 * "Best Model for Size (GB)" marks each row whose memory is at most that of every row above it
 * (a running minimum down the table) and shows that memory. A model without a Python score has no
 * combined score: the original leaves it out of its table, here it comes last, unmarked.
 *
 * PE-100 era (TESTBENCH_EULER_ERA=pe100): the original then estimated a language a model had not
 * run from its Python score, coef · Python with coef the mean of language / Python over the models
 * that ran both. The estimate depends on which models are in the table, so it lives here and not in
 * a model's own scores: rows of that era show it as their PE-100-Score (and Mem-Score, and order),
 * naming the estimated languages in "Estimated from Python"; the model's report keeps the score
 * with the language counted 0.
 *
 * Rows of a thinking switch or of tool mode carry a Section, as upstream's README splits its tables
 * (Non-Thinking, Thinking, Non-Thinking Tool Usage, Thinking Tool Usage): each section is ranked and
 * marked on its own, and the sections follow one another in that order, rows without one first.
 */
import { LANGUAGES, type LanguageId } from './languages.ts'
import { memoryGB } from './model-size.ts'
import { pythonFixed } from '../../harness/scoring/python-round.ts'
import type { Mode } from './options.ts'
import {
  BEST_FOR_SIZE_COLUMN,
  BITS_COLUMN,
  COMBINED_WEIGHTS,
  combinedScoreName,
  combinedValue,
  ERA_COLUMN,
  languageScoreName,
  MEM_SCORE_COLUMN,
  SECTION_COLUMN,
  sectionOf,
  SIZE_COLUMN,
} from './score.ts'

export const ESTIMATED_COLUMN = 'Estimated from Python'

type Row = Record<string, string>

const SECTION_ORDER = [
  '',
  sectionOf('oneshot', undefined),
  sectionOf('oneshot', 'think'),
  sectionOf('tool', undefined),
  sectionOf('tool', 'think'),
]

export function eulerResultsTable(rows: readonly Row[]): Row[] {
  const sections = [...new Set(rows.map((row) => row[SECTION_COLUMN] ?? ''))].sort(
    (a, b) => sectionRank(a) - sectionRank(b),
  )
  return sections.flatMap((section) => rankedSection(rows.filter((row) => (row[SECTION_COLUMN] ?? '') === section)))
}

function sectionRank(section: string): number {
  const index = SECTION_ORDER.indexOf(section)
  return index === -1 ? SECTION_ORDER.length : index
}

function rankedSection(rows: readonly Row[]): Row[] {
  const ranked = withSortKeys(rows)
    .map((entry, index) => ({ ...entry, index }))
    .sort((a, b) => (b.key ?? -Infinity) - (a.key ?? -Infinity) || a.index - b.index)
  let lowest = Infinity
  return ranked.map(({ row, key }) => {
    if (key === undefined) return row
    const memory = memoryOfRow(row) ?? Infinity
    const best = memory <= lowest
    if (best) lowest = memory
    return {
      ...row,
      [BEST_FOR_SIZE_COLUMN]: best && Number.isFinite(memory) ? pythonFixed(memory, memory >= 100 ? 0 : 2) : '',
    }
  })
}

interface KeyedRow {
  row: Row
  /** The combined score before printing; undefined without a Python score. */
  key: number | undefined
}

/**
 * Each row with its combined score, from its language scores (the 2-decimal values the original
 * adds up); the PE-100 era's rows with a language missing get the era's estimate instead, shown
 * as their PE-100-Score and Mem-Score.
 */
function withSortKeys(rows: readonly Row[]): KeyedRow[] {
  const era = rows.filter((row) => row[ERA_COLUMN] === 'pe100' && problemsOfRow(row) === 100)
  const coefficients = pe100Coefficients(era)
  return rows.map((row) => {
    const problems = problemsOfRow(row)
    const mode = modeOfRow(row)
    const key =
      problems === undefined ? undefined : combinedValue((language) => languageValue(row, language, problems, mode))
    if (key === undefined || !era.includes(row)) return { row, key }
    const missing = COMBINED_WEIGHTS.map(([language]) => language).filter(
      (language) => languageValue(row, language, 100) === undefined,
    )
    if (missing.length === 0) return { row, key }
    const estimate = pe100Estimate(row, coefficients)
    const memory = memoryOfRow(row)
    const estimated: Row = {
      ...row,
      [combinedScoreName(100)]: pythonFixed(estimate, 2),
      [ESTIMATED_COLUMN]: missing.map((language) => LANGUAGES[language].name).join(', '),
    }
    if (memory !== undefined) estimated[MEM_SCORE_COLUMN] = pythonFixed((100 * estimate) / memory, 0)
    return { row: estimated, key: estimate }
  })
}

function problemsOfRow(row: Row): number | undefined {
  for (const column of Object.keys(row)) {
    const match = /^PE-(\d+)-(?:tool-)?Score$/.exec(column)
    if (match) return Number(match[1])
  }
  return undefined
}

function modeOfRow(row: Row): Mode {
  return Object.keys(row).some((column) => /^PE-\d+-tool-Score$/.test(column)) ? 'tool' : 'oneshot'
}

function languageValue(row: Row, language: LanguageId, problems: number, mode: Mode = 'oneshot'): number | undefined {
  const text = row[languageScoreName(language, problems, mode)]
  return text === undefined || text === '' ? undefined : Number(text)
}

function memoryOfRow(row: Row): number | undefined {
  const parameters = Number(row[SIZE_COLUMN] || Number.NaN)
  const bits = Number(row[BITS_COLUMN] || Number.NaN)
  return memoryGB({
    ...(Number.isFinite(parameters) ? { parameters } : {}),
    ...(Number.isFinite(bits) ? { bits } : {}),
  })
}

type Coefficients = Partial<Record<LanguageId, number>>

/** Mean of language / Python over the rows that have both, Python above 0; 0 when no row has the language. */
function pe100Coefficients(rows: readonly Row[]): Coefficients {
  const coefficients: Coefficients = {}
  for (const [language] of COMBINED_WEIGHTS.slice(1)) {
    let total = 0
    let count = 0
    for (const row of rows) {
      const python = languageValue(row, 'python', 100)
      const other = languageValue(row, language, 100)
      if (python === undefined || python <= 0 || other === undefined) continue
      total += other / python
      count += 1
    }
    coefficients[language] = count > 0 ? total / count : 0
  }
  return coefficients
}

/** The PE-100 era's sum, term by term as it was written: 4·P + (3·J or 3·coef·P) + (2·R or 2·coef·P) + (C or coef·P), over 10. */
function pe100Estimate(row: Row, coefficients: Coefficients): number {
  const python = languageValue(row, 'python', 100) ?? 0
  let sum = 4.0 * python
  for (const [language, weight] of COMBINED_WEIGHTS.slice(1)) {
    const value = languageValue(row, language, 100)
    sum += value === undefined ? weight * (coefficients[language] ?? 0) * python : weight * value
  }
  return sum / 10.0
}
