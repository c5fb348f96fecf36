import type { TokenUsage } from '../../adapters/models/model-adapter.ts'
import type { LimitName } from './limits.ts'
import { completionTokenText, promptTokenText } from '../records/token-text.ts'

/** One tool call of a turn and what the model was answered; `ignored` says why a call was not run. */
export interface TrajectoryCall {
  id: string
  name: string
  arguments: string
  /** What the model was sent back, as sent. */
  result?: string
  isError?: boolean
  ignored?: string
}

/** One model turn of a conversation, as the item's record keeps it. */
export interface TrajectoryTurn {
  /** 1-based. */
  turn: number
  text: string
  reasoning?: string
  calls: TrajectoryCall[]
  tokens?: TokenUsage
  latencyMs: number
  finishReason?: string
}

/** How a conversation ended: a tool ended it, the model made no tool call, or a limit was reached. */
export type ConversationEnd =
  | { kind: 'tool'; tool: string; reason: string }
  | { kind: 'no_tool_call'; reason: string }
  | { kind: 'limit'; limit: LimitName; reason: string }

/** The trajectory as a person reads it, in the UI and the html report: each turn, its calls and their results. */
export function renderTrajectory(turns: readonly TrajectoryTurn[], end?: ConversationEnd): string {
  const blocks = turns.map((turn) => {
    const facts = [
      `${turn.latencyMs} ms`,
      ...(turn.tokens ? [`${promptTokenText(turn.tokens)} + ${completionTokenText(turn.tokens)} tokens`] : []),
      ...(turn.finishReason ? [turn.finishReason] : []),
    ]
    const lines = [`── turn ${turn.turn} (${facts.join(', ')})`]
    if (turn.reasoning) lines.push(`[reasoning]\n${turn.reasoning}`)
    if (turn.text) lines.push(turn.text)
    for (const call of turn.calls) {
      lines.push(`→ ${call.name} ${call.arguments}`)
      if (call.ignored !== undefined) lines.push(`  (not run: ${call.ignored})`)
      if (call.result !== undefined) lines.push(`← ${call.isError ? '(error) ' : ''}${call.result}`)
    }
    return lines.join('\n')
  })
  if (end) blocks.push(`── end: ${end.reason}`)
  return blocks.join('\n\n')
}
