import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { startVitestRun } from '../../support/run-vitest.ts'

/** End to end: the gate over real runs of FaRel (5 quizzes per class) and the demo suite, in child processes. */

const FAREL_GATE = { TESTBENCH_FAREL_PER_CLASS: '5', TESTBENCH_GATE_CONFIG: 'fixtures/gate/testbench.gate.json' }

function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'model-gate-'))
}

function demoGate(dir: string): string {
  const file = join(dir, 'demo.gate.json')
  writeFileSync(file, JSON.stringify({ suites: { demo: { minimum: { 'demo pass rate': 0.2 } } } }))
  return file
}

test('a candidate 10 items worse than the baseline fails the gate, which lists them, although a --reporter flag replaced the configured reporters', async () => {
  const reports = scratch()
  const { code, output } = await startVitestRun(['--project', 'suites', 'suites/farel', '--reporter=dot'], {
    ...FAREL_GATE,
    MODEL: 'replay:fixtures/gate/farel-candidate-10-worse.jsonl',
    TESTBENCH_REPORT_DIR: reports,
  }).done
  expect(output).toContain('Model gate (fixtures/gate/testbench.gate.json): FAILED')
  expect(output).toContain('✓ FaRel-3 = 66.67 ≥ minimum 60')
  expect(output).toContain(
    'p = 0.0020, 10 items pass → fail, 0 fail → pass; exact McNemar p < α = 0.05: significantly worse',
  )
  const flipped = [
    'child #2',
    'parent #2',
    'grandchild #2',
    'sibling #2',
    'grandparent #2',
    'great grandchild #2',
    'niece or nephew #1',
    'niece or nephew #5',
    'aunt or uncle #4',
    'great grandparent #3',
  ]
  expect(output).toContain(
    `pass → fail (10):\n${flipped.map((id) => `        ${id}`).join('\n')}\n      fail → pass (0): none`,
  )
  expect(code).toBe(1)
  const verdict = JSON.parse(readFileSync(join(reports, 'gate.json'), 'utf8'))
  expect(verdict).toMatchObject({ passed: false, groups: [{ suite: 'farel', baseline: { passToFail: flipped } }] })
})

test('a candidate 1 item worse passes: on GitHub Actions its wrong answers are no error annotations, the verdict is one notice, and the job summary has the scores, the verdict and both flip lists', async () => {
  const summary = join(scratch(), 'summary.md')
  const { code, output } = await startVitestRun(['--project', 'suites', 'suites/farel'], {
    ...FAREL_GATE,
    MODEL: 'replay:fixtures/gate/farel-candidate-1-worse.jsonl',
    TESTBENCH_REPORT_DIR: scratch(),
    GITHUB_ACTIONS: 'true',
    GITHUB_STEP_SUMMARY: summary,
  }).done
  expect(output).toMatch(/Tests +6 failed \| 39 passed/)
  expect(output).toContain('Model gate (fixtures/gate/testbench.gate.json): PASSED')
  expect(output).toContain(
    'p = 1.0000, 1 items pass → fail, 0 fail → pass; exact McNemar p ≥ α = 0.05: not significantly worse',
  )
  expect(output).not.toContain('::error')
  expect(output.match(/^::notice /gm)).toHaveLength(1)
  expect(output).toMatch(
    /^::notice title=Model gate passed \(fixtures\/gate\/testbench\.gate\.json\)::farel · replay:fixtures/m,
  )
  // The one item that flipped is a warning; the five that were wrong in the baseline too are nothing.
  expect(output.match(/^::warning title=farel · [^:]*::/gm)).toEqual([
    '::warning title=farel · replay%3Afixtures/gate/farel-candidate-1-worse.jsonl%3A child #1::',
  ])
  expect(code).toBe(0)
  const markdown = readFileSync(summary, 'utf8')
  expect(markdown).toContain('## Scores: farel')
  expect(markdown).toContain('| replay:fixtures/gate/farel-candidate-1-worse.jsonl | 86.67 |')
  expect(markdown).toContain('## Model gate: ✅ passed')
  expect(markdown).toContain('- pass → fail (1): `child #1`')
  expect(markdown).toContain('- fail → pass (0): none')
  expect(markdown).not.toMatch(/failure|Vitest Test Report/)
})

test('a candidate 10 items worse fails: on GitHub Actions the verdict is one error annotation, and each item that flipped is an error', async () => {
  const summary = join(scratch(), 'summary.md')
  const { code, output } = await startVitestRun(['--project', 'suites', 'suites/farel'], {
    ...FAREL_GATE,
    MODEL: 'replay:fixtures/gate/farel-candidate-10-worse.jsonl',
    TESTBENCH_REPORT_DIR: scratch(),
    GITHUB_ACTIONS: 'true',
    GITHUB_STEP_SUMMARY: summary,
  }).done
  expect(code).toBe(1)
  expect(
    output.match(/^::error title=Model gate failed \(fixtures\/gate\/testbench\.gate\.json\)::.*significantly worse/gm),
  ).toHaveLength(1)
  expect(output.match(/^::error title=farel · [^:]*::passed in the baseline/gm)).toHaveLength(10)
  expect(readFileSync(summary, 'utf8')).toContain('## Model gate: ❌ failed')
})

test('baseline items that did not run fail the gate, which lists them: a run of one relation class proves nothing about the others', async () => {
  const { code, output } = await startVitestRun(['--project', 'suites', 'suites/farel', '-t', 'child'], {
    ...FAREL_GATE,
    MODEL: 'replay:fixtures/gate/farel-current-model.jsonl',
    TESTBENCH_REPORT_DIR: scratch(),
  }).done
  expect(output).toContain('Model gate (fixtures/gate/testbench.gate.json): FAILED')
  expect(output).toMatch(
    /✗ 40 item\(s\) of the baseline did not run, so the run cannot be compared with it \(filtered out, or a shard not merged\):\n {8}parent #1\n/,
  )
  expect(output).toContain(
    'farel · replay:fixtures/gate/farel-current-model.jsonl · PARTIAL: 5 of 45 items (filtered with -t child)',
  )
  expect(code).toBe(1)
})

test('an item the provider could not answer fails the gate, even with every minimum met', async () => {
  const dir = scratch()
  const replies = join(dir, 'replies.jsonl')
  writeFileSync(
    replies,
    ['sum-2+3', 'sum-17+25', 'sum-123+877', 'sum--40+2']
      .map((id) => `${JSON.stringify({ id, reply: '<ANSWER>0</ANSWER>' })}\n`)
      .join(''),
  )
  const { code, output } = await startVitestRun(['--project', 'suites', 'suites/demo'], {
    MODEL: `replay:${replies}`,
    TESTBENCH_GATE_CONFIG: demoGate(dir),
    TESTBENCH_REPORT_DIR: dir,
  }).done
  expect(output).toContain('FAILED')
  expect(output).toContain(`sum-99999+1: provider_error (${replies} has no answer for item sum-99999+1, sample 0.)`)
  expect(code).toBe(1)
})

test('a run where no item ran fails the gate', async () => {
  const dir = scratch()
  const { code, output } = await startVitestRun(['--project', 'suites', 'suites/demo', '-t', 'no such item'], {
    MODEL: 'reference',
    TESTBENCH_GATE_CONFIG: demoGate(dir),
    TESTBENCH_REPORT_DIR: dir,
  }).done
  expect(output).toContain('✗ no benchmark item ran: an empty run proves nothing about the model.')
  expect(code).toBe(1)
})

test('a mistake in the gate config stops the run before any item is asked, with one clear message', async () => {
  const dir = scratch()
  const config = join(dir, 'broken.gate.json')
  writeFileSync(config, JSON.stringify({ suites: { demo: { minimun: { 'demo pass rate': 0.5 } } } }))
  const { code, output } = await startVitestRun(['--project', 'suites', 'suites/demo'], {
    MODEL: 'reference',
    TESTBENCH_GATE_CONFIG: config,
    TESTBENCH_REPORT_DIR: dir,
  }).done
  expect(output).toContain(
    `GateConfigError: ${config}: suites.demo has the unknown key "minimun": the keys are "minimum", "baseline", "maxDrop", "models".`,
  )
  expect(output).not.toContain('demo: scores')
  expect(code).toBe(1)
})

test('a run of the harness tests alone is not gated, and says so', async () => {
  const dir = scratch()
  const { code, output } = await startVitestRun(['--project', 'harness', 'test/reporters/statistics/mcnemar.test.ts'], {
    TESTBENCH_GATE_CONFIG: demoGate(dir),
    TESTBENCH_REPORT_DIR: dir,
  }).done
  expect(output).toContain('not applied, this run has no benchmark test files (project suites)')
  expect(existsSync(join(dir, 'gate.json'))).toBe(false)
  expect(code).toBe(0)
})
