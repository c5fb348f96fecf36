/**
 * An agent run in mini-swe-agent's trajectory format (`mini-swe-agent-1.1`, as DefaultAgent.serialize writes
 * it), so that its tools (`mini-extra inspector`) open it; written beside the predictions file as upstream
 * writes `<instance>/<instance>.traj.json` beside `preds.json`.
 */
import { MINI_SWE_AGENT_TRAJECTORY_FORMAT } from '../../../adapters/models/answer-sources/mini-swe-agent-trajectory.ts'
import type { JsonValue } from '../../../adapters/models/model-adapter.ts'
import type { AgentMessage, AgentRun } from './agent-loop.ts'
import { MINI_SWE_AGENT_VERSION, type AgentConfig } from './mini-swe-agent-config.ts'

export interface TrajectoryContext {
  instanceId: string
  model: string
  image: string
  config: AgentConfig
}

export function trajectoryJson(run: AgentRun, context: TrajectoryContext): { [key: string]: JsonValue } {
  const { config } = context
  return {
    info: {
      model_stats: { instance_cost: run.cost, api_calls: run.modelCalls },
      config: {
        agent: {
          system_template: config.systemTemplate,
          instance_template: config.instanceTemplate,
          step_limit: config.stepLimit,
          cost_limit: config.costLimit,
          max_consecutive_format_errors: config.maxConsecutiveFormatErrors,
        },
        agent_type: 'llm-testbench (a reproduction of minisweagent.agents.default.DefaultAgent)',
        model: { model_name: context.model, upstream_config: config.upstreamFile },
        environment: {
          image: context.image,
          cwd: config.cwd,
          timeout: config.timeoutSeconds,
          env: { ...config.env },
          interpreter: ['bash', '-c'],
        },
      },
      mini_version: MINI_SWE_AGENT_VERSION,
      exit_status: run.exitStatus,
      submission: run.submission,
      tokens: { prompt: run.tokens.prompt, completion: run.tokens.completion },
    },
    messages: run.messages.map(upstreamMessage),
    trajectory_format: MINI_SWE_AGENT_TRAJECTORY_FORMAT,
    instance_id: context.instanceId,
  }
}

/** A message as litellm's OpenAI-style dicts carry it: tool calls as `function` calls, tool results by `tool_call_id`. */
function upstreamMessage(message: AgentMessage): { [key: string]: JsonValue } {
  const extra: { [key: string]: JsonValue } = message.extra === undefined ? {} : { extra: message.extra }
  switch (message.role) {
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        ...(message.reasoning ? { reasoning_content: message.reasoning } : {}),
        ...(message.toolCalls
          ? {
              tool_calls: message.toolCalls.map((call) => ({
                id: call.id,
                type: 'function',
                function: { name: call.name, arguments: call.arguments },
              })),
            }
          : {}),
        ...extra,
      }
    case 'tool':
      return { role: 'tool', tool_call_id: message.callId, content: message.content, ...extra }
    default:
      return { role: message.role, content: message.content, ...extra }
  }
}

/** The run as a person reads it in the record and the UI: each message under its role, tool calls as their commands. */
export function renderTrajectory(messages: readonly AgentMessage[]): string {
  return messages
    .map((message) => {
      if (message.role === 'assistant') {
        const calls = (message.toolCalls ?? []).map((call) => `→ ${call.name}(${call.arguments})`)
        return [`[assistant]`, message.content, ...calls].filter((part) => part !== '').join('\n')
      }
      if (message.role === 'exit') return `[exit: ${String(message.extra?.exit_status ?? '')}]\n${message.content}`
      return `[${message.role}]\n${message.content}`
    })
    .join('\n\n')
}
