/**
 * `-t` as the README uses it: `-t 0022`, `-t HumanEval/0`, `-t "Names scores"` select exactly the
 * items they name. Vitest's CLI parses a numeric-looking value as a number (`-t 0001` becomes
 * `/1/`, which matches every name with a 1 in it), and a pattern matches anywhere in a name
 * (`HumanEval/1` also matches HumanEval/10…19), so the project's plugin reads the value as typed
 * from the command line and turns it into this pattern:
 * - a value with regular-expression syntax (`( ) [ ] { } | ^ $ * ? \`) is a regular expression, as in Vitest;
 * - any other value is literal text that must match whole words of the name
 *   (`<model> > <suite> [> <variant>] > <item id> <title>`): an item id, a title or a run of its words,
 *   a variant, a suite or a model.
 */

const REGEX_SYNTAX = /[()[\]{}|^$*?\\]/
const OPTION_NAMES = ['-t', '--testNamePattern', '--test-name-pattern']

/** The `-t` value exactly as typed, from the process's arguments (the last one given); undefined without one. */
export function rawTestNamePattern(argv: readonly string[]): string | undefined {
  let raw: string | undefined
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] ?? ''
    if (argument === '--') break
    const name = OPTION_NAMES.find((option) => argument === option || argument.startsWith(`${option}=`))
    if (name === undefined) continue
    if (argument === name) {
      raw = argv[index + 1]
      index++
    } else {
      raw = argument.slice(name.length + 1)
    }
  }
  return raw
}

/** The pattern a `-t` value stands for (see above). */
export function itemNamePattern(raw: string): RegExp {
  if (REGEX_SYNTAX.test(raw)) return new RegExp(raw)
  return new RegExp(`(?:^| )${escapeRegExp(raw)}(?= |$)`)
}

/** A pattern that selects exactly the given test names (full names, `<model> > <suite> > … > <id> <title>`). */
export function exactNamesPattern(prefixes: readonly string[]): string {
  return `^(?:${prefixes.map(escapeRegExp).join('|')})(?: |$)`
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}
