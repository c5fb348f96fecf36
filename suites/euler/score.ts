import { groupBy } from '../../harness/group-by.ts'
/**
 * The PE-Bench scores, from the item records alone:
 * - PE-Bench-<Language>-<N> = Σ points of the solved problems / N, N the problems asked
 *   (points = 1325386 / solved_by, recorded per item); with several samples a problem
 *   counts with the share of its samples that passed;
 * - PE-<N>-Score: Python, Java, Rust and Clojure weighted 4:3:2:1, when a model has all four;
 * - the original's results table: one row per model (on its PE-<N>-Score, or on its first
 *   language score when it has no combined score).
 */
import type { ItemRecord } from '../../harness/item-record.ts'
import type { Score, Scorer } from '../../harness/score.ts'
import { scoringFacts, type FactsOf } from '../../harness/scoring-facts.ts'
import { LANGUAGES, LANGUAGE_IDS, type LanguageId } from './languages.ts'
import { ERAS } from './options.ts'

export const SUITE = 'euler'
/** What each PE-Bench item records: its problem's points (1325386 / solved_by), number and prompt era. */
export const eulerFacts = scoringFacts('euler', { points: 'number', problem: 'number', era: ERAS })
export type EulerFacts = FactsOf<typeof eulerFacts>

export const COMBINED_WEIGHTS: Readonly<Partial<Record<LanguageId, number>>> = { python: 4, java: 3, rust: 2, clojure: 1 }

interface LanguageScore {
  language: string
  problems: number
  solved: number
  value: number
}

export const scoreEuler: Scorer = (records) => {
  const scores: Score[] = []
  for (const [model, modelRecords] of groupBy(records.filter((record) => record.suite === SUITE), (record) => record.model)) {
    const languageScores = [...groupBy(modelRecords, (record) => record.variant ?? 'python')]
      .map(([language, languageRecords]) => languageScore(language, languageRecords))
      .sort((a, b) => languageOrder(a.language) - languageOrder(b.language))
    const perLanguage = languageScores.map((score) => toScore(model, score))
    const combined = combinedScore(model, languageScores)
    const row = combined ?? perLanguage[0]
    if (row) row.columns = tableRow(model, modelRecords[0]?.modelDetails ?? {}, languageScores, combined)
    scores.push(...perLanguage, ...(combined ? [combined] : []))
  }
  return scores
}

export function languageScoreName(language: string, problems: number): string {
  return `PE-Bench-${languageName(language)}-${problems}`
}

export function combinedScoreName(problems: number): string {
  return `PE-${problems}-Score`
}

/** Rounded to 2 decimals, as the benchmark reports scores. */
export function roundPoints(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100
}

function languageScore(language: string, records: readonly ItemRecord[]): LanguageScore {
  let points = 0
  let solved = 0
  const byProblem = groupBy(records, (record) => record.itemId)
  for (const samples of byProblem.values()) {
    const [first] = samples
    if (first === undefined) continue
    const problemPoints = eulerFacts.read(first).points
    const share = samples.filter((record) => record.outcome === 'passed').length / samples.length
    points += problemPoints * share
    solved += share
  }
  const problems = byProblem.size
  return { language, problems, solved, value: problems === 0 ? 0 : points / problems }
}

function toScore(model: string, score: LanguageScore): Score {
  const value = roundPoints(score.value)
  return {
    suite: SUITE,
    model,
    name: languageScoreName(score.language, score.problems),
    value,
    display: value.toFixed(2),
    counted: { solved: score.solved, total: score.problems },
  }
}

function combinedScore(model: string, scores: readonly LanguageScore[]): Score | undefined {
  const weighted = Object.entries(COMBINED_WEIGHTS).map(([language, weight]) => ({ weight, score: scores.find((score) => score.language === language) }))
  const problems = weighted[0]?.score?.problems
  if (weighted.some(({ score }) => score === undefined || score.problems !== problems) || problems === undefined) return undefined
  const totalWeight = weighted.reduce((sum, { weight }) => sum + weight, 0)
  const value = roundPoints(weighted.reduce((sum, { weight, score }) => sum + weight * (score?.value ?? 0), 0) / totalWeight)
  return { suite: SUITE, model, name: combinedScoreName(problems), value, display: value.toFixed(2) }
}

/** Model | Size (B params) | Quantization (bits) | Context (K) | PE-Bench-Python-100 | … | PE-100-Score */
function tableRow(model: string, details: Record<string, string | number>, scores: readonly LanguageScore[], combined: Score | undefined): Record<string, string> {
  const row: Record<string, string> = {
    Model: model,
    'Size (B params)': billionsOfParameters(details.parameterSize),
    'Quantization (bits)': quantizationBits(details.quantization),
    'Context (K)': contextKilo(details.contextLength),
  }
  for (const score of scores) row[languageScoreName(score.language, score.problems)] = roundPoints(score.value).toFixed(2)
  if (combined) row[combined.name] = combined.display
  return row
}

/** Ollama's `7.6B` → `7.6`, `494.03M` → `0.49`; '' when unknown. */
export function billionsOfParameters(size: string | number | undefined): string {
  if (typeof size === 'number') return String(size)
  const match = /^\s*([\d.]+)\s*([KMBT]?)\s*$/i.exec(size ?? '')
  if (!match) return ''
  const scale: Record<string, number> = { K: 1e-6, M: 1e-3, B: 1, T: 1e3, '': 1e-9 }
  const billions = Number(match[1]) * (scale[(match[2] ?? '').toUpperCase()] ?? 1)
  return String(roundPoints(billions))
}

/** Ollama's `Q4_K_M` → `4`, `Q8_0` → `8`, `F16`/`BF16` → `16`, `MXFP4` → `4`; '' when unknown. */
export function quantizationBits(level: string | number | undefined): string {
  if (typeof level === 'number') return String(level)
  const match = /(?:Q|F|FP)(\d+)/i.exec(level ?? '')
  return match?.[1] ?? ''
}

/** Context length in tokens → thousands of tokens as the original writes them (32768 → 32, 131072 → 128). */
export function contextKilo(length: string | number | undefined): string {
  const tokens = Number(length)
  return length === undefined || length === '' || !Number.isFinite(tokens) || tokens <= 0 ? '' : String(Math.round(tokens / 1024))
}

function languageName(language: string): string {
  return isLanguageId(language) ? LANGUAGES[language].name : language
}

function languageOrder(language: string): number {
  return isLanguageId(language) ? LANGUAGE_IDS.indexOf(language) : LANGUAGE_IDS.length
}

function isLanguageId(value: string): value is LanguageId {
  return (LANGUAGE_IDS as readonly string[]).includes(value)
}
