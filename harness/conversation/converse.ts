import type {
  ChatMessage,
  ChatParams,
  ChatReply,
  ToolCall,
  ToolDefinition,
  TokenUsage,
} from '../../adapters/models/model-adapter.ts'
import { capped, DEFAULT_OUTPUT_CHARS, type ConversationLimits } from './limits.ts'
import { tokenCost, type TokenPrice } from '../run-wide/prices.ts'
import { sumTokens } from '../../adapters/models/token-usage.ts'
import type { ConversationTool, ToolAnswer } from './tool.ts'
import { parseToolArguments } from './tool-arguments.ts'
import type { ConversationEnd, TrajectoryCall, TrajectoryTurn } from './trajectory.ts'

/** What an item asks of a conversation: where it starts, the tools, the limits, and the agent's rules. */
export interface ConversationRequest {
  messages: readonly ChatMessage[]
  tools: readonly ConversationTool[]
  limits: ConversationLimits
  params?: ChatParams
  /** Only the first tool call of a turn is run and kept in the conversation (PE-Bench's agent); default: every call. */
  firstCallOnly?: boolean
  /** How a tool's answer is written for the model; default: its output, or `Error: <error>`. */
  formatResult?: (tool: string, answer: ToolAnswer) => string
  /** What a million tokens cost, for `limits.cost`. */
  price?: TokenPrice
}

export interface ConversationResult {
  end: ConversationEnd
  trajectory: TrajectoryTurn[]
  /** The whole conversation, the last turn's tool results included. */
  messages: ChatMessage[]
  tokens: TokenUsage
  /** The model's time over all turns. */
  latencyMs: number
  /** In the price's currency, when a price was given. */
  cost?: number
}

/** Asks the model for one turn (through the reply cache, in the harness): the conversation so far and the tools it is offered. */
export type TurnAsker = (
  messages: ChatMessage[],
  tools: ToolDefinition[],
  params: ChatParams,
  signal: AbortSignal | undefined,
) => Promise<ChatReply>

/**
 * Converses with the model until a tool ends it, a turn makes no tool call, or a limit is reached. The
 * model's bad input (an unknown tool, arguments that are not a JSON object or miss a required field, a
 * tool past its calls) is answered with a tool error and the conversation goes on. Errors of our own
 * (the model could not be asked, a tool's sandbox broke) are thrown, never made the model's fault.
 * `trajectory` is filled turn by turn, so that a conversation cut by such an error keeps what it did.
 */
export async function converse(
  ask: TurnAsker,
  request: ConversationRequest,
  signal?: AbortSignal,
  trajectory: TrajectoryTurn[] = [],
): Promise<ConversationResult> {
  const { limits } = request
  const messages = [...request.messages]
  const calls = new Map<string, number>()
  let tokens: TokenUsage = { prompt: 0, completion: 0 }
  const format = request.formatResult ?? defaultFormat
  const outputChars = limits.outputChars ?? DEFAULT_OUTPUT_CHARS
  const started = performance.now()
  let latencyMs = 0
  const result = (end: ConversationEnd): ConversationResult => ({
    end,
    trajectory,
    messages,
    tokens,
    latencyMs,
    ...(request.price === undefined ? {} : { cost: tokenCost(tokens, request.price).total }),
  })

  for (let turn = 1; ; turn++) {
    if (turn > limits.turns)
      return result({
        kind: 'limit',
        limit: 'turns',
        reason: `Reached the limit of ${limits.turns} model turns before finishing.`,
      })
    const wallLeft = limits.wallMs === undefined ? undefined : limits.wallMs - (performance.now() - started)
    if (wallLeft !== undefined && wallLeft <= 0) return result(wallLimit(limits))
    const offered = request.tools
      .filter((tool) => (calls.get(tool.definition.name) ?? 0) < limits.callsPerTool)
      .map((tool) => tool.definition)
    const wall = wallLeft === undefined ? undefined : AbortSignal.timeout(Math.ceil(wallLeft))
    let reply: ChatReply
    try {
      reply = await ask([...messages], offered, request.params ?? {}, combined(signal, wall))
    } catch (error) {
      if (wall?.aborted && !signal?.aborted) return result(wallLimit(limits))
      throw error
    }
    latencyMs += reply.latencyMs
    tokens = sumTokens([tokens, reply.tokens])
    const made = reply.toolCalls ?? []
    const run = request.firstCallOnly ? made.slice(0, 1) : made
    messages.push({
      role: 'assistant',
      content: reply.text,
      ...(reply.reasoning === undefined ? {} : { reasoning: reply.reasoning }),
      ...(reply.reasoningSignature === undefined ? {} : { reasoningSignature: reply.reasoningSignature }),
      ...(reply.sendBack === undefined ? {} : { sendBack: reply.sendBack }),
      ...(run.length === 0 ? {} : { toolCalls: run }),
    })
    const record: TrajectoryTurn = {
      turn,
      text: reply.text,
      ...(reply.reasoning ? { reasoning: reply.reasoning } : {}),
      calls: [],
      ...(reply.tokens ? { tokens: reply.tokens } : {}),
      latencyMs: reply.latencyMs,
      ...(reply.finishReason ? { finishReason: reply.finishReason } : {}),
    }
    trajectory.push(record)
    if (run.length === 0) return result({ kind: 'no_tool_call', reason: `Turn ${turn} made no tool call.` })

    let endedBy: string | undefined
    for (const call of run) {
      const answer = await answerCall(call, request.tools, calls, limits.callsPerTool)
      const shown = { ...answer, output: capped(answer.output, outputChars), error: capped(answer.error, outputChars) }
      const content = format(call.name, shown)
      messages.push({
        role: 'tool',
        callId: call.id,
        toolName: call.name,
        content,
        ...(answer.ok ? {} : { isError: true }),
      })
      record.calls.push(callRecord(call, { result: content, ...(answer.ok ? {} : { isError: true }) }))
      if (answer.ends && endedBy === undefined) endedBy = call.name
    }
    for (const call of made.slice(run.length))
      record.calls.push(callRecord(call, { ignored: 'only the first tool call of a turn is run' }))
    if (endedBy !== undefined)
      return result({
        kind: 'tool',
        tool: endedBy,
        reason: `Turn ${turn} called ${endedBy}, which ended the conversation.`,
      })
    if (limits.tokens !== undefined && tokens.prompt + tokens.completion > limits.tokens) {
      return result({
        kind: 'limit',
        limit: 'tokens',
        reason: `Used ${tokens.prompt + tokens.completion} tokens in ${turn} turns, over the limit of ${limits.tokens}.`,
      })
    }
    if (
      limits.cost !== undefined &&
      request.price !== undefined &&
      tokenCost(tokens, request.price).total > limits.cost
    ) {
      return result({
        kind: 'limit',
        limit: 'cost',
        reason: `Cost ${tokenCost(tokens, request.price).total.toFixed(4)} in ${turn} turns, over the limit of ${limits.cost}.`,
      })
    }
  }
}

async function answerCall(
  call: ToolCall,
  tools: readonly ConversationTool[],
  calls: Map<string, number>,
  perTool: number,
): Promise<ToolAnswer> {
  const tool = tools.find((candidate) => candidate.definition.name === call.name)
  if (tool === undefined) return failed(`Unsupported tool: ${call.name}`)
  const parsed = parseToolArguments(call.arguments, tool.definition)
  if ('error' in parsed) return failed(parsed.error)
  const made = calls.get(call.name) ?? 0
  if (made >= perTool) return failed(`Tool ${call.name} is no longer available because it reached the call limit.`)
  calls.set(call.name, made + 1)
  return tool.run(parsed.args)
}

function failed(error: string): ToolAnswer {
  return { ok: false, output: '', error }
}

function callRecord(call: ToolCall, facts: Partial<TrajectoryCall>): TrajectoryCall {
  return { id: call.id, name: call.name, arguments: call.arguments, ...facts }
}

function defaultFormat(_tool: string, answer: ToolAnswer): string {
  return answer.ok ? answer.output : `Error: ${answer.error}`
}

function wallLimit(limits: ConversationLimits): ConversationEnd {
  return {
    kind: 'limit',
    limit: 'wallMs',
    reason: `Reached the wall-time limit of ${((limits.wallMs ?? 0) / 1000).toFixed(1)} s before finishing.`,
  }
}

function combined(signal: AbortSignal | undefined, wall: AbortSignal | undefined): AbortSignal | undefined {
  if (signal === undefined) return wall
  if (wall === undefined) return signal
  return AbortSignal.any([signal, wall])
}
