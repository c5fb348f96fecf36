import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { trajectoryReplies } from '../../../../adapters/models/answer-sources/mini-swe-agent-trajectory.ts'
import type { ChatMessage } from '../../../../adapters/models/model-adapter.ts'
import { parseReplayFile, ReplayAdapter } from '../../../../adapters/models/answer-sources/replay.ts'

const FIXTURE_RUN = new URL('../../../../fixtures/swebench/replay/mini-swe-agent-run/', import.meta.url).pathname
const INSTANCE = 'testbench__tinycalc-1'

const dirs: string[] = []
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'traj-'))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A conversation of `length` messages, as the replayed run would send it (only its length matters). */
function conversationOf(length: number): ChatMessage[] {
  return Array.from({ length }, (_, index) => ({ role: 'user' as const, content: `message ${index}` }))
}

const UPSTREAM = {
  trajectory_format: 'mini-swe-agent-1.1',
  messages: [
    { role: 'system', content: 's' },
    { role: 'user', content: 'task' },
    {
      role: 'user',
      content: 'Tool call error: …',
      extra: {
        interrupt_type: 'FormatError',
        response: {
          choices: [{ finish_reason: 'stop', message: { content: 'I will look.', tool_calls: null } }],
          usage: { prompt_tokens: 9, completion_tokens: 3 },
        },
      },
    },
    {
      role: 'assistant',
      content: 'THOUGHT',
      reasoning_content: 'hmm',
      tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'bash', arguments: '{"command": "ls"}' } }],
      extra: { response: { choices: [{ finish_reason: 'tool_calls' }] } },
    },
    { role: 'tool', tool_call_id: 'toolu_1', content: '<returncode>0</returncode>' },
    { role: 'exit', content: 'LimitsExceeded', extra: { exit_status: 'LimitsExceeded' } },
  ],
}

describe("mini-swe-agent's trajectories", () => {
  test("upstream's messages: tool calls, a reply a format error turned away in litellm's shape, where each was asked, how the run ended", () => {
    expect(trajectoryReplies(UPSTREAM, `/runs/${INSTANCE}.traj.json`)).toEqual({
      itemId: INSTANCE,
      file: `/runs/${INSTANCE}.traj.json`,
      replies: [
        { text: 'I will look.', latencyMs: 0, finishReason: 'stop', tokens: { prompt: 9, completion: 3 } },
        {
          text: 'THOUGHT',
          reasoning: 'hmm',
          toolCalls: [{ id: 'toolu_1', name: 'bash', arguments: '{"command": "ls"}' }],
          latencyMs: 0,
          finishReason: 'tool_calls',
        },
      ],
      // The turned-away reply was asked with system and task; the next one with the format error after them too.
      askedAt: [2, 3],
      exitStatus: 'LimitsExceeded',
    })
    expect(() => trajectoryReplies({ messages: [] }, 'preds.json')).toThrow(
      /preds.json is not a mini-swe-agent trajectory/,
    )
    const noResponse = structuredClone(UPSTREAM)
    delete (noResponse.messages[2] as { extra?: unknown }).extra
    ;(noResponse.messages[2] as { extra?: unknown }).extra = { interrupt_type: 'FormatError' }
    expect(() => trajectoryReplies(noResponse, 'x.traj.json')).toThrow(
      'x.traj.json: message 3 is a format error without extra.response, so the reply it turned away cannot be replayed.',
    )
    expect(() => trajectoryReplies(UPSTREAM, 'notes.json')).toThrow(
      'notes.json names no instance: give it an "instance_id", or name it <instance>.traj.json.',
    )
  })

  test("a Responses API model's trajectory (litellm_response): whole response objects, function_call items, a cut reply as length", () => {
    const response = (output: unknown[], extra: Record<string, unknown> = {}) => ({
      object: 'response',
      status: 'completed',
      output,
      usage: { input_tokens: 20, output_tokens: 5 },
      ...extra,
    })
    const trajectory = {
      trajectory_format: 'mini-swe-agent-1.1',
      instance_id: 'a__b-1',
      messages: [
        { role: 'system', content: 's' },
        { role: 'user', content: 't' },
        {
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: 'cut' }],
          extra: {
            interrupt_type: 'FormatError',
            response: response([{ type: 'message', content: [{ type: 'output_text', text: 'I will' }] }], {
              status: 'incomplete',
              incomplete_details: { reason: 'max_output_tokens' },
            }),
          },
        },
        {
          ...response([
            { type: 'reasoning', summary: [{ type: 'summary_text', text: 'Look first.' }] },
            { type: 'message', content: [{ type: 'output_text', text: 'Listing.' }] },
            { type: 'function_call', call_id: 'fc_1', name: 'bash', arguments: '{"command": "ls"}' },
          ]),
          extra: { actions: [{ command: 'ls', tool_call_id: 'fc_1' }] },
        },
        { type: 'function_call_output', call_id: 'fc_1', output: '<returncode>0</returncode>' },
      ],
    }
    expect(trajectoryReplies(trajectory, 'r.traj.json')).toMatchObject({
      itemId: 'a__b-1',
      replies: [
        { text: 'I will', finishReason: 'length', tokens: { prompt: 20, completion: 5 } },
        {
          text: 'Listing.',
          reasoning: 'Look first.',
          toolCalls: [{ id: 'fc_1', name: 'bash', arguments: '{"command": "ls"}' }],
          finishReason: 'completed',
        },
      ],
      askedAt: [2, 3],
    })
  })

  test('replay: takes a directory laid out as mini-swe-agent writes it, and answers each turn by where it was asked', async () => {
    const answers = parseReplayFile(FIXTURE_RUN)
    expect(answers.map((answer) => [answer.itemId, answer.sample, answer.turns?.length, answer.exitStatus])).toEqual([
      [INSTANCE, 0, 5, 'Submitted'],
    ])
    expect(answers[0]?.askedAt).toEqual([2, 5, 6, 8, 11])
    const replay = new ReplayAdapter(FIXTURE_RUN)
    expect(await replay.preflight()).toEqual({ answers: 1 })
    const ask = (length: number) =>
      replay.chat({
        messages: conversationOf(length),
        params: {},
        item: { suite: 'swebench', itemId: INSTANCE, sample: 0 },
      })
    expect((await ask(2)).toolCalls?.map((call) => call.id)).toEqual(['call_madeup_1', 'call_madeup_2'])
    expect(await ask(5)).toMatchObject({ text: expect.stringContaining('I will edit the file.'), finishReason: 'stop' })
    expect((await ask(11)).toolCalls?.[0]?.arguments).toContain('COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT')
    await expect(ask(4)).rejects.toThrow(
      /asked for its replies with 2, 5, 6, 8, 11 messages, and the replayed conversation asks with 4: it went another way/,
    )
    await expect(ask(12)).rejects.toThrow(
      /ends after 5 replies, and the replayed conversation asks for another \(12 messages\): the run that made it stopped there/,
    )
    // One file of the directory replays alone, its instance named inside it.
    const file = join(FIXTURE_RUN, INSTANCE, `${INSTANCE}.traj.json`)
    expect(parseReplayFile(file).map((answer) => [answer.itemId, answer.turns?.length])).toEqual([[INSTANCE, 5]])
  })

  test('a directory without trajectories, two of one instance, a file that is not one: each named, with what to give', () => {
    const empty = tempDir()
    writeFileSync(join(empty, 'preds.json'), '{}')
    expect(() => parseReplayFile(empty)).toThrow(
      new RegExp(
        `MODEL=replay:${empty} is a directory without trajectories: give a directory of <instance>/<instance>\\.traj\\.json`,
      ),
    )
    const twice = tempDir()
    const trajectory = JSON.stringify({ ...UPSTREAM, instance_id: 'a__b-1' })
    mkdirSync(join(twice, 'a__b-1'))
    writeFileSync(join(twice, 'a__b-1', 'a__b-1.traj.json'), trajectory)
    expect(parseReplayFile(twice).map((answer) => answer.itemId)).toEqual(['a__b-1'])
    // Read again when a file in it changed, or a file came.
    writeFileSync(join(twice, 'a__b-1', 'a__b-1.traj.json'), JSON.stringify({ ...UPSTREAM, instance_id: 'a__b-10' }))
    expect(parseReplayFile(twice).map((answer) => answer.itemId)).toEqual(['a__b-10'])
    writeFileSync(join(twice, 'a__b-1', 'a__b-1.traj.json'), trajectory)
    writeFileSync(join(twice, 'copy.traj.json'), trajectory)
    expect(() => parseReplayFile(twice)).toThrow(
      `MODEL=replay:${twice} holds two trajectories of a__b-1: ${join(twice, 'a__b-1', 'a__b-1.traj.json')} and ${join(twice, 'copy.traj.json')}. Keep one.`,
    )
    const broken = join(tempDir(), 'c__d-2.traj.json')
    writeFileSync(broken, '{"messages": [')
    expect(() => parseReplayFile(broken)).toThrow(
      /c__d-2\.traj\.json cannot be read as JSON .*give a mini-swe-agent \.traj\.json file/,
    )
    // A one-line JSONL answers file is still read as answers, not as a trajectory.
    const answers = join(tempDir(), 'answers.jsonl')
    writeFileSync(answers, `${JSON.stringify({ id: 'a', reply: 'x' })}\n`)
    expect(parseReplayFile(answers)).toEqual([{ itemId: 'a', sample: 0, text: 'x', form: 'reply' }])
  })
})
