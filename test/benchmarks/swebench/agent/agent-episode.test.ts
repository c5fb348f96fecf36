/**
 * mini-swe-agent's bash-only agent on the synthetic instance (fixtures/swebench/tinycalc), in real episode
 * containers of its image: a scripted model explores, edits, tests and submits, and the submission is judged as a
 * prediction is. Needs a container engine and the image .ci/swebench-setup.sh builds (skipped without, naming them;
 * failing instead under TESTBENCH_REQUIRE_TOOLS=1).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { beforeAll, beforeEach, describe, expect, test } from 'vitest'
import type { ChatMessage } from '../../../../adapters/models/model-adapter.ts'
import { EPISODE_LIMITS, runEpisode, type EpisodeSetup } from '../../../../suites/swebench/agent/agent-episode.ts'
import type { AgentRun } from '../../../../suites/swebench/agent/agent-loop.ts'
import { connectEngine } from '../../../../suites/swebench/evaluation/container-engine.ts'
import { evaluatePatch } from '../../../../suites/swebench/evaluation/evaluate.ts'
import type { SwebenchInstance } from '../../../../suites/swebench/instance.ts'
import { judgePatch, type Judges } from '../../../../suites/swebench/patches/judge-reply.ts'
import { TEXT_CONFIG, TOOLS_CONFIG, type AgentConfig } from '../../../../suites/swebench/agent/mini-swe-agent-config.ts'
import { skipWithoutTool } from '../../../support/required-tool.ts'
import {
  bash,
  FIX_MEDIAN,
  fenced,
  MAKE_PATCH,
  prose,
  rawCalls,
  scriptedModel,
  SUBMIT,
  SUBMIT_NOTHING,
  WRONG_FIX,
  type ScriptedModel,
} from '../scripted-agent.ts'
import {
  ENGINE_AND_IMAGE,
  SYNTHETIC_IMAGE,
  SYNTHETIC_SPEC,
  fixturePatch,
  syntheticImageUnavailable,
  syntheticInstance,
} from '../synthetic-instance.ts'
import { trajectoryJson } from '../../../../suites/swebench/agent/trajectory.ts'
import { ReplayAdapter } from '../../../../adapters/models/answer-sources/replay.ts'

const docker = connectEngine()
const unavailable = await syntheticImageUnavailable(docker)

const judges: Judges = {
  evaluate: (instance, patch) =>
    evaluatePatch(docker, instance, patch, {
      image: SYNTHETIC_IMAGE,
      spec: SYNTHETIC_SPEC,
      timeoutMs: 60_000,
      network: 'none',
      memoryBytes: 512 * 1024 * 1024,
    }),
}

let instance: SwebenchInstance

function episode(
  model: ScriptedModel,
  overrides: Partial<EpisodeSetup> & { config?: AgentConfig } = {},
): Promise<AgentRun> {
  return runEpisode(docker, {
    config: TOOLS_CONFIG,
    task: instance.problemStatement,
    image: SYNTHETIC_IMAGE,
    limits: { ...EPISODE_LIMITS, memoryBytes: 512 * 1024 * 1024 },
    ask: model.ask,
    costOf: () => undefined,
    tokenLimit: 1_000_000,
    ...overrides,
  })
}

async function episodeContainers(): Promise<string[]> {
  const containers = await docker.listContainers({ all: true, filters: { label: ['testbench.swebench.role=episode'] } })
  return containers.map((container) => container.Id)
}

async function containerGone(id: string, withinMs = 15_000): Promise<boolean> {
  const deadline = Date.now() + withinMs
  while (Date.now() < deadline) {
    if (!(await episodeContainers()).includes(id)) return true
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  return false
}

/** The observation the model was sent for the call `callId`. */
function toolResult(messages: readonly ChatMessage[], callId: string): string {
  const found = messages.find((message) => message.role === 'tool' && message.callId === callId)
  if (found === undefined) throw new Error(`no result for ${callId}`)
  return found.content
}

function callId(reply: ReturnType<typeof bash>, index = 0): string {
  const call = reply.toolCalls?.[index]
  if (call === undefined) throw new Error('the reply has no such call')
  return call.id
}

describe('the bash-only agent in an episode container', () => {
  beforeAll(async () => {
    instance = await syntheticInstance()
  })
  beforeEach((context) => {
    skipWithoutTool(context, ENGINE_AND_IMAGE, unavailable)
  })

  test(
    'explores, edits, tests and submits the right patch: resolved, and its container is removed',
    { timeout: 120_000 },
    async () => {
      const explore = bash('pwd && ls', 'cat tinycalc/stats.py')
      const ordered = bash('echo first > /tmp/order', 'echo second >> /tmp/order && cat /tmp/order')
      const testRun = bash('python3 -m pytest -q -p no:cacheprovider tests 2>&1 | tail -3')
      const model = scriptedModel([
        explore,
        ordered,
        bash(FIX_MEDIAN),
        testRun,
        bash(MAKE_PATCH),
        bash('cat patch.txt'),
        bash(SUBMIT, 'echo never run'),
      ])
      let id = ''
      const run = await episode(model, { onContainer: (container) => (id = container) })

      expect(run.exitStatus).toBe('Submitted')
      expect(run.submission).toBe(fixturePatch('gold'))
      expect(run.modelCalls).toBe(7)
      // The conversation: system, instance, then each reply with one tool result per call, in order.
      const last = model.sent.at(-1) ?? []
      expect(last[0]).toEqual({ role: 'system', content: TOOLS_CONFIG.systemTemplate })
      expect(last[1]?.content).toContain(
        '<pr_description>\nConsider the following PR description:\nmedian() is wrong for an even number of values',
      )
      expect(toolResult(last, callId(explore))).toBe(
        '<returncode>0</returncode>\n<output>\n/testbed\nREADME.md\ntests\ntinycalc\n</output>',
      )
      expect(toolResult(last, callId(explore, 1))).toContain('    return ordered[middle]\n</output>')
      expect(toolResult(last, callId(ordered, 1))).toBe(
        '<returncode>0</returncode>\n<output>\nfirst\nsecond\n</output>',
      )
      expect(toolResult(last, callId(testRun))).toMatch(/1 passed/)
      expect(model.tools.every((tools) => tools?.map((tool) => tool.name).join() === 'bash')).toBe(true)
      expect(run.messages.at(-1)).toMatchObject({ role: 'exit', extra: { exit_status: 'Submitted' } })
      expect(await containerGone(id)).toBe(true)

      const verdict = await judgePatch(instance, run.submission, judges)
      expect(verdict.status, verdict.evaluation?.log).toBe('resolved')
    },
  )

  test(
    'a trajectory replays: the same commands run again in a fresh container, and the same patch and verdict come out',
    { timeout: 120_000 },
    async () => {
      const original = await episode(
        scriptedModel([
          bash('cat tinycalc/stats.py'),
          prose('Let me think.'),
          bash(FIX_MEDIAN),
          bash(MAKE_PATCH),
          bash(SUBMIT),
        ]),
      )
      const file = trajectoryJson(original, {
        instanceId: instance.instanceId,
        model: 'scripted',
        image: SYNTHETIC_IMAGE,
        config: TOOLS_CONFIG,
      })
      const path = join(mkdtempSync(join(tmpdir(), 'swebench-replay-')), `${instance.instanceId}.traj.json`)
      writeFileSync(path, JSON.stringify(file, null, 2))
      const replay = new ReplayAdapter(path)
      expect(await replay.preflight()).toEqual({ answers: 1 })
      const replayed = await episode({
        ask: (messages, tools) =>
          replay.chat({
            messages,
            params: {},
            ...(tools === undefined ? {} : { tools }),
            item: { suite: 'swebench', itemId: instance.instanceId, sample: 0 },
          }),
        sent: [],
        tools: [],
      })
      rmSync(dirname(path), { recursive: true, force: true })
      expect(replayed.messages).toEqual(original.messages)
      expect(replayed.submission).toBe(fixturePatch('gold'))
      const verdict = await judgePatch(instance, replayed.submission, judges)
      expect(verdict.status, verdict.evaluation?.log).toBe('resolved')
    },
  )

  test('a wrong fix, submitted, is not resolved', { timeout: 120_000 }, async () => {
    const run = await episode(scriptedModel([bash(WRONG_FIX), bash(MAKE_PATCH), bash(SUBMIT)]))
    expect(run.exitStatus).toBe('Submitted')
    expect(run.submission).toContain('+    return float(ordered[middle])')
    const verdict = await judgePatch(instance, run.submission, judges)
    expect(verdict.status, verdict.evaluation?.log).toBe('not_resolved')
  })

  test('the marker submits only as the first line of a command that exits 0', { timeout: 60_000 }, async () => {
    const notFirst = bash('echo hello && echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT')
    const failing = bash('echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && echo patch && false')
    const run = await episode(
      scriptedModel([
        notFirst,
        failing,
        bash('printf "\\n  COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT  \\nline 1\\r\\nline 2"'),
      ]),
    )
    expect(run.exitStatus).toBe('Submitted')
    expect(run.modelCalls).toBe(3)
    expect(run.submission).toBe('line 1\r\nline 2')
  })

  test('a model that never submits stops at the step limit with nothing to judge', { timeout: 60_000 }, async () => {
    const model = scriptedModel([], bash('true'))
    const run = await episode(model, { config: { ...TOOLS_CONFIG, stepLimit: 4 } })
    expect(run).toMatchObject({ exitStatus: 'LimitsExceeded', submission: '', modelCalls: 4 })
    expect(model.sent).toHaveLength(4)
    const verdict = await judgePatch(instance, run.submission, judges)
    expect(verdict).toMatchObject({ status: 'empty_patch', outcome: 'no_answer' })
  })

  test(
    'three format errors in a row end the run; a good reply in between resets the count',
    { timeout: 60_000 },
    async () => {
      const model = scriptedModel([
        prose('I think the bug is in median.'),
        bash('true'),
        rawCalls({ name: 'python', arguments: '{"code": "print(1)"}' }),
        rawCalls({ name: 'bash', arguments: '{"command": "ls"' }),
        prose('cut off mid-', 'length'),
      ])
      const run = await episode(model)
      expect(run.exitStatus).toBe('RepeatedFormatError')
      expect(run.modelCalls).toBe(5)
      const sent = model.sent.at(-1) ?? []
      // A reply in the wrong format is not kept: the error message follows the last good turn's results.
      expect(sent.filter((message) => message.role === 'assistant')).toHaveLength(1)
      const errors = sent
        .filter((message) => message.role === 'user')
        .slice(1)
        .map((message) => message.content)
      expect(errors[0]).toContain(
        '<error>\nNo tool calls found in the response. Every response MUST include at least one tool call.\n</error>',
      )
      expect(errors[1]).toContain(
        "<error>\nUnknown tool 'python'.Missing 'command' argument in bash tool call.\n</error>",
      )
      expect(errors[2]).toMatch(
        /<error>\nError parsing tool call arguments: .+\.Missing 'command' argument in bash tool call\.\n<\/error>/,
      )
      const exitAndLast = run.messages.slice(-2)
      expect(exitAndLast[0]?.content).toBe(
        'Your previous response reached the output token limit (finish_reason=length) before you produced a tool call, so it was cut off. Respond more concisely and finish with exactly one bash tool call. If you need to think more, do so briefly.',
      )
      expect(exitAndLast[1]).toMatchObject({
        role: 'exit',
        extra: { exit_status: 'RepeatedFormatError', submission: '' },
      })
    },
  )

  test(
    'the cost limit stops the run before the call that would pass it; without a price, the token limit does',
    { timeout: 60_000 },
    async () => {
      const priced = await episode(scriptedModel([], bash('true')), { costOf: () => 1.25 })
      expect(priced).toMatchObject({ exitStatus: 'LimitsExceeded', modelCalls: 3, cost: 3.75 })
      expect(priced.limitReason).toMatch(/cost limit/)
      const unpriced = await episode(scriptedModel([], bash('true')), { tokenLimit: 300 })
      expect(unpriced).toMatchObject({ exitStatus: 'LimitsExceeded', modelCalls: 3 })
      expect(unpriced.limitReason).toMatch(/token limit/)
    },
  )

  test(
    'output past 10,000 characters is cut to its first and last 5,000, with the note',
    { timeout: 60_000 },
    async () => {
      const long = bash('seq 1 3000')
      const model = scriptedModel([long, bash(SUBMIT_NOTHING)])
      await episode(model)
      const result = toolResult(model.sent[1] ?? [], callId(long))
      expect(result).toMatch(/^<returncode>0<\/returncode>\n<warning>\nThe output of your last command was too long\./)
      expect(result).toContain('</warning><output_head>\n1\n2\n3\n')
      expect(result).toContain(`<elided_chars>\n${13893 - 10000} characters elided\n</elided_chars>`)
      expect(result).toMatch(/2999\n3000\n\n<\/output_tail>$/)
    },
  )

  test('text mode: one fenced command a reply; zero or two are format errors', { timeout: 60_000 }, async () => {
    const two = prose('```mswea_bash_command\nls\n```\nand\n```mswea_bash_command\npwd\n```')
    const model = scriptedModel([
      fenced('cat tinycalc/__init__.py; echo status $?'),
      two,
      fenced(FIX_MEDIAN),
      fenced(MAKE_PATCH),
      fenced(SUBMIT),
    ])
    const run = await episode(model, { config: TEXT_CONFIG })
    expect(run.exitStatus).toBe('Submitted')
    expect(run.submission).toBe(fixturePatch('gold'))
    expect(model.tools.every((tools) => tools === undefined)).toBe(true)
    const sent = model.sent[2] ?? []
    expect(sent[2]).toMatchObject({ role: 'assistant' })
    expect(sent[3]).toMatchObject({
      role: 'user',
      content: expect.stringMatching(/^<returncode>0<\/returncode>\n<output>\n.*status 0\n<\/output>$/s),
    })
    expect(sent[4]?.content).toContain('Format error:\n\n<error>\nExpected exactly 1 action, found 2.\n</error>')
    expect(sent[4]?.content).toContain('Please always provide EXACTLY ONE action in triple backticks, found 2 actions.')
  })
})

describe('hostile commands hurt only their own episode', () => {
  beforeAll(async () => {
    instance ??= await syntheticInstance()
  })
  beforeEach((context) => {
    skipWithoutTool(context, ENGINE_AND_IMAGE, unavailable)
  })

  test(
    'a command that never ends is killed at the limit with its process group; the next command runs',
    { timeout: 60_000 },
    async () => {
      const hang = bash('echo started; sleep 1000')
      const after = bash(
        'for p in /proc/[0-9]*; do tr "\\0" " " < $p/cmdline; echo; done | grep -c "^sleep 1000" || true',
      )
      const model = scriptedModel([hang, after, bash(SUBMIT_NOTHING)])
      await episode(model, { config: { ...TOOLS_CONFIG, timeoutSeconds: 2 } })
      const sent = model.sent[2] ?? []
      expect(toolResult(sent, callId(hang))).toMatch(
        /^<exception>An error occurred while executing the command: Command .* timed out after 2 seconds<\/exception>\n<returncode>-1<\/returncode>\n<output>\nstarted\n<\/output>$/,
      )
      expect(toolResult(sent, callId(after))).toBe('<returncode>0</returncode>\n<output>\n0\n</output>')
    },
  )

  test('a flood of output is kept to its ends, and the observation counts all of it', { timeout: 60_000 }, async () => {
    const flood = bash('yes | head -c 20000000')
    const model = scriptedModel([flood, bash(SUBMIT_NOTHING)])
    const run = await episode(model)
    expect(toolResult(model.sent[1] ?? [], callId(flood))).toContain(
      '<elided_chars>\n19990000 characters elided\n</elided_chars>',
    )
    const observation = run.messages.find((message) => message.role === 'tool')
    expect(String(observation?.extra?.raw_output ?? '').length).toBeLessThanOrEqual(4 * 1024 * 1024)
  })

  test('a fork bomb meets the process limit and the time limit; the episode goes on', { timeout: 90_000 }, async () => {
    const bomb = bash('bomb() { bomb | bomb & }; bomb; sleep 30')
    const after = bash('echo alive')
    const model = scriptedModel([bomb, after, bash(SUBMIT_NOTHING)])
    await episode(model, {
      config: { ...TOOLS_CONFIG, timeoutSeconds: 5 },
      limits: { ...EPISODE_LIMITS, memoryBytes: 512 * 1024 * 1024, pids: 128 },
    })
    expect(toolResult(model.sent[2] ?? [], callId(after))).toBe(
      '<returncode>0</returncode>\n<output>\nalive\n</output>',
    )
  })

  test('a disk fill meets the file size limit, and the disk limit ends the episode', { timeout: 90_000 }, async () => {
    const big = bash(
      'dd if=/dev/zero of=/testbed/big bs=1M count=64 2>&1 | tail -1; ls -l /testbed/big | cut -d" " -f5',
    )
    const many = bash('for i in $(seq 1 8); do head -c 30000000 /dev/zero > /tmp/fill$i; done; du -sm /tmp | cut -f1')
    const model = scriptedModel([big, many], bash('true'))
    const run = await episode(model, {
      limits: {
        ...EPISODE_LIMITS,
        memoryBytes: 512 * 1024 * 1024,
        fileBytes: 32 * 1024 * 1024,
        diskBytes: 128 * 1024 * 1024,
      },
    })
    expect(toolResult(model.sent[1] ?? [], callId(big))).toMatch(/\n33554432\n<\/output>$/)
    expect(run.exitStatus).toBe('DiskLimitExceeded')
    expect(run.limitReason).toMatch(/past its limit of 128 MB/)
    // Found while the model was asked for the third turn: that reply is not used.
    expect(run.modelCalls).toBe(3)
    expect(run.messages.filter((message) => message.role === 'assistant')).toHaveLength(2)
  })

  test('there is no network; a daemon left behind goes with the container', { timeout: 60_000 }, async () => {
    const network = bash(
      'ls /sys/class/net; python3 -c "import socket; socket.create_connection((\'1.1.1.1\', 80), timeout=3)" 2>&1 | tail -1',
    )
    const daemon = bash('setsid sleep 1000 > /dev/null 2>&1 & echo left')
    const model = scriptedModel([network, daemon, bash(SUBMIT_NOTHING)])
    let id = ''
    await episode(model, { onContainer: (container) => (id = container) })
    expect(toolResult(model.sent[2] ?? [], callId(network))).toMatch(
      /^<returncode>0<\/returncode>\n<output>\nlo\n.*(Network is unreachable|OSError)/s,
    )
    expect(await containerGone(id)).toBe(true)
  })

  test('a cancelled episode (Ctrl-C) removes its container at once', { timeout: 60_000 }, async () => {
    const controller = new AbortController()
    let id = ''
    const model = scriptedModel([bash('true'), () => (controller.abort(), bash('sleep 20'))])
    await expect(
      episode(model, { signal: controller.signal, onContainer: (container) => (id = container) }),
    ).rejects.toThrow(/cancelled/)
    expect(await containerGone(id, 5_000)).toBe(true)
  })
})
