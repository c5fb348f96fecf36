import { madeUpCallId } from '../made-up-call-id.ts'
import type { ToolCall } from '../model-adapter.ts'

/** One streamed piece of a tool call, as chat completions' `delta.tool_calls[]` carries it. */
export interface ToolCallFragment {
  /** Missing where a server sends each call whole (Mistral). */
  index?: number
  id?: string | null
  function?: { name?: string | null; arguments?: string | null } | null
}

/**
 * Joins streamed tool-call fragments into whole calls by their `index`, whatever order the calls'
 * fragments interleave in; a fragment without one (Mistral sends calls whole) starts a new call when it
 * brings an id not seen yet, else continues the last call. The id and name come once (a server that repeats them is not doubled);
 * argument pieces are concatenated as they came, so text that is not valid JSON reaches the caller as written.
 */
export class ToolCallFragments {
  private readonly calls = new Map<number, { id: string; name: string; arguments: string }>()

  private lastIndex = -1

  add(fragment: ToolCallFragment): void {
    const index = fragment.index ?? this.indexWithout(fragment.id)
    this.lastIndex = index
    const call = this.calls.get(index) ?? { id: '', name: '', arguments: '' }
    this.calls.set(index, call)
    if (fragment.id && call.id === '') call.id = fragment.id
    if (fragment.function?.name && call.name === '') call.name = fragment.function.name
    call.arguments += fragment.function?.arguments ?? ''
  }

  private indexWithout(id: string | null | undefined): number {
    const last = this.calls.get(this.lastIndex)
    if (last !== undefined && (!id || id === last.id)) return this.lastIndex
    return Math.max(-1, ...this.calls.keys()) + 1
  }

  /** The whole calls in index order; `replyText` seeds the ids made up for calls that came without one. */
  whole(replyText: string): ToolCall[] {
    return [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => ({ ...call, id: call.id || madeUpCallId(replyText, index, call.name, call.arguments) }))
  }
}
