/**
 * The limits of one conversation, as data. `turns` and `callsPerTool` always apply; the others when set.
 * A tool that reached `callsPerTool` leaves the list the model is offered, and a call to it is answered
 * with an error. Every other limit ends the conversation, with the limit and a reason.
 */
export interface ConversationLimits {
  /** Model turns (requests) at most. */
  turns: number
  /** Calls of one tool name at most. */
  callsPerTool: number
  /** Prompt + completion tokens over all turns, as the provider counts them. */
  tokens?: number
  /** Wall time of the whole conversation, model turns and tool calls. */
  wallMs?: number
  /** Cost over all turns, in the price's currency; needs `price`. */
  cost?: number
  /** Characters of one tool output (and of one error) the model is shown; the rest is cut, and it is told so. */
  outputChars?: number
}

export type LimitName = 'turns' | 'tokens' | 'wallMs' | 'cost'

export const DEFAULT_OUTPUT_CHARS = 65_536

/** Text cut to `limit` characters, saying how much was cut; as is when it fits. */
export function capped(text: string, limit: number): string {
  if (text.length <= limit) return text
  return `${text.slice(0, limit)}\n[output cut: ${text.length - limit} more characters not shown]`
}
