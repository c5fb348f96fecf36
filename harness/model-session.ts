import type { ChatReply, ChatRequest, ModelDetails } from '../adapters/models/model-adapter.ts'
import { createAdapter } from '../adapters/models/create-adapter.ts'
import type { ModelSpec } from '../adapters/models/model-spec.ts'
import { ReplyCache } from '../adapters/models/reply-cache.ts'
import { inject } from 'vitest'
import { cacheDir, cacheMode, providerConcurrency, thinkSetting } from '../adapters/models/knobs.ts'
import { runWideLimiter } from './run-slots.ts'
import { batchingAsker } from './batch-asker.ts'

/** A model from MODEL after the up-front check: what the provider said about it comes along. */
export interface ResolvedModel extends ModelSpec {
  details: ModelDetails
}

declare module 'vitest' {
  interface ProvidedContext {
    benchModels: ResolvedModel[]
  }
}

export type Asker = (request: ChatRequest) => Promise<ChatReply>

const askers = new Map<string, Asker>()

/**
 * One asker per model and worker: the provider's adapter behind the reply cache and the in-flight limit,
 * TESTBENCH_CONCURRENCY requests per provider across the run's workers (in this worker alone when the
 * run has no slot server, as in the harness's own tests).
 */
export function askerFor(model: ResolvedModel): Asker {
  const existing = askers.get(model.label)
  if (existing) return existing
  const adapter = createAdapter(model)
  // Every request awaits the adapter and meets its error there; this only spares one no request used an unhandled rejection.
  adapter.catch(() => undefined)
  const answersFromData = model.provider === 'reference' || model.provider === 'replay'
  // The adapter keeps this worker's in-flight limit per attempt; the slot server holds it across the run's workers.
  // Answers read from data cost the model nothing: no need to share their limit.
  const slots = answersFromData ? undefined : inject('runSlots')
  const runWide =
    slots === undefined
      ? undefined
      : runWideLimiter(slots, `provider:${model.provider}`, providerConcurrency(model.provider))
  const chat: Asker = async (request) => (await adapter).chat(request)
  const ask: Asker = runWide === undefined ? chat : (request) => runWide(() => chat(request), request.signal)
  const cache = new ReplyCache(cacheDir(), cacheMode())
  // TESTBENCH_BATCH: the run's batch server, when it runs, answers one-shot requests at the batch price.
  const batches = answersFromData ? undefined : inject('runBatches')
  const asked =
    batches === undefined ? ask : batchingAsker(batches, model, (request) => cache.fileFor(model, request), ask)
  const cached = answersFromData ? ask : cache.wrap(model, asked)
  // TESTBENCH_THINK goes into every request's parameters, and so into its cache key; a suite's own setting wins.
  const think = thinkSetting()
  const asker: Asker =
    think === undefined
      ? cached
      : (request) =>
          cached(request.params.think === undefined ? { ...request, params: { ...request.params, think } } : request)
  askers.set(model.label, asker)
  return asker
}
