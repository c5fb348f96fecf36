/**
 * A trajectory made elsewhere, replayed: the model's replies of a mini-swe-agent trajectory file (`.traj.json`,
 * upstream's or ours), in the order they were made, including those a format error turned away (kept in the error
 * message's `extra.response`). Answering turn k with reply k runs the same commands again in a fresh container, so
 * the same patch and verdict come out. (The harness's `replay:` provider takes JSONL answers; reading trajectories
 * there is left to the conversation API, which can use this reader.)
 */
import { readFileSync } from 'node:fs'
import type { ChatMessage, ChatReply, ToolCall, ToolDefinition } from '../../adapters/models/model-adapter.ts'
import { TRAJECTORY_FORMAT } from './trajectory.ts'

export function readTrajectoryReplies(file: string): ChatReply[] {
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    throw new Error(
      `The trajectory ${file} cannot be read as JSON (${(error as Error).message}): give a mini-swe-agent .traj.json file.`,
    )
  }
  return trajectoryReplies(parsed, file)
}

export function trajectoryReplies(trajectory: unknown, file: string): ChatReply[] {
  const messages = isObject(trajectory) && Array.isArray(trajectory.messages) ? trajectory.messages : undefined
  if (messages === undefined || !isObject(trajectory) || trajectory.trajectory_format !== TRAJECTORY_FORMAT) {
    throw new Error(
      `${file} is not a mini-swe-agent trajectory (trajectory_format ${TRAJECTORY_FORMAT} with messages): give a .traj.json file that mini-swe-agent 2 or this suite wrote.`,
    )
  }
  const replies: ChatReply[] = []
  for (const message of messages) {
    if (!isObject(message)) continue
    const extra = isObject(message.extra) ? message.extra : {}
    if (message.role === 'assistant') replies.push(replyOf(message, extra.response))
    else if (message.role === 'user' && extra.interrupt_type === 'FormatError')
      replies.push(rejectedReply(extra.response, file))
  }
  return replies
}

/** Answers turn k with the trajectory's reply k; asked past its end, says so (the replayed run went another way). */
export function replayTrajectory(
  replies: readonly ChatReply[],
  file: string,
): (messages: ChatMessage[], tools: ToolDefinition[] | undefined) => Promise<ChatReply> {
  let turn = 0
  return async () => {
    const reply = replies[turn++]
    if (reply === undefined)
      throw new Error(
        `The trajectory ${file} holds ${replies.length} replies and the replayed run asked for reply ${turn}: it did not end where the trajectory ended.`,
      )
    return reply
  }
}

function replyOf(message: Record<string, unknown>, response: unknown): ChatReply {
  const toolCalls = toolCallsOf(message.tool_calls)
  const facts = responseFacts(response)
  return {
    text: typeof message.content === 'string' ? message.content : '',
    ...(toolCalls.length > 0 ? { toolCalls } : {}),
    latencyMs: 0,
    ...facts,
  }
}

/** A reply turned away by a format error: our `{text, tool_calls, finish_reason}`, or litellm's `{choices: [{message, finish_reason}]}`. */
function rejectedReply(response: unknown, file: string): ChatReply {
  if (!isObject(response))
    throw new Error(
      `${file}: a format error's message has no extra.response, so the reply it turned away cannot be replayed.`,
    )
  const choice = Array.isArray(response.choices) && isObject(response.choices[0]) ? response.choices[0] : undefined
  if (choice !== undefined && isObject(choice.message)) return replyOf(choice.message, response)
  return replyOf({ content: response.text, tool_calls: response.tool_calls }, response)
}

function responseFacts(response: unknown): Pick<ChatReply, 'finishReason' | 'tokens'> {
  if (!isObject(response)) return {}
  const choice = Array.isArray(response.choices) && isObject(response.choices[0]) ? response.choices[0] : undefined
  const finish = choice?.finish_reason ?? response.finish_reason
  const usage = isObject(response.usage) ? response.usage : undefined
  return {
    ...(typeof finish === 'string' ? { finishReason: finish } : {}),
    ...(usage && typeof usage.prompt_tokens === 'number' && typeof usage.completion_tokens === 'number'
      ? { tokens: { prompt: usage.prompt_tokens, completion: usage.completion_tokens } }
      : {}),
  }
}

/** OpenAI's `{id, function: {name, arguments}}` (upstream) or a flat `{id, name, arguments}`. */
function toolCallsOf(value: unknown): ToolCall[] {
  if (!Array.isArray(value)) return []
  return value.filter(isObject).map((call, index) => {
    const fn = isObject(call.function) ? call.function : call
    return {
      id: typeof call.id === 'string' ? call.id : `call_${index}`,
      name: typeof fn.name === 'string' ? fn.name : '',
      arguments: typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments ?? {}),
    }
  })
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
