/**
 * Every knob of the project in one list: the run's, the sandbox's and each suite's declarations.
 * docs/knobs.md's tables are printed from it (`npm run docs:knobs`), the settings check reads every
 * knob once before any item, and a set name that is in no declaration is warned about.
 */
import { closestName, type KnobGroup } from '../adapters/knob.ts'
import { modelKnobs } from '../adapters/models/knobs.ts'
import { sandboxKnobs } from '../adapters/sandbox/knobs.ts'
import { harnessKnobs } from '../harness/knob-table.ts'
import { registeredSuites } from '../suites/registry.ts'
import { reportKnobs } from '../harness/run-wide/prices.ts'
import { budgetKnobs } from '../harness/run-wide/cost-budget.ts'
import { batchKnobs } from '../harness/batches/batch-knobs.ts'

/** The run's, the sandbox's and each registered suite's knobs (a project's own suites' too). */
export function knobGroups(): KnobGroup[] {
  return [
    harnessKnobs,
    reportKnobs,
    budgetKnobs,
    modelKnobs,
    batchKnobs,
    sandboxKnobs,
    ...registeredSuites().flatMap((suite) => suite.knobs ?? []),
  ]
}

/** Read by the project's own tests (test/support), not by a run, so not in the knob tables. */
const TEST_KNOB_NAMES: readonly string[] = [
  'TESTBENCH_REQUIRE_TOOLS',
  'TESTBENCH_SWEBENCH_REQUIRE_ENGINE',
  'TESTBENCH_HUMAN_EVAL_DIR',
]

export function knownKnobNames(): string[] {
  return [...knobGroups().flatMap((group) => group.knobs.map((knob) => knob.name)), ...TEST_KNOB_NAMES]
}

/** One warning per set variable that looks like a knob but is none: a misspelled TESTBENCH_* name, or SAMPLE. */
export function unknownKnobWarnings(env: NodeJS.ProcessEnv = process.env): string[] {
  const names = knownKnobNames()
  const known = new Set(names)
  const suspects = Object.keys(env).filter(
    (name) => (name.startsWith('TESTBENCH_') || name === 'SAMPLE') && !known.has(name),
  )
  return suspects.sort().map((name) => {
    const closest = closestName(name, names)
    const hint = closest === undefined ? 'docs/knobs.md lists every knob' : `did you mean ${closest}?`
    return `${name} is set but no knob has that name, so it does nothing: ${hint}`
  })
}

/** Every knob read once over `env`, then each group's rules across knobs: one message per bad value, empty when all are good. */
export function knobGroupProblems(env: NodeJS.ProcessEnv = process.env): string[] {
  const problems: string[] = []
  const check = (read: () => unknown): void => {
    try {
      read()
    } catch (error) {
      problems.push((error as Error).message)
    }
  }
  for (const group of knobGroups()) {
    const before = problems.length
    for (const knob of group.knobs) check(() => knob.read(env))
    // A group's own rules read its knobs again: run them only when each knob is good.
    if (problems.length === before && group.check !== undefined) check(() => group.check?.(env))
  }
  return problems
}

/** The knob tables of docs/knobs.md: one per group, `variable | default | accepted | meaning`. */
export function knobTablesMarkdown(): string {
  return knobGroups()
    .map((group) => {
      const rows = group.knobs.map(
        (knob) => `| \`${knob.name}\` | ${code(knob.default)} | ${knob.accepted} | ${knob.readme} |`,
      )
      return [
        `## ${group.title}`,
        '',
        '| variable | default | accepted | meaning |',
        '| --- | --- | --- | --- |',
        ...rows,
      ].join('\n')
    })
    .join('\n\n')
}

/** A literal default as code; a default in words (`half the cores`) as text. */
function code(value: string): string {
  return value === '—' || /\s/.test(value) ? value : `\`${value}\``
}
