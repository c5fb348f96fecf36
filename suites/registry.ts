import type { SuiteDeclaration } from '../harness/suite-declaration.ts'
import * as registered from './registered.ts'

/** Every suite's declaration (suites/<name>/suite.ts), by name: the one list the rest of the project reads. */
export const suites: readonly SuiteDeclaration[] = Object.values(registered).sort((a, b) =>
  a.name.localeCompare(b.name),
)

/** The declaration of `suites/<name>/`, or undefined for a folder that declares none. */
export function suiteNamed(name: string): SuiteDeclaration | undefined {
  return suites.find((suite) => suite.name === name)
}
