/**
 * mini-swe-agent's DefaultAgent loop (v2.4.6), rule by rule: before each model call the step and cost limits are
 * checked; the reply's commands run in order; a command whose output starts with the submit marker and exits 0
 * ends the run with the rest of its output as the submission (the commands after it in the turn do not run); a
 * reply in the wrong format is not kept in the conversation, a format-error message is sent instead, and three
 * in a row end the run. The model is asked through `ask`, once per turn with the whole conversation, so a reply
 * cache keyed on the request caches every turn and a rerun replays the run.
 * Not the harness's conversation API (harness/conversation/converse.ts), whose rules differ where mini-swe-agent is
 * reproduced: a reply in the wrong format is dropped and answered by a user message rather than kept with tool errors;
 * a reply without a tool call goes on rather than ending the conversation; the text form has no tools; a submission
 * stops the turn's later commands; limits are checked before a call (`>=`), not after it.
 */
import type {
  ChatMessage,
  ChatReply,
  JsonValue,
  TokenUsage,
  ToolDefinition,
} from '../../../adapters/models/model-adapter.ts'
import { sumTokens } from '../../../adapters/models/token-usage.ts'
import { parseActions, type Action } from './agent-actions.ts'
import { formatErrorMessage, instanceMessage, observationMessage, openaiFinishReason } from './agent-messages.ts'
import type { CommandResult } from './episode-container.ts'
import { BASH_TOOL, SUBMIT_MARKER, type AgentConfig } from './mini-swe-agent-config.ts'

export const EXIT_STATUSES = ['Submitted', 'LimitsExceeded', 'RepeatedFormatError', 'DiskLimitExceeded'] as const
export type ExitStatus = (typeof EXIT_STATUSES)[number]

/** A message of the run as mini-swe-agent keeps it: what the model is sent, plus what happened (`extra`). */
export type AgentMessage = (ChatMessage | { role: 'exit'; content: string }) & { extra?: { [key: string]: JsonValue } }

export interface AgentSetup {
  config: AgentConfig
  /** The instance's problem statement. */
  task: string
  /** One model turn: the conversation so far, and the tools (none in the text form). */
  ask: (messages: ChatMessage[], tools: ToolDefinition[] | undefined) => Promise<ChatReply>
  /** Runs one command in the episode's container. */
  execute: (command: string) => Promise<CommandResult>
  /**
   * Why the environment cannot go on (past its disk limit), or undefined; asked after each turn's commands, while
   * the model is asked for the next turn. When it answers, the run ends and that reply is not used.
   */
  environmentExceeded?: () => Promise<string | undefined>
  /** What a reply cost in dollars; undefined when the model has no price, and then `tokenLimit` holds instead. */
  costOf: (reply: ChatReply) => number | undefined
  /** Prompt and completion tokens of the whole run past which no model call is made, for models without a price; 0: none. */
  tokenLimit: number
  /** One more limit on model calls, with what it is (a replayed trajectory whose run ended on a limit there). */
  callLimit?: { calls: number; reason: string }
}

export interface AgentRun {
  exitStatus: ExitStatus
  /** The patch the agent submitted; empty unless it submitted. */
  submission: string
  messages: AgentMessage[]
  modelCalls: number
  /** Dollars, for models with a price. */
  cost: number
  tokens: TokenUsage
  /** Why a limit ended the run, in words. */
  limitReason?: string
}

interface LoopState {
  modelCalls: number
  cost: number
  priced: boolean
  tokens: TokenUsage
}

export async function runAgent(setup: AgentSetup): Promise<AgentRun> {
  const { config } = setup
  const tools = config.form === 'tools' ? [BASH_TOOL] : undefined
  const messages: AgentMessage[] = [
    { role: 'system', content: config.systemTemplate },
    { role: 'user', content: instanceMessage(config, setup.task) },
  ]
  const state: LoopState = { modelCalls: 0, cost: 0, priced: false, tokens: { prompt: 0, completion: 0 } }
  let formatErrorsInARow = 0
  let environmentCheck: Promise<string | undefined> = Promise.resolve(undefined)
  const end = (exitStatus: ExitStatus, submission = '', limitReason?: string): AgentRun => {
    messages.push({
      role: 'exit',
      content: exitStatus === 'Submitted' ? submission : exitStatus,
      extra: { exit_status: exitStatus, submission },
    })
    return {
      exitStatus,
      submission,
      messages,
      modelCalls: state.modelCalls,
      cost: state.cost,
      tokens: state.tokens,
      ...(limitReason ? { limitReason } : {}),
    }
  }
  for (;;) {
    const limit = limitReached(config, setup, state)
    if (limit !== undefined) return end('LimitsExceeded', '', limit)
    state.modelCalls++
    const reply = await setup.ask(conversation(messages), tools)
    const exceeded = await environmentCheck
    if (exceeded !== undefined) return end('DiskLimitExceeded', '', exceeded)
    const cost = setup.costOf(reply)
    if (cost !== undefined) {
      state.cost += cost
      state.priced = true
    }
    state.tokens = sumTokens([state.tokens, reply.tokens])
    const replyFacts = replyExtra(reply, cost)
    const parsed = parseActions(config.form, reply)
    if ('problem' in parsed) {
      formatErrorsInARow++
      messages.push({
        role: 'user',
        content: formatErrorMessage(config, parsed.problem, openaiFinishReason(reply.finishReason)),
        extra: { interrupt_type: 'FormatError', ...replyFacts },
      })
      if (config.maxConsecutiveFormatErrors > 0 && formatErrorsInARow >= config.maxConsecutiveFormatErrors)
        return end('RepeatedFormatError')
      continue
    }
    formatErrorsInARow = 0
    messages.push({ ...assistantMessage(reply), extra: { actions: parsed.actions.map(actionJson), ...replyFacts } })
    const observations: AgentMessage[] = []
    for (const action of parsed.actions) {
      const result = await setup.execute(action.command)
      const submission = submitted(result)
      if (submission !== undefined) return end('Submitted', submission)
      observations.push(observation(action, result))
    }
    messages.push(...observations)
    environmentCheck = setup.environmentExceeded?.() ?? Promise.resolve(undefined)
    // Awaited after the next model call; until then a failure must not count as unhandled.
    environmentCheck.catch(() => undefined)
  }
}

/** The conversation as the model is sent it: the messages without what the run noted beside them. */
function conversation(messages: readonly AgentMessage[]): ChatMessage[] {
  const sent: ChatMessage[] = []
  for (const { extra: _extra, ...message } of messages) if (message.role !== 'exit') sent.push(message)
  return sent
}

function limitReached(
  config: AgentConfig,
  { tokenLimit, callLimit }: Pick<AgentSetup, 'tokenLimit' | 'callLimit'>,
  state: LoopState,
): string | undefined {
  if (config.stepLimit > 0 && state.modelCalls >= config.stepLimit)
    return `the step limit: ${state.modelCalls} model calls of ${config.stepLimit}`
  if (callLimit !== undefined && state.modelCalls >= callLimit.calls)
    return `${callLimit.reason}: ${state.modelCalls} model calls`
  if (state.priced && config.costLimit > 0 && state.cost >= config.costLimit)
    return `the cost limit: $${state.cost.toFixed(4)} of $${config.costLimit}`
  const tokens = state.tokens.prompt + state.tokens.completion
  if (!state.priced && tokenLimit > 0 && tokens >= tokenLimit)
    return `the token limit (no price for the model): ${tokens} tokens of ${tokenLimit}`
  return undefined
}

/** mini-swe-agent's `_check_finished`: the output's first line (leading whitespace skipped) is the marker and the command exited 0. */
export function submitted(result: Pick<CommandResult, 'output' | 'returncode'>): string | undefined {
  const lines = pythonSplitLines(result.output.replace(/^\s+/, ''))
  const [first, ...rest] = lines
  if (first === undefined || first.trim() !== SUBMIT_MARKER || result.returncode !== 0) return undefined
  return rest.join('')
}

/** Python's str.splitlines(keepends=True): lines end at \n, \r\n, \r and the other separators Python knows. */
function pythonSplitLines(text: string): string[] {
  return (
    text
      .match(/[^\n\r\v\f\x1c-\x1e\x85\u2028\u2029]*(?:\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]|$)/g)
      ?.filter((line) => line !== '') ?? []
  )
}

function assistantMessage(reply: ChatReply): ChatMessage {
  return {
    role: 'assistant',
    content: reply.text,
    ...(reply.reasoning ? { reasoning: reply.reasoning } : {}),
    ...(reply.reasoningSignature ? { reasoningSignature: reply.reasoningSignature } : {}),
    ...(reply.sendBack ? { sendBack: reply.sendBack } : {}),
    ...(reply.toolCalls && reply.toolCalls.length > 0 ? { toolCalls: reply.toolCalls } : {}),
  }
}

function observation(action: Action, result: CommandResult): AgentMessage {
  const content = observationMessage(result)
  const extra = {
    raw_output: result.output,
    returncode: result.returncode,
    exception_info: result.exceptionInfo,
    ...(result.droppedChars > 0 ? { dropped_chars: result.droppedChars } : {}),
  }
  if (action.callId === undefined) return { role: 'user', content, extra }
  return { role: 'tool', callId: action.callId, toolName: 'bash', content, extra }
}

function actionJson(action: Action): { [key: string]: JsonValue } {
  return action.callId === undefined
    ? { command: action.command }
    : { command: action.command, tool_call_id: action.callId }
}

function replyExtra(reply: ChatReply, cost: number | undefined): { [key: string]: JsonValue } {
  return {
    response: {
      text: reply.text,
      ...(reply.toolCalls
        ? { tool_calls: reply.toolCalls.map((call) => ({ id: call.id, name: call.name, arguments: call.arguments })) }
        : {}),
      ...(reply.finishReason ? { finish_reason: reply.finishReason } : {}),
      ...(reply.tokens
        ? { usage: { prompt_tokens: reply.tokens.prompt, completion_tokens: reply.tokens.completion } }
        : {}),
    },
    cost: cost ?? 0,
  }
}
