/**
 * Every environment knob is declared once, with one of the constructors below, and read through
 * its declaration: `SAMPLES.read(env)` gives the typed value or throws the one message shape every
 * bad value has. The declaration is also what the knob tables print (docs/knobs.md).
 */

export type KnobKind = 'boolean' | 'integer' | 'number' | 'choice' | 'path' | 'text' | 'list'

/** What the knob tables show of a knob. */
export interface KnobDeclaration {
  readonly name: string
  readonly kind: KnobKind
  /** The default as the tables show it: the declared value, or in words when the code derives it. */
  readonly default: string
  /** What is accepted, in words, for the tables and for error messages. */
  readonly accepted: string
  /** The tables' one-line description. */
  readonly readme: string
}

/** A declared knob: `read` gives its typed value (the default when unset or empty). */
export interface Knob<T> extends KnobDeclaration {
  /** The declared default value (undefined when the code derives it or there is none). */
  readonly defaultValue: T
  read(env?: NodeJS.ProcessEnv): T
  /** The raw value when set (trimmed), else undefined: for messages that quote it. */
  raw(env?: NodeJS.ProcessEnv): string | undefined
}

/** The knobs one part of the project reads (the run, the sandbox, one suite), as the tables list them. */
export interface KnobGroup {
  readonly title: string
  readonly knobs: ReadonlyArray<Knob<unknown>>
  /** Rules across several knobs of the group; each knob's own value is checked by reading it. */
  readonly check?: (env: NodeJS.ProcessEnv) => void
}

export class KnobValueError extends RangeError {
  override readonly name = 'KnobValueError'
}

interface KnobText {
  readonly name: string
  readonly readme: string
  /** Overrides the accepted values' wording the constructor derives (to add what each one means). */
  readonly accepted?: string
}

/** A knob with a default value, or one whose default the code derives (`defaultText` says how) or that has none. */
type Defaulted<T> = { readonly default: T; readonly defaultText?: string }
type Derived = { readonly default?: undefined; readonly defaultText?: string }

/**
 * The one knob maker: `parse` turns a set, non-empty value into T, or returns undefined when it is not accepted.
 * For a knob of a kind of its own (number ranges…); the constructors below are made with it.
 */
export function defineKnob<T>(
  kind: KnobKind,
  spec: KnobText & { readonly default?: T; readonly defaultText?: string },
  accepted: string,
  parse: (raw: string) => T | undefined,
  show: (value: T) => string = String,
): Knob<T | undefined> {
  const wording = spec.accepted ?? accepted
  const defaultText = spec.defaultText ?? (spec.default === undefined ? '—' : show(spec.default))
  const raw = (env: NodeJS.ProcessEnv = process.env): string | undefined => {
    const value = env[spec.name]?.trim()
    return value === undefined || value === '' ? undefined : value
  }
  return {
    name: spec.name,
    kind,
    default: defaultText,
    accepted: wording,
    readme: spec.readme,
    defaultValue: spec.default,
    raw,
    read(env = process.env) {
      const value = raw(env)
      if (value === undefined) return spec.default
      const parsed = parse(value)
      if (parsed === undefined) throw new KnobValueError(badValue(spec.name, value, wording, defaultText))
      return parsed
    },
  }
}

/** The one shape of every bad-value message: the variable, its value, what is accepted, and what unset gives. */
export function badValue(name: string, value: string, accepted: string, defaultText: string): string {
  const unset = defaultText === '—' ? 'or unset it' : `or unset it for ${defaultText}`
  return `${name}=${value} is not accepted: use ${accepted}, ${unset}.`
}

const TRUE_WORDS = new Set(['1', 'on', 'true', 'yes'])
const FALSE_WORDS = new Set(['0', 'off', 'false', 'no'])

/** `1/on/true/yes` or `0/off/false/no`, any case. */
export function booleanKnob(spec: KnobText & Defaulted<boolean>): Knob<boolean>
export function booleanKnob(spec: KnobText & Derived): Knob<boolean | undefined>
export function booleanKnob(spec: KnobText & (Defaulted<boolean> | Derived)): Knob<boolean | undefined> {
  const parse = (raw: string): boolean | undefined => {
    const word = raw.toLowerCase()
    return TRUE_WORDS.has(word) ? true : FALSE_WORDS.has(word) ? false : undefined
  }
  return defineKnob('boolean', spec, '1/on/true or 0/off/false', parse, (value) => (value ? 'on' : 'off'))
}

interface Bounds {
  /** The smallest value accepted; 0 when not given. */
  readonly min?: number
  readonly max?: number
  /** Leading words of the accepted values: `seconds`, `megabytes`. */
  readonly unit?: string
}

/** A whole number within the bounds (from 0 when no `min`). */
export function wholeNumberKnob(spec: KnobText & Bounds & Defaulted<number>): Knob<number>
export function wholeNumberKnob(spec: KnobText & Bounds & Derived): Knob<number | undefined>
export function wholeNumberKnob(spec: KnobText & Bounds & (Defaulted<number> | Derived)): Knob<number | undefined> {
  const min = spec.min ?? 0
  const range = spec.max === undefined ? `a whole number ≥ ${min}` : `a whole number from ${min} to ${spec.max}`
  const parse = (raw: string): number | undefined => {
    const value = /^-?\d+$/.test(raw) ? Number(raw) : Number.NaN
    return value >= min && value <= (spec.max ?? Number.MAX_SAFE_INTEGER) ? value : undefined
  }
  return defineKnob('integer', spec, withUnit(spec.unit, range), parse)
}

/** A number at least `min` (0 when not given), or above it with `above: true`. */
export function numberKnob(
  spec: KnobText & Omit<Bounds, 'max'> & { readonly above?: boolean } & Defaulted<number>,
): Knob<number>
export function numberKnob(
  spec: KnobText & Omit<Bounds, 'max'> & { readonly above?: boolean } & Derived,
): Knob<number | undefined>
export function numberKnob(
  spec: KnobText & Omit<Bounds, 'max'> & { readonly above?: boolean } & (Defaulted<number> | Derived),
): Knob<number | undefined> {
  const min = spec.min ?? 0
  const parse = (raw: string): number | undefined => {
    const value = Number(raw)
    return Number.isFinite(value) && (spec.above === true ? value > min : value >= min) ? value : undefined
  }
  return defineKnob(
    'number',
    spec,
    withUnit(spec.unit, spec.above === true ? `a number above ${min}` : `a number ≥ ${min}`),
    parse,
  )
}

/** One of `choices`, any case. */
export function choiceKnob<C extends string>(
  spec: KnobText & { readonly choices: readonly C[] } & Defaulted<C>,
): Knob<C>
export function choiceKnob<C extends string>(
  spec: KnobText & { readonly choices: readonly C[] } & Derived,
): Knob<C | undefined>
export function choiceKnob<C extends string>(
  spec: KnobText & { readonly choices: readonly C[] } & (Defaulted<C> | Derived),
): Knob<C | undefined> {
  return defineKnob('choice', spec, inWords(spec.choices, 'or'), (raw) => findChoice(spec.choices, raw))
}

/** A comma list, entries trimmed, empty ones dropped; with `choices`, each entry one of them (any case), each once. */
export function listKnob<C extends string>(
  spec: KnobText & { readonly choices: readonly C[] } & Defaulted<readonly C[]>,
): Knob<readonly C[]>
export function listKnob(spec: KnobText & Defaulted<readonly string[]>): Knob<readonly string[]>
export function listKnob(spec: KnobText & Derived): Knob<readonly string[] | undefined>
export function listKnob(
  spec: KnobText & { readonly choices?: readonly string[] } & (Defaulted<readonly string[]> | Derived),
): Knob<readonly string[] | undefined> {
  const choices = spec.choices
  const parse = (raw: string): readonly string[] | undefined => {
    const entries = raw
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '')
    if (choices === undefined) return entries
    const chosen: string[] = []
    for (const entry of entries) {
      const choice = findChoice(choices, entry)
      if (choice === undefined) return undefined
      if (!chosen.includes(choice)) chosen.push(choice)
    }
    return chosen.length === 0 ? undefined : chosen
  }
  const accepted = choices === undefined ? 'a comma list' : `a comma list of ${inWords(choices, 'and')}`
  return defineKnob('list', spec, accepted, parse, (value) => value.join(','))
}

/** A file or directory, as given (relative paths are the caller's to resolve). */
export function pathKnob(spec: KnobText & { readonly accepted: string } & Defaulted<string>): Knob<string>
export function pathKnob(spec: KnobText & { readonly accepted: string } & Derived): Knob<string | undefined>
export function pathKnob(
  spec: KnobText & { readonly accepted: string } & (Defaulted<string> | Derived),
): Knob<string | undefined> {
  return defineKnob('path', spec, spec.accepted, (raw) => raw)
}

/** Free text, or text that must match `pattern` (then `accepted` says what it looks like). */
export function textKnob(
  spec: KnobText & { readonly accepted: string; readonly pattern?: RegExp } & Defaulted<string>,
): Knob<string>
export function textKnob(
  spec: KnobText & { readonly accepted: string; readonly pattern?: RegExp } & Derived,
): Knob<string | undefined>
export function textKnob(
  spec: KnobText & { readonly accepted: string; readonly pattern?: RegExp } & (Defaulted<string> | Derived),
): Knob<string | undefined> {
  return defineKnob('text', spec, spec.accepted, (raw) =>
    spec.pattern === undefined || spec.pattern.test(raw) ? raw : undefined,
  )
}

function findChoice<C extends string>(choices: readonly C[], raw: string): C | undefined {
  return choices.find((choice) => choice.toLowerCase() === raw.trim().toLowerCase())
}

function inWords(choices: readonly string[], last: 'or' | 'and'): string {
  return choices.length < 2 ? choices.join('') : `${choices.slice(0, -1).join(', ')} ${last} ${choices.at(-1)}`
}

function withUnit(unit: string | undefined, range: string): string {
  return unit === undefined ? range : `${unit}, ${range}`
}

/** The known name closest to `name` by edit distance, when it is close enough to be a likely typo. */
export function closestName(name: string, known: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined
  for (const candidate of known) {
    const distance = editDistance(name, candidate)
    if (best === undefined || distance < best.distance) best = { name: candidate, distance }
  }
  return best !== undefined && best.distance <= Math.max(2, Math.floor(name.length / 4)) ? best.name : undefined
}

/** The Levenshtein distance: single-character insertions, deletions and substitutions. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[b.length]!
}
