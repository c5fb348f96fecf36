/**
 * FaRel's knobs, from the environment:
 * - TESTBENCH_FAREL_LENGTH: the longest relationship, 1…12 (default 3: FaRel-3).
 * - TESTBENCH_FAREL_PER_CLASS: quizzes per relationship class (default 50).
 * - TESTBENCH_FAREL_SEED: a whole number (default 42).
 * - TESTBENCH_FAREL_MODE: python-compat (default: CPython's random, the published set) or seedrandom.
 * - TESTBENCH_FAREL_SHUFFLE: on (default) or off: random order of statements and options.
 * - TESTBENCH_FAREL_TEMPLATE: a file holding the prompt template, with $QUIZ_RELATIONS, $QUIZ_QUESTION and $QUIZ_ANSWERS.
 * - TESTBENCH_FAREL_SYSTEM: off (default) or on: the original's system prompt, and `-sys` in the score's name.
 * - TESTBENCH_FAREL_SYSTEM_FILE: a file holding another system prompt (implies on).
 * - TESTBENCH_FAREL_PARSE: tag (default: the first <ANSWER> tag, as the original) or tag-or-boxed
 *   (the last <ANSWER>N</ANSWER>, else the last \boxed{N}: how the published QwQ-32B-Preview and
 *   QVQ-72B-Preview logs were scored; the score is then named `FaRel-L (tag-or-boxed)`).
 */
import { readFileSync } from 'node:fs'
import { readBoolean } from '../../adapters/knob.ts'
import { resolve } from 'node:path'
import { PARSES, type Parse } from './answer.ts'
import { MAX_LENGTH } from './family-tree.ts'
import { DEFAULT_SYSTEM_PROMPT, DEFAULT_TEMPLATE, MODES, PUBLISHED_SET, TEMPLATE_PLACEHOLDERS, type Mode, type QuizSetOptions } from './quiz.ts'

export interface FarelOptions extends QuizSetOptions {
  /** Where the template came from: the original's, or a file. */
  templateSource: 'default' | 'custom'
  /** The system prompt, if any. */
  system?: string
  systemSource: 'none' | 'default' | 'custom'
  /** How an answer is read from a reply. */
  parse: Parse
}

export class FarelOptionError extends Error {
  override readonly name = 'FarelOptionError'
}

export function farelOptions(env: NodeJS.ProcessEnv = process.env): FarelOptions {
  const template = env.TESTBENCH_FAREL_TEMPLATE ? readTemplate(env.TESTBENCH_FAREL_TEMPLATE) : undefined
  const system = systemPrompt(env)
  return {
    length: wholeNumber(env, 'TESTBENCH_FAREL_LENGTH', 3, 1, MAX_LENGTH, `${MAX_LENGTH} is the most: a tree of length ${MAX_LENGTH} has 91 people and there are 100 names per gender`),
    perClass: wholeNumber(env, 'TESTBENCH_FAREL_PER_CLASS', 50, 1, 100_000, 'quizzes per relationship class'),
    seed: seed(env),
    mode: mode(env),
    shuffle: onOff(env, 'TESTBENCH_FAREL_SHUFFLE', true),
    template: template ?? DEFAULT_TEMPLATE,
    templateSource: template === undefined ? 'default' : 'custom',
    ...system,
    parse: parse(env),
  }
}

/** Whether these options draw the published quiz set (farel_bench.py -l 3 -n 50 -r 42 --shuffle, default prompt). */
export function isPublishedSet(options: QuizSetOptions): boolean {
  return (Object.keys(PUBLISHED_SET) as Array<keyof QuizSetOptions>).every((key) => options[key] === PUBLISHED_SET[key])
}

/** How the set was drawn, in a few words: `python-compat seed 42, 50 per class, shuffled`. */
export function describeSet(options: QuizSetOptions): string {
  return `${options.mode} seed ${options.seed}, ${options.perClass} per class, ${options.shuffle ? 'shuffled' : 'in tree order'}`
}

function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number, note: string): number {
  const raw = env[name]?.trim()
  if (raw === undefined || raw === '') return fallback
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN
  if (!(value >= min && value <= max)) {
    throw new FarelOptionError(`${name}=${env[name]} is not accepted: give a whole number from ${min} to ${max} (${note}); the default is ${fallback}.`)
  }
  return value
}

function seed(env: NodeJS.ProcessEnv): bigint {
  const raw = env.TESTBENCH_FAREL_SEED?.trim()
  if (raw === undefined || raw === '') return PUBLISHED_SET.seed
  if (!/^-?\d+$/.test(raw)) {
    throw new FarelOptionError(`TESTBENCH_FAREL_SEED=${env.TESTBENCH_FAREL_SEED} is not accepted: give a whole number, e.g. 42 (the default, which draws the published set).`)
  }
  return BigInt(raw)
}

function parse(env: NodeJS.ProcessEnv): Parse {
  const raw = env.TESTBENCH_FAREL_PARSE?.trim()
  if (raw === undefined || raw === '') return 'tag'
  if ((PARSES as readonly string[]).includes(raw)) return raw as Parse
  throw new FarelOptionError(
    `TESTBENCH_FAREL_PARSE=${env.TESTBENCH_FAREL_PARSE} is not accepted: use tag (the default: the first <ANSWER> tag, as the original) or tag-or-boxed (the last <ANSWER>N</ANSWER>, else the last \\boxed{N}).`,
  )
}

function mode(env: NodeJS.ProcessEnv): Mode {
  const raw = env.TESTBENCH_FAREL_MODE?.trim()
  if (raw === undefined || raw === '') return PUBLISHED_SET.mode
  if ((MODES as readonly string[]).includes(raw)) return raw as Mode
  throw new FarelOptionError(
    `TESTBENCH_FAREL_MODE=${env.TESTBENCH_FAREL_MODE} is not accepted: use python-compat (the default: CPython's random, so the quizzes are the published ones) or seedrandom.`,
  )
}

function onOff(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  try {
    return readBoolean(env, name, fallback)
  } catch (error) {
    throw new FarelOptionError((error as Error).message)
  }
}

function systemPrompt(env: NodeJS.ProcessEnv): Pick<FarelOptions, 'system' | 'systemSource'> {
  const file = env.TESTBENCH_FAREL_SYSTEM_FILE
  const wanted = onOff(env, 'TESTBENCH_FAREL_SYSTEM', file !== undefined && file !== '')
  if (file) {
    if (!wanted) throw new FarelOptionError(`TESTBENCH_FAREL_SYSTEM=${env.TESTBENCH_FAREL_SYSTEM} turns the system prompt off, but TESTBENCH_FAREL_SYSTEM_FILE=${file} gives one: drop one of the two.`)
    const text = readPromptFile('TESTBENCH_FAREL_SYSTEM_FILE', file)
    if (text.trim() === '') throw new FarelOptionError(`TESTBENCH_FAREL_SYSTEM_FILE=${file} is empty: write the system prompt in it, or unset the variable.`)
    return { system: text, systemSource: 'custom' }
  }
  return wanted ? { system: DEFAULT_SYSTEM_PROMPT, systemSource: 'default' } : { systemSource: 'none' }
}

function readTemplate(file: string): string {
  const text = readPromptFile('TESTBENCH_FAREL_TEMPLATE', file)
  const missing = TEMPLATE_PLACEHOLDERS.filter((placeholder) => !text.includes(placeholder))
  if (missing.length > 0) {
    throw new FarelOptionError(
      `TESTBENCH_FAREL_TEMPLATE=${file} lacks ${missing.join(', ')}: a template must place ${TEMPLATE_PLACEHOLDERS.join(', ')} (the statements, the question and the numbered options).`,
    )
  }
  return text
}

/** A prompt file's text, less one final line break (editors add one). */
function readPromptFile(name: string, file: string): string {
  let text: string
  try {
    text = readFileSync(resolve(file), 'utf8')
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new FarelOptionError(`${name}=${file} cannot be read (${reason}): give the path of a UTF-8 text file, relative to ${process.cwd()} or absolute.`)
  }
  return text.replace(/\r?\n$/, '')
}
