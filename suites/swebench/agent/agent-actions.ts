/**
 * The commands in one model reply, read by mini-swe-agent's rules: in the `tools` form every tool call must be
 * `bash` with a JSON object holding `command`, and one bad call rejects the whole reply; in the `text` form the
 * reply must hold exactly one fenced ```mswea_bash_command block.
 */
import type { ChatReply } from '../../../adapters/models/model-adapter.ts'
import type { FormatProblem } from './agent-messages.ts'
import { TEXT_ACTION_PATTERN, type ActionForm } from './mini-swe-agent-config.ts'

export interface Action {
  command: string
  /** The tool call it came from (the `tools` form), to answer it by id. */
  callId?: string
}

export type ParsedReply = { actions: Action[] } | { problem: FormatProblem }

export function parseActions(form: ActionForm, reply: Pick<ChatReply, 'text' | 'toolCalls'>): ParsedReply {
  return form === 'tools' ? toolCallActions(reply.toolCalls ?? []) : textActions(reply.text)
}

function toolCallActions(calls: NonNullable<ChatReply['toolCalls']>): ParsedReply {
  if (calls.length === 0) {
    return {
      problem: {
        error: 'No tool calls found in the response. Every response MUST include at least one tool call.',
        actionsFound: 0,
        hadToolCalls: false,
      },
    }
  }
  const actions: Action[] = []
  for (const call of calls) {
    let error = ''
    let args: unknown = {}
    try {
      args = JSON.parse(call.arguments)
    } catch (parseError) {
      error = `Error parsing tool call arguments: ${(parseError as Error).message}.`
    }
    if (call.name !== 'bash') error += `Unknown tool '${call.name}'.`
    const command =
      typeof args === 'object' && args !== null && !Array.isArray(args) && 'command' in args ? args.command : undefined
    if (typeof command !== 'string') error += "Missing 'command' argument in bash tool call."
    if (error !== '' || typeof command !== 'string')
      return { problem: { error: error.trim(), actionsFound: 0, hadToolCalls: true } }
    actions.push({ command, callId: call.id })
  }
  return { actions }
}

function textActions(text: string): ParsedReply {
  const found = [...text.matchAll(TEXT_ACTION_PATTERN)].map((match) => pythonStrip(match[1] ?? ''))
  if (found.length !== 1)
    return {
      problem: {
        error: `Expected exactly 1 action, found ${found.length}.`,
        actionsFound: found.length,
        hadToolCalls: false,
      },
    }
  return { actions: found.map((command) => ({ command })) }
}

/** Python's str.strip(): Unicode whitespace, including the separators JavaScript's trim() leaves. */
function pythonStrip(text: string): string {
  return text.replace(/^[\s\x1c-\x1f\x85]+|[\s\x1c-\x1f\x85]+$/g, '')
}
