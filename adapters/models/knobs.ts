import { resolve } from 'node:path'
import type { ThinkSetting } from './model-adapter.ts'
import { nonNegativeInteger, nonNegativeNumber, positiveInteger, positiveNumber, type KnobGroup } from '../knob.ts'

/**
 * The environment knobs the model adapters read, one small function per knob,
 * declared in `modelKnobs` (the shape of the project's knob table) for the README and the up-front check.
 */

export const modelKnobs: KnobGroup = {
  title: 'models',
  knobs: [
    { name: 'TESTBENCH_CACHE_DIR', kind: 'path', default: '.testbench/cache', accepted: 'a writable directory', readme: 'replies, downloaded datasets, calibrations' },
    { name: 'TESTBENCH_CACHE', kind: 'choice', default: 'on', accepted: 'on, off or refresh', readme: '`on` reuses stored replies, `refresh` asks again and overwrites, `off` neither reads nor writes' },
    { name: 'TESTBENCH_REQUEST_TIMEOUT', kind: 'integer', default: '600', accepted: 'seconds, a whole number ≥ 1', readme: 'seconds one model request may take, retries included' },
    { name: 'TESTBENCH_IDLE_TIMEOUT', kind: 'number', default: '300', accepted: 'seconds, a number above 0', readme: 'seconds an attempt may go without receiving a byte before it is given up and retried' },
    { name: 'TESTBENCH_RETRIES', kind: 'integer', default: '8', accepted: 'a whole number ≥ 0', readme: 'retries after any transport failure (no connection, a reply broken, malformed, stalled or cut short, 408, 429, 5xx)' },
    { name: 'TESTBENCH_RETRY_DELAY', kind: 'number', default: '0.5', accepted: 'seconds, a number ≥ 0', readme: 'first backoff delay (doubling, with jitter); `Retry-After` wins' },
    { name: 'TESTBENCH_THINK', kind: 'choice', default: "the model's default", accepted: 'on, off, low, medium or high', readme: 'switches thinking on or off, or asks for that effort; part of the cache key and of every report' },
    { name: 'TESTBENCH_CONCURRENCY', kind: 'integer', default: '2 for Ollama, 8 otherwise', accepted: 'a whole number ≥ 1', readme: 'model requests in flight per provider, across all the workers of a run (of a machine, in a sharded run)' },
  ],
}

const THINK_SETTINGS: readonly ThinkSetting[] = ['on', 'off', 'low', 'medium', 'high']

/** TESTBENCH_THINK: thinking switched on or off, or an effort; undefined leaves the model's default. */
export function thinkSetting(env: NodeJS.ProcessEnv = process.env): ThinkSetting | undefined {
  const value = (env.TESTBENCH_THINK ?? '').trim().toLowerCase()
  if (value === '') return undefined
  const setting = THINK_SETTINGS.find((candidate) => candidate === value)
  if (setting !== undefined) return setting
  throw new Error(`TESTBENCH_THINK=${env.TESTBENCH_THINK} is not understood: use on, off, low, medium or high, or leave it unset for the model's default.`)
}

export type CacheMode = 'on' | 'off' | 'refresh'

export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.TESTBENCH_CACHE_DIR ?? '.testbench/cache')
}

/** `on` reuses stored replies (a rerun resumes), `off` neither reads nor writes, `refresh` asks again and overwrites. */
export function cacheMode(env: NodeJS.ProcessEnv = process.env): CacheMode {
  const value = (env.TESTBENCH_CACHE ?? '').trim() || 'on'
  if (value === 'on' || value === 'off' || value === 'refresh') return value
  throw new Error(`TESTBENCH_CACHE=${value} is not understood: use on (default), off or refresh.`)
}

/** The time limit of one request to a model, every retry included. */
export function requestTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  return positiveInteger(env, 'TESTBENCH_REQUEST_TIMEOUT', 600) * 1000
}

/** How long one attempt may go without receiving a byte before it is given up as stalled. */
export function idleTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  return positiveNumber(env, 'TESTBENCH_IDLE_TIMEOUT', 300) * 1000
}

export function maxRetries(env: NodeJS.ProcessEnv = process.env): number {
  return nonNegativeInteger(env, 'TESTBENCH_RETRIES', 8)
}

export function retryDelayMs(env: NodeJS.ProcessEnv = process.env): number {
  return nonNegativeNumber(env, 'TESTBENCH_RETRY_DELAY', 0.5) * 1000
}

/** Requests in flight per provider and process; the default suits a local Ollama or a hosted API. */
export function providerConcurrency(provider: string, env: NodeJS.ProcessEnv = process.env): number {
  return positiveInteger(env, 'TESTBENCH_CONCURRENCY', provider === 'ollama' ? 2 : 8)
}
