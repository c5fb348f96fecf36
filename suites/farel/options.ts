/** FaRel's options, from its knobs (knobs.ts, where each knob and its default is declared). */
import { DEFAULT_SYSTEM_PROMPT, DEFAULT_TEMPLATE, PUBLISHED_SET, type QuizSetOptions } from './quiz.ts'
import type { Parse } from './answer.ts'
import { farelRules, LENGTH, MODE, PARSE, PER_CLASS, SEED, SHUFFLE, SYSTEM, SYSTEM_FILE, TEMPLATE } from './knobs.ts'

export { FarelOptionError } from './knobs.ts'

export interface FarelOptions extends QuizSetOptions {
  /** Where the template came from: the original's, or a file. */
  templateSource: 'default' | 'custom'
  /** The system prompt, if any. */
  system?: string
  systemSource: 'none' | 'default' | 'custom'
  /** How an answer is read from a reply. */
  parse: Parse
}

export function farelOptions(env: NodeJS.ProcessEnv = process.env): FarelOptions {
  farelRules(env)
  const template = TEMPLATE.read(env)
  return {
    length: LENGTH.read(env),
    perClass: PER_CLASS.read(env),
    seed: SEED.read(env) ?? PUBLISHED_SET.seed,
    mode: MODE.read(env),
    shuffle: SHUFFLE.read(env),
    template: template ?? DEFAULT_TEMPLATE,
    templateSource: template === undefined ? 'default' : 'custom',
    ...systemPrompt(env),
    parse: PARSE.read(env),
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

function systemPrompt(env: NodeJS.ProcessEnv): Pick<FarelOptions, 'system' | 'systemSource'> {
  const custom = SYSTEM_FILE.read(env)
  if (custom !== undefined) return { system: custom, systemSource: 'custom' }
  return SYSTEM.read(env) === true
    ? { system: DEFAULT_SYSTEM_PROMPT, systemSource: 'default' }
    : { systemSource: 'none' }
}
