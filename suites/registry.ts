import type { SuiteDeclaration } from '../harness/suite-declaration.ts'
import * as registered from './registered.ts'

/** The name of a suite this package brings. */
export type BuiltInSuiteName = keyof typeof registered

/** The suites this package brings (suites/<name>/suite.ts), by name. */
export const suites: readonly SuiteDeclaration[] = Object.values(registered).sort((a, b) =>
  a.name.localeCompare(b.name),
)

/** A project's own suites, declared in its vitest.config.ts (`testbench({ suites: [...] })`), in this process. */
const ownSuites = new Map<string, SuiteDeclaration>()

/**
 * Registers a project's own suites beside the package's: reporters, the gate, compare and the knob checks then
 * read them as they read the built-in ones. A name must be a folder name (its test files are `suites/<name>/…`)
 * and must not be a built-in suite's.
 */
export function registerOwnSuites(declarations: readonly SuiteDeclaration[]): void {
  for (const declaration of declarations) {
    const where = `testbench({ suites }) in vitest.config.ts`
    if (!/^[a-z0-9][a-z0-9_-]*$/.test(declaration.name))
      throw new SuiteDeclarationError(
        `${where}: the suite name "${declaration.name}" is not a folder name: use lower-case letters, digits, - and _ (its test files go in suites/<name>/).`,
      )
    if (suites.some((suite) => suite.name === declaration.name))
      throw new SuiteDeclarationError(
        `${where}: "${declaration.name}" is a suite llm-testbench brings; name yours otherwise, or list the built-in one by its name ('${declaration.name}').`,
      )
    const known = ownSuites.get(declaration.name)
    if (known !== undefined && known !== declaration)
      throw new SuiteDeclarationError(`${where}: two suites are named "${declaration.name}"; give each its own name.`)
    ownSuites.set(declaration.name, declaration)
  }
}

export class SuiteDeclarationError extends Error {
  override readonly name = 'SuiteDeclarationError'
}

/** The built-in suites and the project's own. */
export function registeredSuites(): SuiteDeclaration[] {
  return [...suites, ...ownSuites.values()]
}

/** The declaration of the suite named so, built-in or the project's own; undefined for a name none declares. */
export function suiteNamed(name: string): SuiteDeclaration | undefined {
  return suites.find((suite) => suite.name === name) ?? ownSuites.get(name)
}
