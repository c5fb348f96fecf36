/**
 * The shape every environment knob is declared in, and the parsers all of them share,
 * so that `1/0`, `on/off` and `true/false` mean the same for every boolean knob.
 * Adapters, the harness and each suite declare their own knobs with it; reporters/all-knobs.ts lists them all.
 */

export type KnobKind = 'boolean' | 'integer' | 'number' | 'choice' | 'path' | 'text' | 'list'

export interface KnobDeclaration {
  readonly name: string
  readonly kind: KnobKind
  /** The value used when the variable is unset, as the README shows it. */
  readonly default: string
  /** What is accepted, in words, for the README and for error messages. */
  readonly accepted: string
  /** The README's one-line description. */
  readonly readme: string
}

/** The knobs one part of the project reads (the run, the sandbox, one suite), as the README lists them. */
export interface KnobGroup {
  readonly title: string
  readonly knobs: readonly KnobDeclaration[]
  /** Reads every knob of the group as its code does; throws the first bad value's message. Run once, before any item. */
  readonly check?: (env: NodeJS.ProcessEnv) => void
}

const TRUE_WORDS = new Set(['1', 'on', 'true', 'yes'])
const FALSE_WORDS = new Set(['0', 'off', 'false', 'no'])

/** `1/on/true/yes` or `0/off/false/no` (any case); unset or empty gives `fallback`; anything else is an error naming the knob. */
export function readBoolean(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]
  if (raw === undefined || raw.trim() === '') return fallback
  const word = raw.trim().toLowerCase()
  if (TRUE_WORDS.has(word)) return true
  if (FALSE_WORDS.has(word)) return false
  throw new Error(`${name}=${raw} is not understood: use 1, on or true to turn it on, 0, off or false to turn it off.`)
}

/** Number readers: unset or empty gives `fallback`; anything else must be the kind of number the name says. */
export function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = nonNegativeInteger(env, name, fallback)
  if (value === 0) throw new Error(`${name}=0: it must be a whole number of at least 1.`)
  return value
}

export function nonNegativeInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  if (!/^\d+$/.test(raw.trim())) throw new Error(`${name}=${raw} is not a whole number.`)
  return Number(raw.trim())
}

export function positiveNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = nonNegativeNumber(env, name, fallback)
  if (value === 0) throw new Error(`${name}=0: it must be more than 0.`)
  return value
}

export function nonNegativeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]
  if (raw === undefined || raw.trim() === '') return fallback
  const value = Number(raw)
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name}=${raw} is not a number of at least 0.`)
  return value
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
