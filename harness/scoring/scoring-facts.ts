import type { ItemRecord } from '../records/item-record.ts'

export type { FactRecord, FactValue } from '../records/item-record.ts'

/**
 * A suite's scoring facts: the typed record each of its items writes (`bench.record({ scoring })`)
 * and its scorer reads back, from a run, merged shards or a saved report. Declared once per suite:
 *
 *   export const farelFacts = scoringFacts('farel', { relation: 'string', length: 'number', system: ['none', 'default'] })
 *   export type FarelFacts = FactsOf<typeof farelFacts>
 */

/** What a fact holds: a string, a number, a boolean, or one of a few strings. */
export type FactType = 'string' | 'number' | 'boolean' | readonly string[]

/** A fact an item may leave out. */
export interface OptionalFact<Type extends FactType = FactType> {
  optional: Type
}

export type FactShape = Readonly<Record<string, FactType | OptionalFact>>

type ValueOf<Type> = Type extends 'string'
  ? string
  : Type extends 'number'
    ? number
    : Type extends 'boolean'
      ? boolean
      : Type extends readonly (infer Choice)[]
        ? Choice
        : never
type RequiredKeys<Shape> = { [Key in keyof Shape]: Shape[Key] extends OptionalFact ? never : Key }[keyof Shape]
type OptionalKeys<Shape> = Exclude<keyof Shape, RequiredKeys<Shape>>

/** The facts a shape describes, as a TypeScript type. */
export type Facts<Shape extends FactShape> = { -readonly [Key in RequiredKeys<Shape>]: ValueOf<Shape[Key]> } & {
  -readonly [Key in OptionalKeys<Shape>]?: Shape[Key] extends OptionalFact<infer Type> ? ValueOf<Type> : never
}

export interface ScoringFacts<Value extends object> {
  /** Whose facts these are (a suite, or a kind of task several suites share), for messages. */
  readonly name: string
  readonly shape: FactShape
  /** The record's facts, checked against the shape; throws naming the item when they do not fit. */
  read(record: ItemRecord): Value
  /**
   * The record's facts as `read` gives them, or undefined when it holds none: an item that broke before it
   * recorded them (`infra_error`, `provider_error`). Scorers count such records apart instead of failing the run.
   */
  readIfRecorded(record: ItemRecord): Value | undefined
  /** Why `value` does not fit the shape, or undefined when it does. */
  problem(value: unknown): string | undefined
}

export type FactsOf<Declared> = Declared extends ScoringFacts<infer Value> ? Value : never

export function optional<const Type extends FactType>(type: Type): OptionalFact<Type> {
  return { optional: type }
}

export function scoringFacts<const Shape extends FactShape>(name: string, shape: Shape): ScoringFacts<Facts<Shape>> {
  const problem = (value: unknown): string | undefined => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'there are no scoring facts'
    const facts = value as Record<string, unknown>
    for (const [name, declared] of Object.entries(shape)) {
      const isOptional = typeof declared === 'object' && !Array.isArray(declared) && 'optional' in declared
      const type: FactType = isOptional ? (declared as OptionalFact).optional : (declared as FactType)
      const fact = facts[name]
      if (fact === undefined) {
        if (isOptional) continue
        return `scoring.${name} is missing`
      }
      if (!fits(fact, type)) return `scoring.${name} is ${JSON.stringify(fact)}, not ${describeType(type)}`
    }
    const unknown = Object.keys(facts).find((name) => !(name in shape))
    return unknown === undefined ? undefined : `scoring.${unknown} is not a ${name} fact`
  }
  // Scorers read the same facts many times (a score's bootstrap interval scores 200 draws of the records): each
  // facts object is checked once. Nothing changes a record's facts after they are written.
  const fitting = new WeakSet<object>()
  const read = (record: ItemRecord): Facts<Shape> => {
    const facts = record.scoring
    if (typeof facts === 'object' && facts !== null && fitting.has(facts)) return facts as Facts<Shape>
    const why = problem(facts)
    if (why !== undefined) {
      throw new Error(
        `The ${record.suite} record of ${record.model} for item ${record.itemId} does not hold ${name} facts (${why}): was it written by this version of suites/${record.suite}?`,
      )
    }
    fitting.add(facts as object)
    return facts as Facts<Shape>
  }
  return {
    name,
    shape,
    problem,
    read,
    readIfRecorded: (record) => (record.scoring === undefined ? undefined : read(record)),
  }
}

function fits(value: unknown, type: FactType): boolean {
  if (typeof type !== 'string') return typeof value === 'string' && type.includes(value)
  if (type === 'number') return typeof value === 'number' && Number.isFinite(value)
  return typeof value === type
}

function describeType(type: FactType): string {
  return typeof type === 'string' ? `a ${type}` : `one of ${type.join(', ')}`
}
