/**
 * The shipped GitHub workflows install what `.ci/run` installs (one list, one script), keep the
 * download cache the suites actually read, and never point the tests at a copy of the data that
 * only exists on the project's own machine.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { cacheDir } from '../../harness/knobs.ts'
import { REPO_ROOT } from '../support/run-vitest.ts'

const WORKFLOWS = join(REPO_ROOT, '.github', 'workflows')
const workflows = readdirSync(WORKFLOWS)
  .filter((name) => name.endsWith('.yml'))
  .map((name) => ({ name, text: readFileSync(join(WORKFLOWS, name), 'utf8') }))

/** The jobs of a workflow as text blocks, by name (two-space-indented keys under `jobs:`). */
function jobs(text: string): Map<string, string> {
  const body = text.slice(text.indexOf('\njobs:\n') + 7)
  const found = new Map<string, string>()
  for (const block of body.split(/\n(?=  [A-Za-z][\w-]*:\n)/)) {
    const name = /^ {2}([A-Za-z][\w-]*):/.exec(block)?.[1]
    if (name) found.set(name, block)
  }
  return found
}

describe('the GitHub workflows', () => {
  test('are there: CI, the model gate, and a big suite over a matrix of runners', () => {
    expect(workflows.map((workflow) => workflow.name).sort()).toEqual(['ci.yml', 'model-gate.yml', 'suite-matrix.yml'])
  })

  test.for(workflows)(
    '$name: a job that runs programs installs the packages through .ci/install-packages or .ci/run, not a list of its own',
    ({ text }) => {
      for (const [name, job] of jobs(text)) {
        expect(job, `job ${name} installs packages itself`).not.toMatch(
          /apt-get install[^\n]*(bubblewrap|default-jdk|golang|chromium|python3-)/,
        )
        const runsPrograms = /--shard=|\.ci\/run|npm test/.test(job)
        if (runsPrograms) expect(job, `job ${name}`).toMatch(/\.ci\/install-packages|\.ci\/run|\.ci\/bare-run/)
      }
    },
  )

  test.for(workflows)(
    '$name: caches the datasets where the suites download them, and names no local copy',
    ({ text }) => {
      expect(text).not.toContain('shared/datasets')
      expect(text).not.toMatch(/TESTBENCH_DATA_DIR/)
      if (/--shard=|\.ci\/run|npm test|bare-run/.test(text)) {
        const datasets = join(cacheDir({}), 'datasets').slice(REPO_ROOT.length)
        expect(text).toContain(`actions/cache@`)
        expect(text).toContain(datasets)
      }
    },
  )

  test('a split run keeps blob reports as artifacts and merges them in one job', () => {
    for (const name of ['model-gate.yml', 'suite-matrix.yml']) {
      const text = workflows.find((workflow) => workflow.name === name)?.text ?? ''
      expect(text, name).toMatch(/--shard=\$\{\{ matrix\.shard \}\}\//)
      expect(text, name).toContain('--reporter=blob')
      expect(text, name).toContain('actions/upload-artifact@')
      expect(text, name).toContain('--merge-reports=.vitest-reports')
    }
  })
})

describe('.ci/run', () => {
  const run = readFileSync(join(REPO_ROOT, '.ci', 'run'), 'utf8')
  test('installs through the same script as the workflows, and requires every tool', () => {
    expect(run).toContain('.ci/install-packages')
    expect(run).toContain('export TESTBENCH_REQUIRE_TOOLS=1')
  })

  test('checks the formatting, as the CI workflow does', () => {
    expect(run).toContain('npm run lint')
    expect(workflows.find((workflow) => workflow.name === 'ci.yml')?.text).toContain('run: npm run lint')
  })
})
