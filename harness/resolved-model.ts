import type { ChatReply, ChatRequest, ModelDetails } from '../adapters/models/model-adapter.ts'
import type { ModelSpec } from '../adapters/models/model-spec.ts'

// The types model-session.ts and the batch asker (batches/batch-asker.ts) both speak, apart from either, so that
// neither imports the other back. model-session.ts re-exports them.

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
