import type { ChatReply, ChatRequest, ModelAdapter, ModelDetails } from '../model-adapter.ts'
import { ProviderError } from '../model-adapter.ts'
import { nextTurn, parseTurns } from './trajectory-turns.ts'

/**
 * Answers every item with the dataset's known-correct reply: a perfect run must score perfectly. In a
 * conversation (a request with tools) the reference is a trajectory, `{"turns": [...]}` as in `replay:`
 * files (adapters/models/answer-sources/trajectory-turns.ts), answered one turn after another.
 */
export class ReferenceAdapter implements ModelAdapter {
  readonly provider = 'reference'
  readonly model = 'reference'
  readonly label = 'reference'

  async preflight(): Promise<ModelDetails> {
    return {}
  }

  async chat(request: ChatRequest): Promise<ChatReply> {
    const { reference, suite, itemId } = request.item
    if (reference === undefined) {
      throw new Error(`${suite} gives no reference answer for item ${itemId}: MODEL=reference cannot answer it.`)
    }
    if (request.tools === undefined) return { text: reference, latencyMs: 0 }
    return nextTurn(
      referenceTurns(reference, `${suite} item ${itemId}`),
      request.messages,
      `${suite}'s reference trajectory for item ${itemId}`,
    )
  }
}

function referenceTurns(reference: string, what: string): ChatReply[] {
  let parsed: unknown
  try {
    parsed = JSON.parse(reference)
  } catch {
    throw new ProviderError(
      `${what}: its reference is not a trajectory ({"turns": [...]}), so MODEL=reference cannot converse.`,
    )
  }
  const turns = typeof parsed === 'object' && parsed !== null && 'turns' in parsed ? parsed.turns : undefined
  return parseTurns(turns, `${what}'s reference trajectory`)
}
