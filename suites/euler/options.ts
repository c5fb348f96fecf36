/** The PE-Bench options, from its knobs (knobs.ts). */
import { ANSWER_IN_CODE, BITS, ERA, LANGUAGES, OVERWRITE, PARAMETERS, PROBLEMS, RUN_TIMEOUT_MS, SCRAPE_DELAY_MS, type Era } from './knobs.ts'
import type { LanguageId } from './languages.ts'

export { ERAS, type Era } from './knobs.ts'

/** What the knobs give; what each knob means and its default are in knobs.ts. */
export interface EulerOptions {
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
  return {
    languages: [...LANGUAGES.read(env)],
    problems: PROBLEMS.read(env) ?? [],
    era: ERA.read(env),
    overwrite: OVERWRITE.read(env),
    answerInCode: ANSWER_IN_CODE.read(env),
    scrapeDelayMs: SCRAPE_DELAY_MS.read(env),
    runTimeoutMs: RUN_TIMEOUT_MS.read(env),
    parameters: PARAMETERS.read(env),
    bits: BITS.read(env),
  }
}
