import { createAdapter } from '../adapters/models/create-adapter.ts'
import { ReplyCache } from '../adapters/models/reply-cache.ts'
import { inject } from 'vitest'
import { cacheDir, cacheMode, thinkSetting } from '../adapters/models/knobs.ts'
import { useRunWideSlots, type RunWideSlots } from '../adapters/models/requests/endpoint-slots.ts'
import { runWideEndpointSlots } from './run-wide/run-slots.ts'
import { runWideLedger } from './run-wide/run-budget.ts'
import {
  COST_LIMIT,
  CostLimitReached,
  localLedger,
  replyCost,
  spentText,
  worstCaseCost,
  type Ledger,
} from './run-wide/cost-budget.ts'
import { pricesFromEnv } from './run-wide/prices.ts'
import { batchingAsker } from './batches/batch-asker.ts'
import type { Asker, ResolvedModel } from './resolved-model.ts'

export type { Asker, ResolvedModel } from './resolved-model.ts'

const askers = new Map<string, Asker>()
let runWide: { address: string; slots: RunWideSlots } | undefined

/**
 * One asker per model and worker: the provider's adapter behind the reply cache. The adapter takes a slot
 * of its endpoint for each attempt: at most TESTBENCH_CONCURRENCY requests in flight per endpoint across
 * the run's workers, fewer while the provider throttles (in this worker alone when the run has no slot
 * server, as in the harness's own tests).
 */
export function askerFor(model: ResolvedModel): Asker {
  const existing = askers.get(model.label)
  if (existing) return existing
  const answersFromData = model.provider === 'reference' || model.provider === 'replay'
  // Answers read from data cost the model nothing: no need to share their limit.
  const address = answersFromData ? undefined : inject('runSlots')
  if (address !== undefined) {
    if (runWide?.address !== address) runWide = { address, slots: runWideEndpointSlots(address) }
    useRunWideSlots(runWide.slots)
  }
  const adapter = createAdapter(model)
  // Every request awaits the adapter and meets its error there; this only spares one no request used an unhandled rejection.
  adapter.catch(() => undefined)
  const chat: Asker = async (request) => (await adapter).chat(request)
  const cache = new ReplyCache(cacheDir(), cacheMode())
  // TESTBENCH_BATCH: the run's batch server, when it runs, answers one-shot requests at the batch price.
  const batches = answersFromData ? undefined : inject('runBatches')
  const asked =
    batches === undefined ? chat : batchingAsker(batches, model, (request) => cache.fileFor(model, request), chat)
  // The cost limit reserves each request's worst case at the list price, batched or not: never below what it costs.
  const ask = answersFromData ? chat : withinCostLimit(model, asked, address)
  const cached = answersFromData ? ask : cache.wrap(model, ask)
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

let ledger: Ledger | undefined

/**
 * Behind the cache (a cached reply costs nothing): with TESTBENCH_COST_LIMIT, a request starts only when the
 * run's ledger can reserve what requests like it (this model, this suite) have cost so far; else the item is not
 * asked (CostLimitReached, a provider_error).
 */
function withinCostLimit(model: ResolvedModel, chat: Asker, address: string | undefined): Asker {
  const limit = COST_LIMIT.read()
  const prices = pricesFromEnv()
  const price = prices?.perMillionTokens[model.label]
  if (limit === undefined || prices === undefined || price === undefined) return chat
  ledger ??= address === undefined ? localLedger(limit) : runWideLedger(address, limit)
  const run = ledger
  return async (request) => {
    const worstCase = worstCaseCost(request, price)
    const reservation = await run.reserve(worstCase, `${model.label}\u0000${request.item.suite}`)
    if (reservation === undefined)
      throw new CostLimitReached(
        `not asked: the run's cost limit is reached (${COST_LIMIT.name}=${limit}; ${spentText(run.state(), prices.currency)}, and a request like this one costs about what the others did, at most ${worstCase.toFixed(4)}). Run again with a higher limit: only the items not asked are asked, the cache has the rest.`,
      )
    let cost = worstCase
    try {
      const reply = await chat(request)
      cost = replyCost(reply, price, worstCase, prices.currency)
      return reply
    } finally {
      reservation.settle(cost)
    }
  }
}
