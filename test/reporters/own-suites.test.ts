/**
 * A project's own suites, declared in its vitest.config.ts (`testbench({ suites })`), are read as the built-in
 * ones are: by the registry, by the reporters that find a run's suites from its files, by the knob checks and by
 * the scores of saved reports, also outside that project's run (`llm-testbench compare`).
 */
import { describe, expect, test } from 'vitest'
import type { ItemRecord } from '../../harness/records/item-record.ts'
import type { Outcome } from '../../adapters/outcome.ts'
import type { SuiteDeclaration } from '../../harness/suite-declaration.ts'
import { knownKnobNames } from '../../reporters/all-knobs.ts'
import { passRate } from '../../reporters/statistics/pass-rate.ts'
import { scorerFor } from '../../reporters/scorers.ts'
import type { Score } from '../../harness/scoring/score.ts'
import { buildRunReport } from '../../reporters/run-report.ts'
import { savedScores } from '../../reporters/saved-reports/saved-scores.ts'
import { suiteOfFile } from '../../reporters/suite-datasets.ts'
import { testbench } from '../../reporters/testbench-plugin.ts'
import { registerOwnSuites, suiteNamed } from '../../suites/registry.ts'
import { choiceKnob } from '../../adapters/knob.ts'

function records(suite: string, outcomes: Outcome[]): ItemRecord[] {
  return outcomes.map((outcome, index) => ({
    suite,
    itemId: `item-${index}`,
    model: 'm',
    provider: 'ollama',
    sample: 0,
    outcome,
  }))
}

describe("a project's own suites", () => {
  test('register beside the built-in ones, with their knobs', () => {
    const tickets: SuiteDeclaration = {
      name: 'tickets',
      title: 'Support tickets',
      runsPrograms: false,
      knobs: {
        title: 'tickets',
        knobs: [
          choiceKnob({
            name: 'TESTBENCH_TICKETS_QUEUE',
            readme: 'the queue',
            choices: ['all', 'billing'],
            default: 'all',
          }),
        ],
      },
    }
    expect(suiteNamed('tickets')).toBeUndefined()
    registerOwnSuites([tickets])
    expect(suiteNamed('tickets')).toBe(tickets)
    expect(knownKnobNames()).toContain('TESTBENCH_TICKETS_QUEUE')
    const exactMatch = (): Score[] => [{ suite: 'sql', model: 'm', name: 'exact match', value: 1, display: '100%' }]
    registerOwnSuites([{ name: 'sql', title: 'SQL', runsPrograms: true, scorer: exactMatch }])
    expect(scorerFor('sql')(records('sql', ['passed']))).toEqual(exactMatch())
    const judged = records('tickets', ['passed', 'wrong_answer'])
    expect(scorerFor('tickets')(judged)).toEqual(passRate(judged))
    // Over no judged item, even a project's own scorer is no score.
    expect(scorerFor('sql')(records('sql', ['provider_error']))).toMatchObject([
      { name: 'exact match', display: 'no items were judged', noItems: expect.stringMatching(/1 provider_error/) },
    ])
    // The same declaration again (the config loaded twice) is no conflict.
    expect(() => registerOwnSuites([tickets])).not.toThrow()
  })

  test('a bad list is one clear error when the config loads, before any item', () => {
    const own = (name: string): SuiteDeclaration => ({ name, title: name, runsPrograms: false })
    expect(() => testbench({ suites: [own('Support Tickets')] })).toThrow(
      /the suite name "Support Tickets" is not a folder name: use lower-case letters, digits, - and _/,
    )
    expect(() => testbench({ suites: [own('humaneval')] })).toThrow(
      /"humaneval" is a suite llm-testbench brings; name yours otherwise, or list the built-in one by its name/,
    )
    expect(() => testbench({ suites: [own('notes'), own('notes')] })).toThrow(/two suites are named "notes"/)
    // @ts-expect-error: not a suite llm-testbench brings
    expect(() => testbench({ suites: ['humanevel'] })).toThrow(
      /"humanevel" is not a suite llm-testbench brings \(bigcodebench, demo, euler, farel, humaneval, mbpp, swebench\)/,
    )
  })

  test("a file's suite is the folder after its last suites/, in the project and in the installed package", () => {
    expect(suiteOfFile('suites/tickets/tickets.test.ts')).toBe('tickets')
    expect(suiteOfFile('node_modules/llm-testbench/suites/humaneval/humaneval-1.test.js')).toBe('humaneval')
    expect(suiteOfFile('suites/tickets.test.ts')).toBeUndefined()
    expect(suiteOfFile('test/unit.test.ts')).toBeUndefined()
  })

  test("a saved report of a suite this process does not know keeps its run's own scores", () => {
    const items = records('sql-queries', ['passed', 'wrong_answer'])
    const stored = [{ suite: 'sql-queries', model: 'm', name: 'exact match', value: 0.9, display: '90%' }]
    const report = buildRunReport(items, stored, { complete: true, endedAt: new Date(0) })
    expect(savedScores(report)).toEqual(stored)
  })
})

test('the pass rate counts the items the model answered: a provider or infra failure is not its failure', () => {
  const [score] = passRate(records('demo', ['passed', 'wrong_answer', 'provider_error', 'infra_error', 'passed']))
  expect(score?.counted).toEqual({ solved: 2, total: 3 })
  expect(score?.display).toBe('66.67%')
})
