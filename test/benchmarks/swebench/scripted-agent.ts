/**
 * A scripted model for the agent's tests: it answers turn k with the k-th scripted reply and keeps every
 * conversation it was sent. Replies are tool calls of `bash` (the `tools` form) or fenced commands (`text`).
 * The same replies drive the real SDKs over a loopback server (agent-replay.test.ts, test/support/scripted-model-server.ts).
 */
import type { ChatMessage, ChatReply, ToolCall, ToolDefinition } from '../../../adapters/models/model-adapter.ts'

export type ScriptedTurn = ChatReply | ((sent: readonly ChatMessage[]) => ChatReply)

export interface ScriptedModel {
  ask: (messages: ChatMessage[], tools: ToolDefinition[] | undefined) => Promise<ChatReply>
  /** Every conversation sent, in order. */
  sent: ChatMessage[][]
  tools: Array<ToolDefinition[] | undefined>
}

/** Past the script the model keeps running `fallback` (a model that never submits). */
export function scriptedModel(turns: readonly ScriptedTurn[], fallback?: ScriptedTurn): ScriptedModel {
  const sent: ChatMessage[][] = []
  const tools: Array<ToolDefinition[] | undefined> = []
  return {
    sent,
    tools,
    ask: async (messages, offered) => {
      sent.push(structuredClone(messages))
      tools.push(offered)
      const turn = turns[sent.length - 1] ?? fallback
      if (turn === undefined)
        throw new Error(`the script has ${turns.length} turns and was asked for turn ${sent.length}`)
      return typeof turn === 'function' ? turn(messages) : turn
    },
  }
}

let callCount = 0

/** One reply with a `bash` call for each command, run in order. */
export function bash(...commands: string[]): ChatReply {
  const toolCalls: ToolCall[] = commands.map((command) => ({
    id: `call_${++callCount}`,
    name: 'bash',
    arguments: JSON.stringify({ command }),
  }))
  return {
    text: `THOUGHT: next I run ${commands.length} command(s).`,
    toolCalls,
    latencyMs: 1,
    finishReason: 'tool_calls',
    tokens: { prompt: 100, completion: 20 },
  }
}

/** A reply with these tool calls as written (bad arguments, unknown tools). */
export function rawCalls(...toolCalls: Array<Omit<ToolCall, 'id'>>): ChatReply {
  return {
    text: 'THOUGHT: a call.',
    toolCalls: toolCalls.map((call) => ({ id: `call_${++callCount}`, ...call })),
    latencyMs: 1,
    finishReason: 'tool_calls',
  }
}

/** A reply in the text form: a thought and one fenced command. */
export function fenced(command: string): ChatReply {
  return {
    text: `THOUGHT: next I run a command.\n\n\`\`\`mswea_bash_command\n${command}\n\`\`\``,
    latencyMs: 1,
    finishReason: 'stop',
    tokens: { prompt: 100, completion: 20 },
  }
}

export function prose(text: string, finishReason = 'stop'): ChatReply {
  return { text, latencyMs: 1, finishReason }
}

/** The commands that fix tinycalc's median, as a model would make them: explore, edit, test, make and check the patch, submit. */
export const FIX_MEDIAN = `sed -i 's/^    return ordered\\[middle\\]$/    if len(ordered) % 2 == 1:\\n        return ordered[middle]\\n    return (ordered[middle - 1] + ordered[middle]) \\/ 2/' tinycalc/stats.py`
export const WRONG_FIX = `sed -i 's/^    return ordered\\[middle\\]$/    return float(ordered[middle])/' tinycalc/stats.py`
export const MAKE_PATCH = 'git diff -- tinycalc/stats.py > patch.txt'
export const SUBMIT = 'echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && cat patch.txt'
/** Ends a run that has nothing to submit. */
export const SUBMIT_NOTHING = 'echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT'
