import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, test } from 'vitest'
import { replayModeProblem } from '../../../suites/swebench/replay-mode.ts'

const TOOL_CALLS = fileURLToPath(new URL('../../../fixtures/swebench/replay/mini-swe-agent-run/', import.meta.url))
const PREDICTIONS = fileURLToPath(new URL('../../../fixtures/swebench/replay/predictions.jsonl', import.meta.url))

const dir = mkdtempSync(join(tmpdir(), 'replay-mode-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A text-form trajectory: one reply with a fenced command, no tool calls. */
function textTrajectory(): string {
  const file = join(dir, 'a__b-1.traj.json')
  writeFileSync(
    file,
    JSON.stringify({
      trajectory_format: 'mini-swe-agent-1.1',
      messages: [
        { role: 'system', content: 's' },
        { role: 'user', content: 't' },
        { role: 'assistant', content: 'THOUGHT: look.\n\n```mswea_bash_command\nls\n```' },
      ],
    }),
  )
  return file
}

describe('what a replay file holds must fit TESTBENCH_SWEBENCH_MODE', () => {
  test('predictions replay one-shot, trajectories on the bash-only track, each in its own form', () => {
    const text = textTrajectory()
    expect(replayModeProblem(PREDICTIONS, 'oneshot')).toBeUndefined()
    expect(replayModeProblem(TOOL_CALLS, 'agent')).toBeUndefined()
    expect(replayModeProblem(text, 'agent-text')).toBeUndefined()

    expect(replayModeProblem(PREDICTIONS, 'agent')).toBe(
      `MODEL=replay:${PREDICTIONS} holds one-shot answers (patches), not trajectories, and TESTBENCH_SWEBENCH_MODE=agent replays trajectories: unset TESTBENCH_SWEBENCH_MODE to replay them one-shot, or give a mini-swe-agent .traj.json file or directory.`,
    )
    expect(replayModeProblem(TOOL_CALLS, 'oneshot')).toBe(
      `MODEL=replay:${TOOL_CALLS} holds agent trajectories, which replay on the bash-only track: set TESTBENCH_SWEBENCH_MODE=agent.`,
    )
    expect(replayModeProblem(text, 'oneshot')).toMatch(/set TESTBENCH_SWEBENCH_MODE=agent-text\.$/)
    expect(replayModeProblem(TOOL_CALLS, 'agent-text')).toBe(
      `MODEL=replay:${TOOL_CALLS} holds tool-call trajectories (testbench__tinycalc-1), which TESTBENCH_SWEBENCH_MODE=agent-text would read as replies without a command: set TESTBENCH_SWEBENCH_MODE=agent.`,
    )
    expect(replayModeProblem(text, 'agent')).toBe(
      `MODEL=replay:${text} holds text-action trajectories (a__b-1: fenced commands, no tool calls), which TESTBENCH_SWEBENCH_MODE=agent would read as replies without a tool call: set TESTBENCH_SWEBENCH_MODE=agent-text.`,
    )
  })
})
