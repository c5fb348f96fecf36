import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import type { ItemRecord } from '../../../harness/records/item-record.ts'
import { costOf, formatCost, pricesFromEnv, readPrices } from '../../../harness/run-wide/prices.ts'
import { buildRunReport, summaryText } from '../../../reporters/run-report.ts'
import { sumTokens } from '../../../adapters/models/token-usage.ts'

function pricesFile(content: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'prices-')), 'prices.json')
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content))
  return file
}

const PRICES = { currency: 'USD', perMillionTokens: { 'openai:gpt-4o': { input: 2.5, output: 10 } } }

test('a run’s cost is its prompt tokens at the input price plus its completion tokens at the output price', () => {
  const prices = readPrices(pricesFile(PRICES))
  // 1 200 000 · 2.5 / 1e6 + 300 000 · 10 / 1e6 = 3 + 3
  expect(costOf(prices, 'openai:gpt-4o', { prompt: 1_200_000, completion: 300_000 })).toEqual({
    currency: 'USD',
    input: 3,
    output: 3,
    total: 6,
  })
  expect(costOf(prices, 'ollama:qwen2.5', { prompt: 10, completion: 10 })).toBeUndefined()
  expect(formatCost({ currency: 'EUR', input: 0, output: 0, total: 0.01234 })).toBe('0.0123 EUR')
})

test('cached prompt tokens cost their own price where the file gives one, else the input price', () => {
  const prices = readPrices(
    pricesFile({
      currency: 'USD',
      perMillionTokens: {
        'anthropic:claude-sonnet-4-5': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
        'openai:gpt-4o': { input: 2.5, output: 10 },
      },
    }),
  )
  const tokens = { prompt: 1_000_000, completion: 100_000, cacheRead: 600_000, cacheWrite: 200_000, reasoning: 50_000 }
  // 200 000 · 3 + 600 000 · 0.3 + 200 000 · 3.75 = 0.6 + 0.18 + 0.75 (per 1e6); reasoning is part of completion.
  const priced = costOf(prices, 'anthropic:claude-sonnet-4-5', tokens)
  expect(priced?.input).toBeCloseTo(1.53, 10)
  expect(priced?.output).toBeCloseTo(1.5, 10)
  expect(costOf(prices, 'openai:gpt-4o', tokens)?.input).toBeCloseTo(2.5, 10)
  expect(() =>
    readPrices(pricesFile({ currency: 'USD', perMillionTokens: { m: { input: 1, output: 2, cachedInput: 1 } } })),
  ).toThrow(/"cachedInput", which is none of input, output, cacheRead, cacheWrite/)
  expect(() =>
    readPrices(pricesFile({ currency: 'USD', perMillionTokens: { m: { input: 1, output: 2, cacheRead: -1 } } })),
  ).toThrow(/cacheRead price of m is -1/)
})

test('a run’s tokens add up every kind its replies reported', () => {
  expect(
    sumTokens([{ prompt: 10, completion: 5, reasoning: 3 }, undefined, { prompt: 7, completion: 2, cacheRead: 4 }]),
  ).toEqual({
    prompt: 17,
    completion: 7,
    reasoning: 3,
    cacheRead: 4,
  })
})

test('the report and its summary carry the cost next to tokens/s and latency', () => {
  const items: ItemRecord[] = [1, 2].map((index) => ({
    suite: 'demo',
    itemId: `sum-${index}`,
    model: 'openai:gpt-4o',
    provider: 'openai',
    sample: 0,
    outcome: 'passed',
    tokens: { prompt: 1000, completion: 500 },
    latencyMs: 1000,
  }))
  const report = buildRunReport(items, [], {
    complete: true,
    endedAt: new Date('2026-01-01T00:00:00Z'),
    prices: readPrices(pricesFile(PRICES)),
  })
  // 2000 · 2.5 / 1e6 + 1000 · 10 / 1e6 = 0.005 + 0.01
  expect(report.cost).toEqual({ currency: 'USD', input: 0.005, output: 0.01, total: 0.015 })
  expect(summaryText(report)).toContain(
    '  tokens: 2000 prompt, 1000 completion, 500 tokens/s\n  cost: 0.0150 USD (prompt 0.0050, completion 0.0100)\n  latency: mean 1000 ms, p50 1000 ms, p95 1000 ms',
  )
})

test('a prices file with a mistake is one error naming the file, the mistake and the form', () => {
  expect(pricesFromEnv({})).toBeUndefined()
  expect(() => readPrices(pricesFile('{ not json'))).toThrow(/cannot be read as JSON .*"perMillionTokens"/)
  expect(() => readPrices(pricesFile({ perMillionTokens: {} }))).toThrow(/no "currency"/)
  expect(() => readPrices(pricesFile({ currency: 'USD', perMillionTokens: { m: { input: -1, output: 2 } } }))).toThrow(
    /the input price of m is -1, not a number of at least 0/,
  )
  expect(() => readPrices(pricesFile({ currency: 'USD', perMillionTokens: { m: { input: 1 } } }))).toThrow(
    /the output price of m is undefined/,
  )
})

test('tokens a batch answered cost half the list price, or the batch prices the file gives', () => {
  const items: ItemRecord[] = [1, 2].map((index) => ({
    suite: 'demo',
    itemId: `sum-${index}`,
    model: 'openai:gpt-4o',
    provider: 'openai',
    sample: 0,
    outcome: 'passed',
    tokens: { prompt: 1000, completion: 500 },
    latencyMs: 1000,
    ...(index === 1 ? { batch: 'batch_1' } : {}),
  }))
  const facts = { complete: true, endedAt: new Date('2026-01-01T00:00:00Z') }
  const half = buildRunReport(items, [], { ...facts, prices: readPrices(pricesFile(PRICES)) })
  expect(half.batchTokens).toEqual({ prompt: 1000, completion: 500 })
  // One by one: 1000 · 2.5 / 1e6 + 500 · 10 / 1e6; through the batch half of that.
  expect(half.cost?.input).toBeCloseTo(0.0025 + 0.00125, 10)
  expect(half.cost?.output).toBeCloseTo(0.005 + 0.0025, 10)
  expect(summaryText(half)).toContain(
    'through batches (batch price): 1000 prompt, 500 completion; one by one: 1000 prompt, 500 completion',
  )
  const own = readPrices(
    pricesFile({
      currency: 'USD',
      perMillionTokens: {
        'openai:gpt-4o': { ...PRICES.perMillionTokens['openai:gpt-4o'], batchInput: 1, batchOutput: 4 },
      },
    }),
  )
  const priced = buildRunReport(items, [], { ...facts, prices: own })
  expect(priced.cost?.total).toBeCloseTo(0.0025 + 0.005 + 0.001 + 0.002, 10)
  expect(() =>
    readPrices(pricesFile({ currency: 'USD', perMillionTokens: { m: { input: 1, output: 2, batchInput: 'half' } } })),
  ).toThrow(/the batchInput price of m is "half"/)
})
