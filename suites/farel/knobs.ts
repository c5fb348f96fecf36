import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { booleanKnob, choiceKnob, defineKnob, wholeNumberKnob, type KnobGroup } from '../../adapters/knob.ts'
import { PARSES } from './answer.ts'
import { MAX_LENGTH } from './family-tree.ts'
import { MODES, PUBLISHED_SET, TEMPLATE_PLACEHOLDERS } from './quiz.ts'

/** The defaults draw the published quiz set (quiz.ts's PUBLISHED_SET). */

export const LENGTH = wholeNumberKnob({
  name: 'TESTBENCH_FAREL_LENGTH',
  default: PUBLISHED_SET.length,
  min: 1,
  max: MAX_LENGTH,
  // A tree of length 12 has 91 people, and there are 100 names per gender.
  readme: 'the longest relationship (FaRel-L)',
})
export const PER_CLASS = wholeNumberKnob({
  name: 'TESTBENCH_FAREL_PER_CLASS',
  default: PUBLISHED_SET.perClass,
  min: 1,
  max: 100_000,
  readme: 'quizzes per relationship class',
})
export const SEED = defineKnob<bigint>(
  'integer',
  { name: 'TESTBENCH_FAREL_SEED', default: PUBLISHED_SET.seed, readme: 'the quiz generator seed' },
  'a whole number',
  (raw) => (/^-?\d+$/.test(raw) ? BigInt(raw) : undefined),
)
export const MODE = choiceKnob({
  name: 'TESTBENCH_FAREL_MODE',
  choices: MODES,
  default: PUBLISHED_SET.mode,
  accepted: 'python-compat (the published set byte for byte) or seedrandom',
  readme: 'the random generator',
})
export const SHUFFLE = booleanKnob({
  name: 'TESTBENCH_FAREL_SHUFFLE',
  default: PUBLISHED_SET.shuffle,
  readme: 'random order of statements and options',
})
/** The template's text, read and checked when the knob is read. */
export const TEMPLATE = defineKnob<string>(
  'path',
  { name: 'TESTBENCH_FAREL_TEMPLATE', defaultText: "the original's", readme: 'the prompt template' },
  `a file with ${TEMPLATE_PLACEHOLDERS.map((placeholder) => `\`${placeholder}\``).join(', ')}`,
  (file) => readTemplate(file),
)
export const SYSTEM = booleanKnob({
  name: 'TESTBENCH_FAREL_SYSTEM',
  defaultText: 'off',
  readme: "the original's system prompt, and `-sys` in the score's name",
})
/** The system prompt's text, read and checked when the knob is read. */
export const SYSTEM_FILE = defineKnob<string>(
  'path',
  { name: 'TESTBENCH_FAREL_SYSTEM_FILE', readme: 'another system prompt (implies `TESTBENCH_FAREL_SYSTEM=on`)' },
  'a file holding a system prompt',
  (file) => readSystemPrompt(file),
)
export const PARSE = choiceKnob({
  name: 'TESTBENCH_FAREL_PARSE',
  choices: PARSES,
  default: 'tag',
  readme: 'how an answer is read; `tag-or-boxed` as two published logs were scored (see Upstream and deviations)',
})

export const farelKnobs: KnobGroup = {
  title: 'farel',
  knobs: [LENGTH, PER_CLASS, SEED, MODE, SHUFFLE, TEMPLATE, SYSTEM, SYSTEM_FILE, PARSE],
  check: farelRules,
}

export class FarelOptionError extends Error {
  override readonly name = 'FarelOptionError'
}

/** The rule across FaRel's knobs: a system prompt file with the system prompt turned off is a contradiction. */
export function farelRules(env: NodeJS.ProcessEnv): void {
  const file = SYSTEM_FILE.raw(env)
  if (file !== undefined && SYSTEM.read(env) === false) {
    throw new FarelOptionError(
      `${SYSTEM.name}=${SYSTEM.raw(env)} turns the system prompt off, but ${SYSTEM_FILE.name}=${file} gives one: drop one of the two.`,
    )
  }
}

function readTemplate(file: string): string {
  const text = readPromptFile(TEMPLATE.name, file)
  const missing = TEMPLATE_PLACEHOLDERS.filter((placeholder) => !text.includes(placeholder))
  if (missing.length > 0) {
    throw new FarelOptionError(
      `${TEMPLATE.name}=${file} lacks ${missing.join(', ')}: a template must place ${TEMPLATE_PLACEHOLDERS.join(', ')} (the statements, the question and the numbered options).`,
    )
  }
  return text
}

function readSystemPrompt(file: string): string {
  const text = readPromptFile(SYSTEM_FILE.name, file)
  if (text.trim() === '')
    throw new FarelOptionError(
      `${SYSTEM_FILE.name}=${file} is empty: write the system prompt in it, or unset the variable.`,
    )
  return text
}

/** A prompt file's text, less one final line break (editors add one). */
function readPromptFile(name: string, file: string): string {
  let text: string
  try {
    text = readFileSync(resolve(file), 'utf8')
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new FarelOptionError(
      `${name}=${file} cannot be read (${reason}): give the path of a UTF-8 text file, relative to ${process.cwd()} or absolute.`,
    )
  }
  return text.replace(/\r?\n$/, '')
}
