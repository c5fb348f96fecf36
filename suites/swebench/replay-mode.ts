/**
 * What a `replay:` file holds must fit TESTBENCH_SWEBENCH_MODE, or the run would judge answers by the wrong rules (a
 * patch read as an agent's reply is three format errors, a trajectory's first reply read as a diff is no patch):
 * predictions replay one-shot, trajectories replay on the bash-only track, tool calls in `agent` and fenced commands in
 * `agent-text`. Checked before any item, with the mode to set.
 */
import { parseReplayFile, type ReplayAnswer } from '../../adapters/models/answer-sources/replay.ts'
import { MODE, type SwebenchMode } from './knobs.ts'
import { TEXT_ACTION_PATTERN } from './agent/mini-swe-agent-config.ts'

/** Why `MODEL=replay:<file>` cannot run in `mode`, or undefined when it can. */
export function replayModeProblem(file: string, mode: SwebenchMode): string | undefined {
  const answers = parseReplayFile(file)
  const trajectories = answers.filter((answer) => answer.turns !== undefined)
  if (mode === 'oneshot') {
    if (trajectories.length === 0) return undefined
    const agentMode = trajectories.some(usesToolCalls) ? 'agent' : 'agent-text'
    return `MODEL=replay:${file} holds agent trajectories, which replay on the bash-only track: set ${MODE.name}=${agentMode}.`
  }
  if (trajectories.length < answers.length)
    return `MODEL=replay:${file} holds one-shot answers (patches), not trajectories, and ${MODE.name}=${mode} replays trajectories: unset ${MODE.name} to replay them one-shot, or give a mini-swe-agent .traj.json file or directory.`
  const tools = trajectories.filter(usesToolCalls)
  if (mode === 'agent-text' && tools.length > 0)
    return `MODEL=replay:${file} holds tool-call trajectories (${examples(tools)}), which ${MODE.name}=agent-text would read as replies without a command: set ${MODE.name}=agent.`
  const text = trajectories.filter(usesFencedCommands)
  if (mode === 'agent' && tools.length === 0 && text.length > 0)
    return `MODEL=replay:${file} holds text-action trajectories (${examples(text)}: fenced commands, no tool calls), which ${MODE.name}=agent would read as replies without a tool call: set ${MODE.name}=agent-text.`
  return undefined
}

function usesToolCalls(answer: ReplayAnswer): boolean {
  return (answer.turns ?? []).some((turn) => (turn.toolCalls ?? []).length > 0)
}

function usesFencedCommands(answer: ReplayAnswer): boolean {
  return (answer.turns ?? []).some((turn) => [...turn.text.matchAll(TEXT_ACTION_PATTERN)].length > 0)
}

function examples(answers: readonly ReplayAnswer[]): string {
  const ids = answers.slice(0, 2).map((answer) => answer.itemId)
  return answers.length > 2 ? `${ids.join(', ')} and ${answers.length - 2} more` : ids.join(', ')
}
