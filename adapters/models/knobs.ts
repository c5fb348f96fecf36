import { resolve } from 'node:path'
import { booleanKnob, choiceKnob, numberKnob, pathKnob, wholeNumberKnob, type KnobGroup } from '../knob.ts'
import type { ThinkSetting } from './model-adapter.ts'

/** The environment knobs the model adapters read, declared here and read through their declarations. */

export const CACHE_DIR = pathKnob({
  name: 'TESTBENCH_CACHE_DIR',
  default: '.testbench/cache',
  accepted: 'a writable directory',
  readme: 'replies, downloaded datasets, calibrations',
})
export const CACHE = choiceKnob({
  name: 'TESTBENCH_CACHE',
  choices: ['on', 'off', 'refresh'],
  default: 'on',
  readme: '`on` reuses stored replies, `refresh` asks again and overwrites, `off` neither reads nor writes',
})
export const REQUEST_TIMEOUT = wholeNumberKnob({
  name: 'TESTBENCH_REQUEST_TIMEOUT',
  default: 600,
  min: 1,
  unit: 'seconds',
  readme: 'seconds one model request may take, retries included',
})
export const IDLE_TIMEOUT = numberKnob({
  name: 'TESTBENCH_IDLE_TIMEOUT',
  default: 300,
  above: true,
  unit: 'seconds',
  readme: 'seconds an attempt may go without receiving a byte before it is given up and retried',
})
export const RETRIES = wholeNumberKnob({
  name: 'TESTBENCH_RETRIES',
  default: 8,
  readme:
    'retries after any transport failure (no connection, a reply broken, malformed, stalled or cut short, 408, 429, 5xx)',
})
export const RETRY_DELAY = numberKnob({
  name: 'TESTBENCH_RETRY_DELAY',
  default: 0.5,
  unit: 'seconds',
  readme: 'first backoff delay (doubling, with jitter); `Retry-After` wins',
})
export const THINK = choiceKnob<ThinkSetting>({
  name: 'TESTBENCH_THINK',
  choices: ['on', 'off', 'low', 'medium', 'high'],
  defaultText: "the model's default",
  readme:
    "thinking switched on or off, or an effort, in each protocol's own field; part of the cache key and of every report; a model that cannot honour it says so up front",
})
export const VISION = booleanKnob({
  name: 'TESTBENCH_VISION',
  default: false,
  readme:
    "whether a hosted model can see: images are sent to it as content parts, else left out (Ollama's own `vision` capability decides for Ollama models)",
})
export const CONCURRENCY = wholeNumberKnob({
  name: 'TESTBENCH_CONCURRENCY',
  min: 1,
  defaultText: '2 for Ollama, 8 otherwise',
  readme:
    'the most model requests in flight per endpoint, across all the workers of a run (of a machine, in a sharded run); fewer while the provider refuses for its rate limit or load',
})
export const FAIL_ON_RATE_LIMIT = booleanKnob({
  name: 'TESTBENCH_FAIL_ON_RATE_LIMIT',
  default: false,
  readme:
    'a 429 ends the request with a provider_error at once instead of waiting at the pace the provider allows (free tiers, agent-driven runs)',
})

export const OPENAI_API = choiceKnob({
  name: 'TESTBENCH_OPENAI_API',
  choices: ['auto', 'responses', 'chat'],
  default: 'auto',
  readme:
    'which API `openai:` models are asked through: `auto` picks the Responses API for the models OpenAI serves only there (codex, `-pro`) and its reasoning models (o-series, gpt-5), Chat Completions for every other name; `responses` or `chat` forces one for any server. Part of the cache key and of every report',
})

export const modelKnobs: KnobGroup = {
  title: 'models',
  knobs: [
    CACHE_DIR,
    CACHE,
    REQUEST_TIMEOUT,
    IDLE_TIMEOUT,
    RETRIES,
    RETRY_DELAY,
    THINK,
    VISION,
    CONCURRENCY,
    FAIL_ON_RATE_LIMIT,
    OPENAI_API,
  ],
}

export type CacheMode = 'on' | 'off' | 'refresh'

export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(CACHE_DIR.read(env))
}

/** `on` reuses stored replies (a rerun resumes), `off` neither reads nor writes, `refresh` asks again and overwrites. */
export function cacheMode(env: NodeJS.ProcessEnv = process.env): CacheMode {
  return CACHE.read(env)
}

/** The time limit of one request to a model, every retry included. */
export function requestTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  return REQUEST_TIMEOUT.read(env) * 1000
}

/** How long one attempt may go without receiving a byte before it is given up as stalled. */
export function idleTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  return IDLE_TIMEOUT.read(env) * 1000
}

export function maxRetries(env: NodeJS.ProcessEnv = process.env): number {
  return RETRIES.read(env)
}

export function retryDelayMs(env: NodeJS.ProcessEnv = process.env): number {
  return RETRY_DELAY.read(env) * 1000
}

/** Requests in flight per provider and process; the default suits a local Ollama or a hosted API. */
export function providerConcurrency(provider: string, env: NodeJS.ProcessEnv = process.env): number {
  return CONCURRENCY.read(env) ?? (provider === 'ollama' ? 2 : 8)
}

/** TESTBENCH_FAIL_ON_RATE_LIMIT: a 429 is a provider_error at once, not a wait. */
export function failOnRateLimit(env: NodeJS.ProcessEnv = process.env): boolean {
  return FAIL_ON_RATE_LIMIT.read(env)
}

/** TESTBENCH_THINK: thinking on, off or an effort; undefined leaves the model's default. */
export function thinkSetting(env: NodeJS.ProcessEnv = process.env): ThinkSetting | undefined {
  return THINK.read(env)
}

/** TESTBENCH_VISION: whether a hosted model is sent images (Ollama says for itself whether its model can see). */
export function visionEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return VISION.read(env)
}
