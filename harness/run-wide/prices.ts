import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathKnob, type KnobGroup } from '../../adapters/knob.ts'
import type { TokenUsage } from '../../adapters/models/model-adapter.ts'

/**
 * Per-model token prices, from a small JSON file the user keeps (`TESTBENCH_PRICES=prices.json`):
 *
 *   { "currency": "USD",
 *     "perMillionTokens": { "openai:gpt-4o": { "input": 2.5, "output": 10 },
 *                           "anthropic:claude-sonnet-4-5": { "input": 3, "output": 15 } } }
 *
 * Models are named as in MODEL (the reports' `model.label`). A run's cost is its prompt tokens times
 * the input price plus its completion tokens times the output price; prompt tokens read from or written
 * to the provider's prompt cache cost `cacheRead` and `cacheWrite` where the file gives them, else `input`.
 * Tokens a provider's batch API answered (TESTBENCH_BATCH) cost `batchInput` and `batchOutput` where the file gives
 * them, else half of `input` and `output` (the providers' batch discount); their cached prompt tokens get the same
 * discount. A model without a price has none.
 */
export interface Prices {
  file: string
  currency: string
  perMillionTokens: Record<string, TokenPrice>
}

/** One model's prices per million tokens. */
export interface TokenPrice {
  input: number
  output: number
  /** Prompt tokens read from the provider's prompt cache; default `input`. */
  cacheRead?: number
  /** Prompt tokens written to the provider's prompt cache; default `input`. */
  cacheWrite?: number
  /** Prompt tokens of requests a batch answered; default half of `input`. */
  batchInput?: number
  /** Completion tokens of requests a batch answered; default half of `output`. */
  batchOutput?: number
}

const REQUIRED_PRICES = ['input', 'output'] as const
const OPTIONAL_PRICES = ['cacheRead', 'cacheWrite', 'batchInput', 'batchOutput'] as const

export interface Cost {
  currency: string
  /** What the prompt tokens cost. */
  input: number
  /** What the completion tokens cost. */
  output: number
  total: number
}

export const PRICES = pathKnob({
  name: 'TESTBENCH_PRICES',
  accepted: 'a JSON file `{ "currency": "USD", "perMillionTokens": { "<model>": { "input": 2.5, "output": 10 } } }`',
  readme: 'token prices per model (as named in MODEL): reports, the leaderboard and `compare` show each run’s cost',
})
export const PRICES_KNOB = PRICES.name

export const reportKnobs: KnobGroup = {
  title: 'reports',
  knobs: [PRICES],
  check: (env) => {
    pricesFromEnv(env)
  },
}

export class PricesError extends Error {
  override readonly name = 'PricesError'
}

/** The prices file TESTBENCH_PRICES names, read and checked; undefined when it is unset. */
export function pricesFromEnv(env: NodeJS.ProcessEnv = process.env): Prices | undefined {
  const file = PRICES.read(env)
  return file === undefined ? undefined : readPrices(resolve(file))
}

export function readPrices(file: string): Prices {
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    throw new PricesError(
      `${PRICES_KNOB}=${file} cannot be read as JSON (${(error as Error).message}): give a file like { "currency": "USD", "perMillionTokens": { "openai:gpt-4o": { "input": 2.5, "output": 10 } } }.`,
    )
  }
  const problem = pricesProblem(parsed)
  if (problem)
    throw new PricesError(
      `${PRICES_KNOB}=${file}: ${problem}. The file looks like { "currency": "USD", "perMillionTokens": { "openai:gpt-4o": { "input": 2.5, "output": 10 } } }, prices per million tokens.`,
    )
  return { file, ...(parsed as Omit<Prices, 'file'>) }
}

function pricesProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'it is not a JSON object'
  if (typeof value.currency !== 'string' || value.currency.trim() === '') return 'it has no "currency" (e.g. "USD")'
  if (!isObject(value.perMillionTokens)) return 'it has no "perMillionTokens" object of models'
  for (const [model, price] of Object.entries(value.perMillionTokens)) {
    if (!isObject(price)) return `the price of ${model} is not an object { "input": …, "output": … }`
    for (const side of [...REQUIRED_PRICES, ...OPTIONAL_PRICES]) {
      const amount = price[side]
      if (amount === undefined && !(REQUIRED_PRICES as readonly string[]).includes(side)) continue
      if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0)
        return `the ${side} price of ${model} is ${JSON.stringify(amount)}, not a number of at least 0`
    }
    const known: readonly string[] = [...REQUIRED_PRICES, ...OPTIONAL_PRICES]
    const unknown = Object.keys(price).find((key) => !known.includes(key))
    if (unknown !== undefined) return `the price of ${model} has "${unknown}", which is none of ${known.join(', ')}`
  }
  return undefined
}

/** What `tokens` cost `model` at these prices; undefined when the model has no price. */
export function costOf(prices: Prices | undefined, model: string, tokens: TokenUsage): Cost | undefined {
  const price = prices?.perMillionTokens[model]
  if (!prices || !price) return undefined
  return { currency: prices.currency, ...tokenCost(tokens, price) }
}

/**
 * What a run's tokens cost `model`: `batchTokens` (the part of `tokens` a batch answered) at the batch price,
 * the rest at the list price; undefined when the model has no price.
 */
export function runCost(
  prices: Prices | undefined,
  model: string,
  tokens: TokenUsage,
  batchTokens: TokenUsage | undefined,
): Cost | undefined {
  const price = prices?.perMillionTokens[model]
  if (!prices || !price) return undefined
  if (batchTokens === undefined) return costOf(prices, model, tokens)
  const listed = tokenCost(tokensMinus(tokens, batchTokens), price)
  const batched = tokenCost(batchTokens, batchPrice(price))
  const input = listed.input + batched.input
  const output = listed.output + batched.output
  return { currency: prices.currency, input, output, total: input + output }
}

/** A model's prices for what a batch answers: the file's batch prices, else half the list price. */
export function batchPrice(price: TokenPrice): TokenPrice {
  const input = price.batchInput ?? price.input / 2
  const output = price.batchOutput ?? price.output / 2
  const inputShare = price.input === 0 ? 0.5 : input / price.input
  return {
    input,
    output,
    ...(price.cacheRead === undefined ? {} : { cacheRead: price.cacheRead * inputShare }),
    ...(price.cacheWrite === undefined ? {} : { cacheWrite: price.cacheWrite * inputShare }),
  }
}

function tokensMinus(tokens: TokenUsage, part: TokenUsage): TokenUsage {
  const less = (a: number | undefined, b: number | undefined) => Math.max(0, (a ?? 0) - (b ?? 0))
  return {
    prompt: less(tokens.prompt, part.prompt),
    completion: less(tokens.completion, part.completion),
    cacheRead: less(tokens.cacheRead, part.cacheRead),
    cacheWrite: less(tokens.cacheWrite, part.cacheWrite),
  }
}

/** What `tokens` cost at one model's prices, each kind at its own price. */
export function tokenCost(tokens: TokenUsage, price: TokenPrice): Omit<Cost, 'currency'> {
  const cacheRead = tokens.cacheRead ?? 0
  const cacheWrite = tokens.cacheWrite ?? 0
  const uncached = Math.max(0, tokens.prompt - cacheRead - cacheWrite)
  const input =
    (uncached * price.input +
      cacheRead * (price.cacheRead ?? price.input) +
      cacheWrite * (price.cacheWrite ?? price.input)) /
    1e6
  const output = (tokens.completion * price.output) / 1e6
  return { input, output, total: input + output }
}

/** `12.3456 USD`: four decimals below 100, two above. */
export function formatCost(cost: Cost): string {
  return `${cost.total.toFixed(cost.total >= 100 ? 2 : 4)} ${cost.currency}`
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
