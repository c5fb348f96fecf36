/**
 * mini-swe-agent's trajectory files (`<instance>.traj.json`, `trajectory_format` `mini-swe-agent-1.1`), as `replay:`
 * reads them: one file, or a directory laid out as mini-swe-agent and the SWE-bench suite write them
 * (`<dir>/<instance>/<instance>.traj.json`). Replayed, a trajectory answers with the model's replies in the order they
 * were made, including those a format error turned away (kept in the error message's `extra.response`). Such a reply
 * is not kept in the conversation, so a reply is found by where it was asked, not by the assistant messages so far:
 * reply k answers the conversation of `askedAt[k]` messages (the messages before it in the file, `exit` aside).
 * Replies are litellm's chat messages (tool calls or text), or whole Responses API objects (`litellm_response` models).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import type { ChatReply, ToolCall } from '../model-adapter.ts'
import { ProviderError } from '../model-adapter.ts'

export const MINI_SWE_AGENT_TRAJECTORY_FORMAT = 'mini-swe-agent-1.1'
const SUFFIX = '.traj.json'

/** One instance's trajectory, made ready to replay. */
export interface TrajectoryReplies {
  itemId: string
  /** The file it was read from. */
  file: string
  replies: ChatReply[]
  /** Reply k answers the conversation of `askedAt[k]` messages. */
  askedAt: number[]
  /** How the run that made it ended (`Submitted`, `LimitsExceeded`…), as its last message says. */
  exitStatus?: string
}

/** Whether a file's text is a trajectory (one JSON object with `messages`), not a JSONL answers file. */
export function isTrajectoryText(file: string, text: string): boolean {
  if (file.endsWith(SUFFIX)) return true
  try {
    const parsed: unknown = JSON.parse(text)
    return isObject(parsed) && (Array.isArray(parsed.messages) || 'trajectory_format' in parsed)
  } catch {
    return false
  }
}

/** A `.traj.json` file's text, read; its instance is its `instance_id`, or the file's name. */
export function parseTrajectoryFile(file: string, text: string): TrajectoryReplies {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new ProviderError(
      `MODEL=replay:${file} cannot be read as JSON (${(error as Error).message}): give a mini-swe-agent .traj.json file, a directory of them, or a JSONL answers file.`,
    )
  }
  return trajectoryReplies(parsed, file)
}

/**
 * Every `.traj.json` in a directory and in its subdirectories one level down (`<instance>/<instance>.traj.json`), in
 * name order; other files (upstream's `preds.json`, logs) are left alone.
 */
export function trajectoryFiles(dir: string): string[] {
  const files: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name)
    if (entry.isFile() && entry.name.endsWith(SUFFIX)) files.push(path)
    else if (entry.isDirectory())
      for (const inner of readdirSync(path).sort())
        if (inner.endsWith(SUFFIX) && statSync(join(path, inner)).isFile()) files.push(join(path, inner))
  }
  if (files.length === 0)
    throw new ProviderError(
      `MODEL=replay:${dir} is a directory without trajectories: give a directory of <instance>/<instance>${SUFFIX} files (as mini-swe-agent and TESTBENCH_SWEBENCH_MODE=agent write them), one such file, or a JSONL answers file.`,
    )
  return files
}

/** The trajectories of `files` (trajectoryFiles of `dir`); two of one instance are an error naming both. */
export function readTrajectories(dir: string, files: readonly string[]): TrajectoryReplies[] {
  const seen = new Map<string, string>()
  return files.map((file) => {
    const trajectory = parseTrajectoryFile(file, readFileSync(file, 'utf8'))
    const earlier = seen.get(trajectory.itemId)
    if (earlier !== undefined)
      throw new ProviderError(
        `MODEL=replay:${dir} holds two trajectories of ${trajectory.itemId}: ${earlier} and ${file}. Keep one.`,
      )
    seen.set(trajectory.itemId, file)
    return trajectory
  })
}

/** The replies of a parsed trajectory, where each was asked, and how its run ended. */
export function trajectoryReplies(trajectory: unknown, file: string): TrajectoryReplies {
  const messages = isObject(trajectory) && Array.isArray(trajectory.messages) ? trajectory.messages : undefined
  if (
    messages === undefined ||
    !isObject(trajectory) ||
    trajectory.trajectory_format !== MINI_SWE_AGENT_TRAJECTORY_FORMAT
  ) {
    throw new ProviderError(
      `${file} is not a mini-swe-agent trajectory (an object with "trajectory_format": "${MINI_SWE_AGENT_TRAJECTORY_FORMAT}" and "messages"): give a .traj.json file that mini-swe-agent 2 or this project wrote.`,
    )
  }
  const replies: ChatReply[] = []
  const askedAt: number[] = []
  let sent = 0
  let exitStatus: string | undefined
  for (const [index, message] of messages.entries()) {
    if (!isObject(message)) throw new ProviderError(`${file}: message ${index + 1} is not a JSON object.`)
    const extra = isObject(message.extra) ? message.extra : {}
    if (message.role === 'exit') {
      if (typeof extra.exit_status === 'string') exitStatus = extra.exit_status
      continue
    }
    if (message.role === 'assistant') {
      replies.push(replyOf(message, extra.response))
      askedAt.push(sent)
    } else if (isResponsesApiReply(message)) {
      replies.push(responsesApiReply(message))
      askedAt.push(sent)
    } else if (message.role === 'user' && extra.interrupt_type === 'FormatError') {
      replies.push(rejectedReply(extra.response, `${file}: message ${index + 1}`))
      askedAt.push(sent)
    }
    sent++
  }
  const info = isObject(trajectory.info) ? trajectory.info : {}
  exitStatus ??= typeof info.exit_status === 'string' && info.exit_status !== '' ? info.exit_status : undefined
  return {
    itemId: itemIdOf(trajectory, file),
    file,
    replies,
    askedAt,
    ...(exitStatus === undefined ? {} : { exitStatus }),
  }
}

function itemIdOf(trajectory: Record<string, unknown>, file: string): string {
  if (typeof trajectory.instance_id === 'string' && trajectory.instance_id !== '') return trajectory.instance_id
  const name = basename(file)
  if (name.endsWith(SUFFIX) && name.length > SUFFIX.length) return name.slice(0, -SUFFIX.length)
  throw new ProviderError(`${file} names no instance: give it an "instance_id", or name it <instance>${SUFFIX}.`)
}

function replyOf(message: Record<string, unknown>, response: unknown): ChatReply {
  const toolCalls = toolCallsOf(message.tool_calls)
  const reasoning = message.reasoning_content
  return {
    text: typeof message.content === 'string' ? message.content : '',
    ...(typeof reasoning === 'string' && reasoning !== '' ? { reasoning } : {}),
    ...(toolCalls.length > 0 ? { toolCalls } : {}),
    latencyMs: 0,
    ...responseFacts(response),
  }
}

/** A reply turned away by a format error: this project's `{text, tool_calls, finish_reason}`, or litellm's `{choices: [{message, finish_reason}]}`. */
function rejectedReply(response: unknown, where: string): ChatReply {
  if (!isObject(response))
    throw new ProviderError(
      `${where} is a format error without extra.response, so the reply it turned away cannot be replayed.`,
    )
  const choice = Array.isArray(response.choices) && isObject(response.choices[0]) ? response.choices[0] : undefined
  if (choice !== undefined && isObject(choice.message)) return replyOf(choice.message, response)
  if (isResponsesApiReply(response)) return responsesApiReply(response)
  return replyOf({ content: response.text, tool_calls: response.tool_calls }, response)
}

/** A reply of OpenAI's Responses API as mini-swe-agent's `litellm_response` model keeps it: the whole response object. */
function isResponsesApiReply(value: Record<string, unknown>): boolean {
  return value.object === 'response' && Array.isArray(value.output)
}

/** Its text, reasoning summary and `function_call` items; a `max_output_tokens` cut is `length`, as upstream maps it. */
function responsesApiReply(response: Record<string, unknown>): ChatReply {
  const items = (Array.isArray(response.output) ? response.output : []).filter(isObject)
  const texts = (type: string, field: string) =>
    items
      .filter((item) => item.type === type)
      .flatMap((item) => (Array.isArray(item[field]) ? item[field] : []))
      .filter(isObject)
      .map((part) => (typeof part.text === 'string' ? part.text : ''))
      .join('')
  const toolCalls = items
    .filter((item) => item.type === 'function_call')
    .map((item, index) => ({
      id: typeof item.call_id === 'string' ? item.call_id : typeof item.id === 'string' ? item.id : `call_${index}`,
      name: typeof item.name === 'string' ? item.name : '',
      arguments: typeof item.arguments === 'string' ? item.arguments : JSON.stringify(item.arguments ?? {}),
    }))
  const reasoning = texts('reasoning', 'summary')
  const incomplete = isObject(response.incomplete_details) ? response.incomplete_details.reason : undefined
  const status = response.status === 'incomplete' && incomplete === 'max_output_tokens' ? 'length' : response.status
  const usage = isObject(response.usage) ? response.usage : undefined
  return {
    text: texts('message', 'content'),
    ...(reasoning === '' ? {} : { reasoning }),
    ...(toolCalls.length > 0 ? { toolCalls } : {}),
    latencyMs: 0,
    ...(typeof status === 'string' ? { finishReason: status } : {}),
    ...(usage && typeof usage.input_tokens === 'number' && typeof usage.output_tokens === 'number'
      ? { tokens: { prompt: usage.input_tokens, completion: usage.output_tokens } }
      : {}),
  }
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

/** OpenAI's `{id, function: {name, arguments}}` (litellm's) or a flat `{id, name, arguments}`. */
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
