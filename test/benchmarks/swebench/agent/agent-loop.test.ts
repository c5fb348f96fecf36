/**
 * mini-swe-agent's rules without a container: the messages as its Jinja templates render them (expected texts
 * rendered with Jinja 3 from the v2.4.6 configs), how replies are read, the submit rule, and the limits with the
 * configuration's own numbers (250 steps, $3). Commands here are answered by a recorded list, not run.
 */
import { describe, expect, test } from 'vitest'
import { parseActions } from '../../../../suites/swebench/agent/agent-actions.ts'
import { runAgent, submitted } from '../../../../suites/swebench/agent/agent-loop.ts'
import {
  formatErrorMessage,
  observationMessage,
  openaiFinishReason,
} from '../../../../suites/swebench/agent/agent-messages.ts'
import type { CommandResult } from '../../../../suites/swebench/agent/episode-container.ts'
import { TEXT_CONFIG, TOOLS_CONFIG } from '../../../../suites/swebench/agent/mini-swe-agent-config.ts'
import { swebenchOptions } from '../../../../suites/swebench/options.ts'
import { scoreName } from '../../../../suites/swebench/score.ts'
import { bash, fenced, prose, rawCalls, scriptedModel } from '../scripted-agent.ts'

const ran = (output: string, returncode = 0): CommandResult => ({
  output,
  returncode,
  exceptionInfo: '',
  droppedChars: 0,
})

describe("mini-swe-agent's messages", () => {
  test('an observation shows returncode and output as they are', () => {
    expect(observationMessage(ran('a\n\n  ', 2))).toBe('<returncode>2</returncode>\n<output>\na\n\n  </output>')
    expect(observationMessage({ output: 'x', returncode: -1, exceptionInfo: 'boom', droppedChars: 0 })).toBe(
      '<exception>boom</exception>\n<returncode>-1</returncode>\n<output>\nx</output>',
    )
  })

  test('past 10,000 code points, the first and last 5,000 with the warning, glued as the template glues them', () => {
    const output = `${'é'.repeat(6000)}${'😀'.repeat(4001)}`
    const message = observationMessage(ran(output))
    expect(
      message.startsWith('<returncode>0</returncode>\n<warning>\nThe output of your last command was too long.\n'),
    ).toBe(true)
    expect(message).toContain(
      `in that file.\n</warning><output_head>\n${'é'.repeat(5000)}\n</output_head>\n<elided_chars>\n1 characters elided\n</elided_chars>\n<output_tail>\n${'é'.repeat(999)}${'😀'.repeat(4001)}\n</output_tail>`,
    )
    expect(message.endsWith('</output_tail>')).toBe(true)
    expect(observationMessage(ran('y'.repeat(9999)))).toBe(
      `<returncode>0</returncode>\n<output>\n${'y'.repeat(9999)}</output>`,
    )
    // A huge output keeps only its ends; what was dropped still counts as elided.
    expect(observationMessage({ ...ran(`${'a'.repeat(6000)}${'b'.repeat(6000)}`), droppedChars: 1_000_000 })).toContain(
      '<elided_chars>\n1002000 characters elided\n</elided_chars>',
    )
  })

  test('format errors: the error with the guidance, or the cut-reply message by finish reason and form', () => {
    const problem = { error: 'Expected exactly 1 action, found 2.', actionsFound: 2, hadToolCalls: false }
    expect(formatErrorMessage(TEXT_CONFIG, problem, 'stop')).toBe(
      'Format error:\n\n<error>\nExpected exactly 1 action, found 2.\n</error>\n\nHere is general guidance on how to format your response:\n\n' +
        'Please always provide EXACTLY ONE action in triple backticks, found 2 actions.\n\nPlease format your action in triple backticks as shown in <response_example>.\n\n' +
        '<response_example>\nHere are some thoughts about why you want to perform the action.\n\n```mswea_bash_command\n<action>\n```\n</response_example>\n\n' +
        'If you have completed your assignment, please consult the first message about how to\nsubmit your solution (you will not be able to continue working on this task after that).',
    )
    expect(formatErrorMessage(TEXT_CONFIG, problem, 'tool_calls')).toMatch(
      /^Your previous response reached the output token limit \(finish_reason=tool_calls\) before you produced a complete action/,
    )
    expect(formatErrorMessage(TOOLS_CONFIG, { ...problem, hadToolCalls: true }, 'tool_calls')).toMatch(
      /^Tool call error:\n\n<error>\n/,
    )
    expect(formatErrorMessage(TOOLS_CONFIG, problem, 'tool_calls')).toMatch(
      /^Your previous response reached the output token limit \(finish_reason=tool_calls\) before you produced a tool call/,
    )
    expect(openaiFinishReason('max_tokens')).toBe('length')
    expect(openaiFinishReason('MAX_TOKENS')).toBe('length')
    expect(openaiFinishReason('tool_use')).toBe('tool_calls')
    // The Responses API: a response cut at its limit, and one the model ended (a format error is then no cut reply).
    expect(openaiFinishReason('max_output_tokens')).toBe('length')
    expect(openaiFinishReason('completed')).toBe('stop')
  })

  test('replies are read as upstream reads them', () => {
    expect(parseActions('tools', bash('ls', 'pwd'))).toMatchObject({ actions: [{ command: 'ls' }, { command: 'pwd' }] })
    expect(
      parseActions(
        'tools',
        rawCalls({ name: 'bash', arguments: '{"command": "ls"}' }, { name: 'bash', arguments: '[1]' }),
      ),
    ).toEqual({
      problem: { error: "Missing 'command' argument in bash tool call.", actionsFound: 0, hadToolCalls: true },
    })
    expect(parseActions('text', fenced('  ls -la  \n'))).toEqual({ actions: [{ command: 'ls -la' }] })
    expect(parseActions('text', prose('```bash\nls\n```'))).toMatchObject({
      problem: { error: 'Expected exactly 1 action, found 0.' },
    })
  })

  test('the submit rule: first line (after leading whitespace) is the marker, exit 0; the rest as is', () => {
    expect(submitted(ran('\n COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT \r\ndiff\r\nx'))).toBe('diff\r\nx')
    expect(submitted(ran('COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT'))).toBe('')
    expect(submitted(ran('COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\ndiff', 1))).toBeUndefined()
    expect(submitted(ran('COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT and more\ndiff'))).toBeUndefined()
  })
})

describe("mini-swe-agent's limits", () => {
  const commands = async () => ran('')

  test('250 model calls, then LimitsExceeded before the 251st', async () => {
    const model = scriptedModel([], bash('true'))
    const run = await runAgent({
      config: TOOLS_CONFIG,
      task: 't',
      ask: model.ask,
      execute: commands,
      costOf: () => undefined,
      tokenLimit: 10_000_000,
    })
    expect(run).toMatchObject({ exitStatus: 'LimitsExceeded', modelCalls: 250, submission: '' })
    expect(model.sent).toHaveLength(250)
  })

  test('$3: checked before each call, so the call that passes it is the last', async () => {
    const run = await runAgent({
      config: TOOLS_CONFIG,
      task: 't',
      ask: scriptedModel([], bash('true')).ask,
      execute: commands,
      costOf: () => 0.7,
      tokenLimit: 1,
    })
    expect(run).toMatchObject({ exitStatus: 'LimitsExceeded', modelCalls: 5 })
    expect(run.cost).toBeCloseTo(3.5)
  })

  test('format errors count as model calls and cost; a clean turn resets the count of those in a row', async () => {
    const model = scriptedModel([prose('a'), prose('b'), bash('true'), prose('c'), prose('d'), prose('e')])
    const run = await runAgent({
      config: TOOLS_CONFIG,
      task: 't',
      ask: model.ask,
      execute: commands,
      costOf: () => 0.01,
      tokenLimit: 1,
    })
    expect(run).toMatchObject({ exitStatus: 'RepeatedFormatError', modelCalls: 6 })
    expect(run.cost).toBeCloseTo(0.06)
  })

  test('a replay: no token limit (0) and no price, and a limit on calls where the replayed run ended on one', async () => {
    const model = scriptedModel([], bash('true'))
    const run = await runAgent({
      config: TOOLS_CONFIG,
      task: 't',
      ask: async (messages, tools) => ({
        ...(await model.ask(messages, tools)),
        tokens: { prompt: 5e6, completion: 0 },
      }),
      execute: commands,
      costOf: () => undefined,
      tokenLimit: 0,
      callLimit: { calls: 7, reason: 'the limit the replayed trajectory ended on' },
    })
    expect(run).toMatchObject({
      exitStatus: 'LimitsExceeded',
      modelCalls: 7,
      limitReason: 'the limit the replayed trajectory ended on: 7 model calls',
    })
  })
})

describe('the agent knobs and score', () => {
  test('TESTBENCH_SWEBENCH_MODE picks the track; anything else is an error that names the choices', () => {
    expect(swebenchOptions({}).mode).toBe('oneshot')
    expect(swebenchOptions({ TESTBENCH_SWEBENCH_MODE: 'agent-text' }).mode).toBe('agent-text')
    expect(() => swebenchOptions({ TESTBENCH_SWEBENCH_MODE: 'swe-agent' })).toThrow(
      /TESTBENCH_SWEBENCH_MODE=swe-agent is not accepted: use oneshot, agent or agent-text, or unset it for oneshot\./,
    )
  })

  test("the score names the configuration, as SWE-bench's bash-only board does", () => {
    expect(scoreName('verified', 'mini-swe-agent 2.4.6 config')).toBe(
      'SWE-bench Verified % Resolved (bash-only, mini-swe-agent 2.4.6 config)',
    )
    expect(scoreName('lite')).toBe('SWE-bench Lite % Resolved')
  })
})
