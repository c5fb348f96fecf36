import type { ChatReply, ChatRequest, ModelDetails } from '../adapters/models/model-adapter.ts'
import { createAdapter } from '../adapters/models/create-adapter.ts'
import type { ModelSpec } from '../adapters/models/model-spec.ts'
import { ReplyCache } from '../adapters/models/reply-cache.ts'
import { cacheDir, cacheMode } from './knobs.ts'

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

/** One asker per model and worker: the provider's adapter (which keeps its own in-flight limit, retries included) behind the reply cache. */
export function askerFor(model: ResolvedModel): Asker {
  const existing = askers.get(model.label)
  if (existing) return existing
  const adapter = createAdapter(model)
  const ask: Asker = (request) => adapter.chat(request)
  const answersFromData = model.provider === 'reference' || model.provider === 'replay'
  const asker = answersFromData ? ask : new ReplyCache(cacheDir(), cacheMode()).wrap(model, ask)
  askers.set(model.label, asker)
  return asker
}
