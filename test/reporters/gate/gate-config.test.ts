import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { gateConfigFile, gateFor, loadGateConfig } from '../../../reporters/gate/gate-config.ts'
import { REPO_ROOT } from '../../support/run-vitest.ts'

function configIn(content: unknown): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'gate-config-'))
  writeFileSync(join(dir, 'testbench.gate.json'), typeof content === 'string' ? content : JSON.stringify(content))
  return { dir, file: 'testbench.gate.json' }
}

function loadError(content: unknown): string {
  const { dir, file } = configIn(content)
  try {
    loadGateConfig(file, dir)
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
  throw new Error('the config loaded without an error')
}

test('the fixture config loads with its baseline report', () => {
  const config = loadGateConfig('fixtures/gate/testbench.gate.json', REPO_ROOT)
  expect(config.alpha).toBe(0.05)
  const farel = gateFor(config, 'farel', 'any model')
  expect(farel?.minimum).toEqual({ 'FaRel-3': 60 })
  expect(farel?.baseline?.report.items).toHaveLength(45)
  expect(gateFor(config, 'euler', 'any model')).toBeUndefined()
})

test("a model's own minimum and baseline apply over the suite's", () => {
  const { dir, file } = configIn({
    suites: {
      demo: {
        minimum: { 'demo pass rate': 0.5, other: 1 },
        models: { 'openai:big': { minimum: { 'demo pass rate': 0.9 } } },
      },
    },
  })
  const config = loadGateConfig(file, dir)
  expect(gateFor(config, 'demo', 'openai:big')?.minimum).toEqual({ 'demo pass rate': 0.9, other: 1 })
  expect(gateFor(config, 'demo', 'reference')?.minimum).toEqual({ 'demo pass rate': 0.5, other: 1 })
})

test("maxDrop: the suite's, or a model's own over it", () => {
  const baseline = join(REPO_ROOT, 'fixtures/gate/farel-baseline.json')
  const { dir, file } = configIn({ suites: { farel: { baseline, maxDrop: 2, models: { big: { maxDrop: 0.5 } } } } })
  const config = loadGateConfig(file, dir)
  expect(gateFor(config, 'farel', 'small')?.maxDrop).toBe(2)
  expect(gateFor(config, 'farel', 'big')?.maxDrop).toBe(0.5)
})

describe('mistakes are one message that names the file, the key and the fix', () => {
  test.for([
    ['not JSON', '{ "suites": ', /testbench.gate.json: cannot read the gate config as JSON/],
    ['no suites', {}, /"suites" is missing: name at least one suite/],
    [
      'a misspelt key',
      { suites: { farel: { minimun: { 'FaRel-3': 80 } } } },
      /suites.farel has the unknown key "minimun": the keys are "minimum", "baseline", "maxDrop", "models"/,
    ],
    [
      'a quoted number',
      { suites: { farel: { minimum: { 'FaRel-3': '80' } } } },
      /suites.farel.minimum\["FaRel-3"\] must be a number.*"80"/,
    ],
    [
      'alpha out of range',
      { alpha: 5, suites: { farel: { minimum: { 'FaRel-3': 80 } } } },
      /"alpha" must be a number between 0 and 1/,
    ],
    [
      'a maxDrop that is no number of points',
      { suites: { farel: { minimum: { 'FaRel-3': 80 }, maxDrop: -2 } } },
      /suites.farel.maxDrop must be a number of points from 0 to 100.*-2/,
    ],
    [
      'a maxDrop without a baseline',
      { suites: { farel: { minimum: { 'FaRel-3': 80 }, models: { m: { maxDrop: 2 } } } } },
      /suites.farel.models\["m"\].maxDrop needs a "baseline" report to compare with/,
    ],
    [
      'a suite that gates nothing',
      { suites: { farel: {} } },
      /suites.farel gates nothing: give it a "minimum" score, a "baseline" report, or both/,
    ],
    [
      'a missing baseline',
      { suites: { farel: { baseline: 'baselines/farel.json' } } },
      /suites.farel.baseline names baselines\/farel.json, which does not exist.*cp .testbench\/reports\/farel\/<run>__<model>.json baselines\/farel.json/,
    ],
  ] as const)('%s', ([, content, message]) => {
    expect(loadError(content)).toMatch(message)
  })

  test('a baseline of another suite, or of one shard, or of an interrupted run', () => {
    const { dir } = configIn({})
    const report = { benchmark: 'farel', model: { label: 'm' }, complete: true, items: [] }
    writeFileSync(join(dir, 'farel.json'), JSON.stringify(report))
    writeFileSync(join(dir, 'shard.json'), JSON.stringify({ ...report, shard: { index: 1, count: 3 } }))
    writeFileSync(join(dir, 'broken.json'), JSON.stringify({ ...report, complete: false }))
    writeFileSync(join(dir, 'not-a-report.json'), JSON.stringify({ benchmark: 'farel' }))
    const error = (suite: string, baseline: string) =>
      loadError({ suites: { [suite]: { baseline: join(dir, baseline) } } })
    expect(error('euler', 'farel.json')).toMatch(/is a report of farel, not of euler/)
    expect(error('farel', 'shard.json')).toMatch(
      /is the report of shard 1\/3 only: use the report that --merge-reports wrote/,
    )
    expect(error('farel', 'broken.json')).toMatch(/a run that did not finish/)
    expect(error('farel', 'not-a-report.json')).toMatch(
      /not-a-report.json is not a report the score reporter wrote: it has no "model.label"/,
    )
  })
})

test('TESTBENCH_GATE_CONFIG picks the file, off turns the gate off, and a wrong path is an error', () => {
  const { dir } = configIn({ suites: { demo: { minimum: { x: 1 } } } })
  expect(gateConfigFile({}, dir)).toBe('testbench.gate.json')
  expect(gateConfigFile({ TESTBENCH_GATE_CONFIG: 'off' }, dir)).toBeUndefined()
  expect(gateConfigFile({}, mkdtempSync(join(tmpdir(), 'no-gate-')))).toBeUndefined()
  expect(() => gateConfigFile({ TESTBENCH_GATE_CONFIG: 'gates/missing.json' }, dir)).toThrow(
    /TESTBENCH_GATE_CONFIG=gates\/missing.json: there is no such file/,
  )
})
