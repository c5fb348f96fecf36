/**
 * PE-Bench's tool mode, as upstream's `inference-with-tools.py` (at 03c692c) runs a problem: the model works
 * in a virtual workspace through nine tools, one tool call per turn, and delivers a file with deliver_code;
 * the delivered file is judged as a one-shot program is. Every difference is listed in the README.
 */
import type { ChatMessage, ChatParams } from '../../adapters/models/model-adapter.ts'
import type { ConversationLimits } from '../../harness/conversation/limits.ts'
import type { ConversationResult } from '../../harness/conversation/converse.ts'
import type { ItemContext } from '../../harness/benchmark.ts'
import type { Language } from './languages.ts'
import type { EulerProblem } from './dataset/problems.ts'
import { toolPrompt, userMessage } from './prompt.ts'
import { EulerAgent, type Delivery } from './tools/agent-tools.ts'
import { upstreamToolResult } from './tools/tool-result.ts'

/** Upstream's system prompt of the tool agent, word for word. */
export const TOOL_SYSTEM_PROMPT =
  'You are a coding agent operating in a virtual workspace. ' +
  'You can only act by calling the provided tools. ' +
  'Use this workflow: inspect the workspace, read files when needed, write or ' +
  'rewrite complete files, run syntax checks, and continue until the program is ready. ' +
  'When the task has multiple steps or you need to keep track of progress, consider ' +
  'using update_plan to record a short plan and keep it current. ' +
  'If it helps, you may use workspace files as temporary notes or a scratchpad via ' +
  'write_file and read_file. ' +
  'The final program can only be checked for syntax, not executed inside the tool loop. ' +
  'Delivery is a blind one-shot submission of the final workspace file. ' +
  'When the final program is ready, call deliver_code with the final workspace file path. ' +
  'Do not end with plain text. Every assistant turn must contain a tool call. ' +
  'If you need to explain progress, put that explanation in the assistant message that accompanies the tool call. ' +
  'Return runnable source code with no markdown fences in delivered content.'

/** Upstream's limits: 12 calls per tool name (`MAX_TOOL_CALLS`), and 4 × 12 = 48 model turns. */
export const TOOL_CALLS_PER_TOOL = 12
export const TOOL_LIMITS: ConversationLimits = { turns: 4 * TOOL_CALLS_PER_TOOL, callsPerTool: TOOL_CALLS_PER_TOOL }
/** Upstream's request: temperature 0, no token limit. */
export const TOOL_PARAMS: ChatParams = { temperature: 0 }

export function toolMessages(problem: EulerProblem, language: Language): ChatMessage[] {
  return [{ role: 'system', content: TOOL_SYSTEM_PROMPT }, userMessage(toolPrompt(problem, language), problem)]
}

export interface ToolRun {
  conversation: ConversationResult
  delivery: Delivery | undefined
}

/** Runs the agent on one problem: the conversation, and the file deliver_code handed in, if it did. */
export async function runToolAgent(messages: ChatMessage[], params: ChatParams, bench: ItemContext): Promise<ToolRun> {
  const agent = new EulerAgent()
  const conversation = await bench.converse({
    messages,
    tools: agent.tools,
    limits: TOOL_LIMITS,
    params,
    firstCallOnly: true,
    formatResult: upstreamToolResult,
  })
  return { conversation, delivery: agent.delivery }
}
