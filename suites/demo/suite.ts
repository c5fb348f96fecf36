import type { SuiteDeclaration } from '../../harness/suite-declaration.ts'

/** Arithmetic that proves the plumbing: scored by its pass rate, nothing to download or run. */
export const demo: SuiteDeclaration = {
  name: 'demo',
  title: 'demo',
  parts: 1,
  runsPrograms: false,
}
