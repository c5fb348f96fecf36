import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import type { ItemRecord } from '../../../harness/records/item-record.ts'
import { swebenchOptions } from '../../../suites/swebench/options.ts'
import { predictionsPath, writePredictions } from '../../../suites/swebench/predictions.ts'
import { evaluationImage } from '../../../suites/swebench/run-item.ts'
import { scoreSwebench } from '../../../suites/swebench/score.ts'

describe('predictions', () => {
  test('written as SWE-bench JSONL from the records, one file per model and sample; an item without a reply has no line', () => {
    const reports = mkdtempSync(join(tmpdir(), 'swebench-preds-'))
    const record = (
      itemId: string,
      sample: number,
      outcome: ItemRecord['outcome'],
      extracted?: string,
    ): ItemRecord => ({
      suite: 'swebench',
      itemId,
      model: 'openai:gpt-4o',
      provider: 'openai',
      sample,
      outcome,
      ...(extracted === undefined ? {} : { extracted }),
    })
    writePredictions(reports, [
      record('a__b-1', 0, 'passed', 'diff --git a/x b/x\n'),
      record('a__b-2', 0, 'no_answer', ''),
      record('a__b-3', 0, 'provider_error'),
      record('a__b-1', 1, 'wrong_answer', 'diff --git a/y b/y\n'),
    ])
    const read = (path: string) =>
      readFileSync(path, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as unknown)
    const path = predictionsPath(reports, 'openai:gpt-4o')
    expect(path).toMatch(/swebench\/openai_gpt-4o\.predictions\.jsonl$/)
    expect(read(path)).toEqual([
      { instance_id: 'a__b-1', model_name_or_path: 'openai:gpt-4o', model_patch: 'diff --git a/x b/x\n' },
      { instance_id: 'a__b-2', model_name_or_path: 'openai:gpt-4o', model_patch: '' },
    ])
    expect(read(predictionsPath(reports, 'openai:gpt-4o', 1))).toEqual([
      { instance_id: 'a__b-1', model_name_or_path: 'openai:gpt-4o', model_patch: 'diff --git a/y b/y\n' },
    ])
  })
})

describe('scoreSwebench', () => {
  const record = (itemId: string, outcome: ItemRecord['outcome'], status: string): ItemRecord => ({
    suite: 'swebench',
    itemId,
    model: 'm',
    provider: 'p',
    sample: 0,
    outcome,
    scoring: { status, dataset: 'lite', repo: 'o/r', contextFiles: 0, repairedHunks: 0 },
    output: `${status} because`,
  })

  test("% Resolved over upstream's denominator: an evaluation that broke counts unresolved, reported apart; unevaluated patches are left out", () => {
    const [score, ...others] = scoreSwebench([
      record('r1', 'passed', 'resolved'),
      record('p1', 'wrong_answer', 'partially_resolved'),
      record('n1', 'wrong_answer', 'not_resolved'),
      record('e1', 'no_answer', 'patch_error'),
      record('i1', 'infra_error', 'infra_error'),
      record('g1', 'passed', 'generated'),
    ])
    expect(others).toEqual([])
    // 1 resolved of 5 evaluated (the infra error among them), as SWE-bench's report counts them.
    expect(score).toMatchObject({
      name: 'SWE-bench Lite % Resolved',
      value: 20,
      display: '20.00%',
      counted: { solved: 1, total: 5 },
    })
    expect(score?.columns).toMatchObject({
      resolved: '1',
      partially: '1',
      'not resolved': '1',
      'patch errors': '1',
      'evaluation errors': '1',
      'not judged': '1',
    })
    expect(score?.excluded).toEqual([{ itemId: 'g1', reason: 'not evaluated (TESTBENCH_SWEBENCH_EVALUATE=0)' }])
  })

  test('an instance the model could not be asked is left out, with the reason', () => {
    const [score] = scoreSwebench([record('r1', 'passed', 'resolved'), record('q1', 'provider_error', 'empty_patch')])
    expect(score).toMatchObject({
      value: 100,
      counted: { solved: 1, total: 1 },
      excluded: [{ itemId: 'q1', reason: 'provider_error: empty_patch because' }],
    })
  })

  test('each dataset is scored apart, under its own name', () => {
    const on = (dataset: string, status: string, outcome: ItemRecord['outcome']) => {
      const base = record(`${dataset}-${status}`, outcome, status)
      return { ...base, scoring: { ...base.scoring, dataset } }
    }
    const scores = scoreSwebench([
      on('lite', 'resolved', 'passed'),
      on('verified', 'not_resolved', 'wrong_answer'),
      on('own file', 'resolved', 'passed'),
    ])
    expect(scores.map((score) => [score.name, score.value])).toEqual([
      ['SWE-bench Lite % Resolved', 100],
      ['SWE-bench Verified % Resolved', 0],
      ['SWE-bench (own file) % Resolved', 100],
    ])
  })
})

describe('options and image names', () => {
  test('defaults, and knobs that say what is wrong', () => {
    expect(swebenchOptions({})).toMatchObject({
      context: 'oracle',
      evaluate: true,
      timeoutMs: 1_800_000,
      network: undefined,
      keepImages: false,
      memoryBytes: 0,
    })
    expect(
      swebenchOptions({ TESTBENCH_SWEBENCH_NETWORK: 'bridge', TESTBENCH_SWEBENCH_KEEP_IMAGES: '1' }),
    ).toMatchObject({ network: 'bridge', keepImages: true })
    expect(swebenchOptions({ TESTBENCH_SWEBENCH_EVALUATE: '0', TESTBENCH_SWEBENCH_INSTANCES: 'a, b' })).toMatchObject({
      evaluate: false,
      instances: ['a', 'b'],
    })
    expect(() => swebenchOptions({ TESTBENCH_SWEBENCH_CONTEXT: 'bm25' })).toThrow(
      /TESTBENCH_SWEBENCH_CONTEXT=bm25 is not accepted: use oracle, oracle\+dir or none/,
    )
    expect(() => swebenchOptions({ TESTBENCH_SWEBENCH_IMAGE_TEMPLATE: 'img:latest' })).toThrow(
      /TESTBENCH_SWEBENCH_IMAGE_TEMPLATE=img:latest is not accepted: use an image name with `\{id\}`/,
    )
  })

  test('SWE-bench image names write __ as _1776_', () => {
    expect(evaluationImage(swebenchOptions({}).imageTemplate, 'django__django-15202')).toBe(
      'docker.io/swebench/sweb.eval.x86_64.django_1776_django-15202:latest',
    )
  })
})

describe('records without SWE-bench facts (an instance that broke before recording them: a clone that failed)', () => {
  const broken = (itemId: string, outcome: ItemRecord['outcome']): ItemRecord => ({
    suite: 'swebench',
    itemId,
    model: 'm',
    provider: 'p',
    sample: 0,
    outcome,
    reason: 'Could not clone',
  })
  const scored: ItemRecord = {
    ...broken('r1', 'passed'),
    scoring: { status: 'resolved', dataset: 'lite', repo: 'o/r', contextFiles: 0, repairedHunks: 0 },
  }

  test("join their model's dataset: infra_error counts unresolved as an evaluation error, provider_error is left out", () => {
    const scores = scoreSwebench([broken('i1', 'infra_error'), scored, broken('q1', 'provider_error')])
    expect(scores).toHaveLength(1)
    expect(scores[0]).toMatchObject({
      name: 'SWE-bench Lite % Resolved',
      value: 50,
      counted: { solved: 1, total: 2 },
      excluded: [{ itemId: 'q1', reason: 'provider_error: ' }],
    })
    expect(scores[0]?.columns).toMatchObject({ resolved: '1', 'evaluation errors': '1' })
  })

  test('alone give a score that says the dataset was not recorded, and no error', () => {
    const [score] = scoreSwebench([broken('i1', 'infra_error'), broken('i2', 'infra_error')])
    expect(score).toMatchObject({
      name: 'SWE-bench (dataset not recorded) % Resolved',
      value: 0,
      counted: { solved: 0, total: 2 },
    })
    expect(score?.columns).toMatchObject({ 'evaluation errors': '2' })
  })
})
