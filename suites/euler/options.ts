/** The PE-Bench options, from its knobs (knobs.ts). */
import {
  ANSWER_IN_CODE,
  BITS,
  DEFAULT_PROBLEMS,
  ERA,
  LANGUAGES,
  MODE,
  OVERWRITE,
  PARAMETERS,
  PROBLEMS,
  RUN_TIMEOUT_MS,
  SCRAPE_DELAY_MS,
  type Era,
  type Mode,
} from './knobs.ts'
import { parseNumberRanges } from '../../harness/number-ranges.ts'
import type { LanguageId } from './languages.ts'

export { ERAS, MODES, type Era, type Mode } from './knobs.ts'

/** What the knobs give; what each knob means and its default are in knobs.ts. */
export interface EulerOptions {
  mode: Mode
  /** One variant per language. */
  languages: LanguageId[]
  /** Problem numbers, ascending. */
  problems: number[]
  era: Era
  /** Run model×language results again instead of reusing the stored ones. */
  overwrite: boolean
  answerInCode: boolean
  scrapeDelayMs: number
  runTimeoutMs: number
  /**
   * The model's size for Mem-Score and "Best Model for Size", as the original's hand-written
   * `_parameter_size` and `_quantization_level`, for models Ollama does not describe; they apply to
   * every model of the run. Undefined: what Ollama says, else the model's name (`…:7b-…-q4_K_M`).
   */
  parameters: number | undefined
  bits: number | undefined
}

export function eulerOptions(env: NodeJS.ProcessEnv = process.env): EulerOptions {
  const mode = MODE.read(env)
  return {
    mode,
    languages: [...LANGUAGES.read(env)],
    problems: PROBLEMS.read(env) ?? parseNumberRanges(PROBLEMS.name, DEFAULT_PROBLEMS[mode], 1),
    era: ERA.read(env),
    overwrite: OVERWRITE.read(env),
    answerInCode: ANSWER_IN_CODE.read(env),
    scrapeDelayMs: SCRAPE_DELAY_MS.read(env),
    runTimeoutMs: RUN_TIMEOUT_MS.read(env),
    parameters: PARAMETERS.read(env),
    bits: BITS.read(env),
  }
}
