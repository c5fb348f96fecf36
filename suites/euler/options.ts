/** The PE-Bench knobs: every `TESTBENCH_EULER_*` variable, read in one place. */
import { nonNegativeInteger, positiveInteger, positiveNumber, readBoolean } from '../../adapters/knob.ts'
import { parseNumberRanges } from '../../harness/number-ranges.ts'
import { LANGUAGE_IDS, type LanguageId } from './languages.ts'

export const ERAS = ['current', 'pe100'] as const
/** `current`: today's detailed prompt; `pe100`: the shorter prompt of the PE-Bench-100 era. */
export type Era = (typeof ERAS)[number]

export const MODES = ['oneshot', 'tool'] as const
/** `oneshot`: one request, the program taken from the reply; `tool`: upstream's tool agent (inference-with-tools.py) in a virtual workspace. */
export type Mode = (typeof MODES)[number]

/** Upstream's default batches: problems 1–100 in one-shot mode, its tool batch 101–200 in tool mode. */
export const DEFAULT_PROBLEMS: Record<Mode, string> = { oneshot: '1-100', tool: '101-200' }

export const DEFAULT_LANGUAGES: readonly LanguageId[] = ['python', 'java', 'rust', 'clojure']

export interface EulerOptions {
  /** TESTBENCH_EULER_MODE, default oneshot. */
  mode: Mode
  /** TESTBENCH_EULER_LANGUAGES, default python,java,rust,clojure: one variant per language. */
  languages: LanguageId[]
  /** TESTBENCH_EULER_PROBLEMS, default 1-100 (tool mode: 101-200): problem numbers, ascending. */
  problems: number[]
  /** TESTBENCH_EULER_ERA, default current. */
  era: Era
  /** TESTBENCH_EULER_OVERWRITE=1 runs model×language results again instead of reusing the stored ones. */
  overwrite: boolean
  /**
   * TESTBENCH_EULER_ANSWER_IN_CODE=1: the original's compatibility rule that counts a problem
   * solved when its answer appears anywhere in the code, without running it. Off by default:
   * it is a known false positive (problem 35's answer is 55).
   */
  answerInCode: boolean
  /** TESTBENCH_EULER_SCRAPE_DELAY_MS, default 1000: pause between two requests to projecteuler.net. */
  scrapeDelayMs: number
  /** TESTBENCH_EULER_RUN_TIMEOUT_MS, default 10000 (the original's 10 s): wall time of one program run, compilation not counted. */
  runTimeoutMs: number
  /**
   * TESTBENCH_EULER_PARAMETERS (billions) and TESTBENCH_EULER_BITS (bits per weight): the model's
   * size for Mem-Score and "Best Model for Size", as the original's hand-written `_parameter_size`
   * and `_quantization_level`; for models Ollama does not describe. They apply to every model of
   * the run. Default: what Ollama says, else the model's name (`…:7b-…-q4_K_M`).
   */
  parameters: number | undefined
  bits: number | undefined
}

export function eulerOptions(env: NodeJS.ProcessEnv = process.env): EulerOptions {
  const mode = parseMode(env.TESTBENCH_EULER_MODE)
  return {
    mode,
    languages: parseLanguages(env.TESTBENCH_EULER_LANGUAGES),
    problems: parseProblems(env.TESTBENCH_EULER_PROBLEMS, mode),
    era: parseEra(env.TESTBENCH_EULER_ERA),
    overwrite: readBoolean(env, 'TESTBENCH_EULER_OVERWRITE', false),
    answerInCode: readBoolean(env, 'TESTBENCH_EULER_ANSWER_IN_CODE', false),
    scrapeDelayMs: nonNegativeInteger(env, 'TESTBENCH_EULER_SCRAPE_DELAY_MS', 1000),
    runTimeoutMs: positiveInteger(env, 'TESTBENCH_EULER_RUN_TIMEOUT_MS', 10_000),
    parameters: parseParameters(env),
    bits: parseBits(env),
  }
}

export function parseParameters(env: NodeJS.ProcessEnv): number | undefined {
  return isUnset(env.TESTBENCH_EULER_PARAMETERS) ? undefined : positiveNumber(env, 'TESTBENCH_EULER_PARAMETERS', 0)
}

export function parseBits(env: NodeJS.ProcessEnv): number | undefined {
  return isUnset(env.TESTBENCH_EULER_BITS) ? undefined : positiveInteger(env, 'TESTBENCH_EULER_BITS', 0)
}

function isUnset(value: string | undefined): boolean {
  return value === undefined || value.trim() === ''
}

export function parseLanguages(value: string | undefined): LanguageId[] {
  if (value === undefined || value.trim() === '') return [...DEFAULT_LANGUAGES]
  const languages: LanguageId[] = []
  for (const entry of value.split(',')) {
    const name = entry.trim().toLowerCase()
    if (!isLanguageId(name)) {
      throw new Error(`TESTBENCH_EULER_LANGUAGES=${value}: "${entry.trim()}" is not a language PE-Bench runs. Use a comma list of ${LANGUAGE_IDS.join(', ')}.`)
    }
    if (!languages.includes(name)) languages.push(name)
  }
  return languages
}

/** `1-100`, `22`, `1-10,22,54`: ranges and single numbers, comma-separated. */
export function parseProblems(value: string | undefined, mode: Mode = 'oneshot'): number[] {
  return parseNumberRanges('TESTBENCH_EULER_PROBLEMS', value === undefined || value.trim() === '' ? DEFAULT_PROBLEMS[mode] : value, 1)
}

export function parseMode(value: string | undefined): Mode {
  if (value === undefined || value.trim() === '') return 'oneshot'
  const mode = value.trim().toLowerCase()
  if ((MODES as readonly string[]).includes(mode)) return mode as Mode
  throw new Error(`TESTBENCH_EULER_MODE=${value} is not understood: use oneshot (default) or tool.`)
}

export function parseEra(value: string | undefined): Era {
  if (value === undefined || value.trim() === '') return 'current'
  const era = value.trim().toLowerCase()
  if ((ERAS as readonly string[]).includes(era)) return era as Era
  throw new Error(`TESTBENCH_EULER_ERA=${value} is not understood: use current (default) or pe100.`)
}

function isLanguageId(value: string): value is LanguageId {
  return (LANGUAGE_IDS as readonly string[]).includes(value)
}
