/**
 * The messages mini-swe-agent's SWE-bench configuration sends, put together as its Jinja templates render
 * them (whitespace control included; lengths and cuts in code points, as Python counts them).
 */
import { OBSERVATION_EDGE, OBSERVATION_LIMIT, OBSERVATION_WARNING, type AgentConfig } from './mini-swe-agent-config.ts'

/** What one command gave: its output (stdout and stderr together), exit status, and what went wrong running it. */
export interface CommandOutput {
  output: string
  /** -1 when the command could not be run to its end (the time limit), as upstream writes it. */
  returncode: number
  /** Empty unless the command did not end by itself (`An error occurred while executing the command: …`). */
  exceptionInfo: string
  /** Code points of a huge output's middle that were not kept; counted as elided. */
  droppedChars?: number
}

export function instanceMessage(config: AgentConfig, task: string): string {
  return config.instanceTemplate.replace('{{task}}', task)
}

/** The observation template: returncode and output, or a warning with the output's first and last 5,000 characters. */
export function observationMessage(output: CommandOutput): string {
  const exception = output.exceptionInfo === '' ? '' : `<exception>${output.exceptionInfo}</exception>\n`
  const head = `${exception}<returncode>${output.returncode}</returncode>\n`
  const characters = Array.from(output.output)
  const length = characters.length + (output.droppedChars ?? 0)
  if (length < OBSERVATION_LIMIT) return `${head}<output>\n${output.output}</output>`
  const elided = length - OBSERVATION_LIMIT
  return (
    `${head}${OBSERVATION_WARNING}<output_head>\n${characters.slice(0, OBSERVATION_EDGE).join('')}\n</output_head>\n` +
    `<elided_chars>\n${elided} characters elided\n</elided_chars>\n` +
    `<output_tail>\n${characters.slice(-OBSERVATION_EDGE).join('')}\n</output_tail>`
  )
}

/** Why a reply was not taken: no action, a bad tool call, or several actions in the text form. */
export interface FormatProblem {
  error: string
  /** How many actions the text form found (its guidance says it). */
  actionsFound: number
  /** Whether the reply held tool calls at all (the `tools` form's rule for a cut reply). */
  hadToolCalls: boolean
}

/**
 * The format-error template: a reply cut by the length limit gets a message of its own (in the `tools`
 * form: `length`, or `tool_calls` without any call; in the `text` form: either reason), anything else the error and the guidance.
 */
export function formatErrorMessage(
  config: AgentConfig,
  problem: FormatProblem,
  finishReason: string | undefined,
): string {
  if (finishReason !== undefined && wasCut(config, finishReason, problem.hadToolCalls)) {
    return config.truncatedReply.replace('{{ finish_reason }}', finishReason)
  }
  const guidance = config.formatErrorGuidance.replace('{{actions|length}}', String(problem.actionsFound))
  return `${config.formatErrorHead}<error>\n${problem.error}\n</error>\n\n${guidance}`
}

function wasCut(config: AgentConfig, finishReason: string, hadToolCalls: boolean): boolean {
  if (config.form === 'text') return finishReason === 'length' || finishReason === 'tool_calls'
  return finishReason === 'length' || (finishReason === 'tool_calls' && !hadToolCalls)
}

/**
 * A provider's finish reason in OpenAI's words, as litellm hands it to mini-swe-agent (Anthropic's
 * `max_tokens` and Gemini's `MAX_TOKENS` are `length`, `tool_use` is `tool_calls`, `end_turn` is `stop`; the Responses
 * API's `max_output_tokens` is `length` and its `completed` is `stop`).
 */
export function openaiFinishReason(finishReason: string | undefined): string | undefined {
  if (finishReason === undefined) return undefined
  const reason = finishReason.toLowerCase()
  if (reason === 'max_tokens' || reason === 'length' || reason === 'max_output_tokens') return 'length'
  if (reason === 'tool_use' || reason === 'tool_calls') return 'tool_calls'
  if (reason === 'end_turn' || reason === 'stop_sequence' || reason === 'stop' || reason === 'completed') return 'stop'
  return reason
}
