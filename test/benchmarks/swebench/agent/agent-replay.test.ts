/**
 * The bash-only track in the `tools` form as a user runs it (`TESTBENCH_SWEBENCH_MODE=agent MODEL=openai:… vitest run
 * suites/swebench`), a scripted model behind a loopback server driven through the provider's real SDK; and the
 * trajectories such a run writes, and one written by hand in mini-swe-agent's own shape, replayed with
 * `MODEL=replay:<file or directory>`: the same commands run again in a fresh container, and the same patch and verdict
 * come out. Replay input that does not fit (not a trajectory, an instance not in the dataset, the wrong mode) stops the
 * run with one message before any item. Needs a container engine and the image .ci/swebench-setup.sh builds.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, beforeEach, describe, expect, test } from 'vitest'
import type { ChatReply } from '../../../../adapters/models/model-adapter.ts'
import type { WireProtocol } from '../../../../adapters/models/requests/wire-check.ts'
import { connectEngine } from '../../../../suites/swebench/evaluation/container-engine.ts'
import { predictionsPath, trajectoryPath } from '../../../../suites/swebench/predictions.ts'
import { clientEnv } from '../../../support/fault-injecting-server.ts'
import type { LoopbackServer } from '../../../support/loopback-server.ts'
import { skipWithoutTool } from '../../../support/required-tool.ts'
import { startVitestRun } from '../../../support/run-vitest.ts'
import { datasetEnv } from '../../../support/test-datasets.ts'
import { startScriptedModelServer } from '../../../support/scripted-model-server.ts'
import { readPredictions, runSwebenchSuite } from '../run-suite.ts'
import { bash, FIX_MEDIAN, MAKE_PATCH, prose, SUBMIT } from '../scripted-agent.ts'
import {
  ENGINE_AND_IMAGE,
  SYNTHETIC_IMAGE_TEMPLATE,
  fixturePatch,
  syntheticImageUnavailable,
  syntheticRow,
} from '../synthetic-instance.ts'

const INSTANCE = 'testbench__tinycalc-1'
const UPSTREAM_RUN = fileURLToPath(new URL('../../../../fixtures/swebench/replay/mini-swe-agent-run/', import.meta.url))
const PREDICTIONS = fileURLToPath(new URL('../../../../fixtures/swebench/replay/predictions.jsonl', import.meta.url))

const docker = connectEngine()
const unavailable = await syntheticImageUnavailable(docker)

/** The model's turns: explore (two calls in one turn), a reply without a tool call (a format error), fix, test, make the patch, submit. */
const SCRIPT: ChatReply[] = [
  bash('pwd && ls', 'cat tinycalc/stats.py'),
  prose('The median must average the two middle values; let me fix it.'),
  bash(FIX_MEDIAN),
  bash('python3 -m pytest -q -p no:cacheprovider tests 2>&1 | tail -1'),
  bash(MAKE_PATCH),
  bash(SUBMIT),
]

interface Trajectory {
  info: { exit_status: string; submission: string }
  messages: Array<{ role: string; content: string; tool_calls?: Array<{ function: { arguments: string } }> }>
}

function readTrajectory(file: string): Trajectory {
  return JSON.parse(readFileSync(file, 'utf8')) as Trajectory
}

/** What the model did in a trajectory, turn by turn: its text and its commands, and the roles of every message. */
function modelSide(trajectory: Trajectory) {
  return {
    roles: trajectory.messages.map((message) => message.role),
    replies: trajectory.messages
      .filter((message) => message.role === 'assistant')
      .map((message) => [message.content, (message.tool_calls ?? []).map((call) => call.function.arguments)]),
  }
}

function generations(server: LoopbackServer): number {
  return server.seen.filter((request) => request.method === 'POST' && request.path !== '/api/show').length
}

let dataset = ''

function agentEnv(extra: Record<string, string>): Record<string, string> {
  return {
    TESTBENCH_SWEBENCH_MODE: 'agent',
    TESTBENCH_SWEBENCH_DATASET_FILE: dataset,
    TESTBENCH_SWEBENCH_IMAGE_TEMPLATE: SYNTHETIC_IMAGE_TEMPLATE,
    TESTBENCH_SWEBENCH_TIMEOUT: '60',
    TESTBENCH_SWEBENCH_MEMORY: '512',
    TESTBENCH_CACHE: 'on',
    TESTBENCH_CACHE_DIR: mkdtempSync(join(tmpdir(), 'swebench-replay-cache-')),
    ...extra,
  }
}

/** The run's output and each record's reason, for a failed assertion's message. */
function explained(run: Pick<Awaited<ReturnType<typeof runSwebenchSuite>>, 'records' | 'output'>): string {
  return [run.output, ...run.records.map((record) => `${record.itemId}: ${record.reason ?? '(no reason)'}`)].join('\n')
}

function outcomes(records: Awaited<ReturnType<typeof runSwebenchSuite>>['records']) {
  return records.map((record) => [
    record.itemId,
    record.outcome,
    record.scoring?.status,
    record.scoring?.exitStatus,
    record.scoring?.modelCalls,
  ])
}

describe.concurrent('the bash-only track with tool calls, and trajectories replayed', () => {
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'swebench-agent-replay-'))
    dataset = join(dir, 'tinycalc.jsonl')
    writeFileSync(dataset, `${JSON.stringify(await syntheticRow())}\n`)
  })
  beforeEach((context) => {
    skipWithoutTool(context, ENGINE_AND_IMAGE, unavailable)
  })

  const replayedAs: Record<'openai' | 'anthropic', 'directory' | 'file'> = { openai: 'directory', anthropic: 'file' }
  for (const protocol of ['openai', 'anthropic'] as const satisfies readonly WireProtocol[]) {
    test(
      `${protocol}'s wire through its SDK: explore, edit, test, submit, resolved; the trajectory it wrote replays (${replayedAs[protocol]}) to the same patch and verdict without a request`,
      { timeout: 600_000 },
      async () => {
        const server = await startScriptedModelServer(
          protocol,
          SCRIPT.map((reply) => ({ text: reply.text, ...(reply.toolCalls ? { toolCalls: reply.toolCalls } : {}) })),
        )
        try {
          const model = clientEnv(protocol, server.url, 'fake')
          const first = await runSwebenchSuite(agentEnv(model))
          expect(outcomes(first.records), explained(first)).toEqual([[INSTANCE, 'passed', 'resolved', 'Submitted', 6]])
          expect(generations(server)).toBe(6)
          expect(
            readPredictions(predictionsPath(first.reports, model.MODEL ?? '')).map((line) => line.model_patch),
          ).toEqual([fixturePatch('gold')])
          const written = trajectoryPath(first.reports, model.MODEL ?? '', 0, INSTANCE)
          const original = readTrajectory(written)
          expect(original.info).toMatchObject({ exit_status: 'Submitted', submission: fixturePatch('gold') })

          const path = replayedAs[protocol] === 'directory' ? dirname(dirname(written)) : written
          const replay = await runSwebenchSuite(agentEnv({ MODEL: `replay:${path}` }))
          expect(outcomes(replay.records), explained(replay)).toEqual([
            [INSTANCE, 'passed', 'resolved', 'Submitted', 6],
          ])
          expect(generations(server)).toBe(6)
          expect(
            readPredictions(predictionsPath(replay.reports, `replay:${path}`)).map((line) => line.model_patch),
          ).toEqual([fixturePatch('gold')])
          const replayed = readTrajectory(trajectoryPath(replay.reports, `replay:${path}`, 0, INSTANCE))
          expect(modelSide(replayed)).toEqual(modelSide(original))
          expect(replayed.info.submission).toBe(original.info.submission)
        } finally {
          await server.close()
        }
      },
    )
  }

  test(
    "a trajectory directory in mini-swe-agent's own shape (made up) replays: the same commands, the same patch, resolved; an instance it lacks runs nothing",
    { timeout: 300_000 },
    async () => {
      const model = `replay:${UPSTREAM_RUN}`
      // A second instance the directory has no trajectory of (its image does not exist: nothing may try to pull it).
      const twoInstances = join(dirname(dataset), 'two-instances.jsonl')
      const row = await syntheticRow()
      writeFileSync(
        twoInstances,
        [row, { ...row, instance_id: 'testbench__tinycalc-2' }].map((each) => JSON.stringify(each)).join('\n'),
      )
      const { records, output, reports } = await runSwebenchSuite(
        agentEnv({ MODEL: model, TESTBENCH_SWEBENCH_DATASET_FILE: twoInstances }),
      )
      expect(outcomes(records), output).toEqual([
        [INSTANCE, 'passed', 'resolved', 'Submitted', 5],
        ['testbench__tinycalc-2', 'provider_error', undefined, undefined, undefined],
      ])
      expect(records[1]?.reason).toBe(
        `MODEL=${model} holds no trajectory of testbench__tinycalc-2, so nothing was run for it.`,
      )
      expect(readPredictions(predictionsPath(reports, model)).map((line) => line.model_patch)).toEqual([
        fixturePatch('gold'),
      ])
      const upstream = readTrajectory(join(UPSTREAM_RUN, INSTANCE, `${INSTANCE}.traj.json`))
      const replayed = readTrajectory(trajectoryPath(reports, model, 0, INSTANCE))
      // The format error's message is this project's text (the made-up file shortens upstream's); the rest is the same.
      expect(modelSide(replayed)).toEqual(modelSide(upstream))
      expect(replayed.info.submission).toBe(upstream.info.submission)
    },
  )

  test(
    'a replay spends nothing: replies past the token limit still run, and a run that ended on a limit ends there again',
    { timeout: 300_000 },
    async () => {
      const upstream = JSON.parse(readFileSync(join(UPSTREAM_RUN, INSTANCE, `${INSTANCE}.traj.json`), 'utf8')) as {
        info: Record<string, unknown>
        messages: Array<{ role: string; extra?: { response?: { usage?: Record<string, number> } } }>
      }
      const dir = mkdtempSync(join(tmpdir(), 'swebench-replay-limits-'))
      // Every reply billed 2M prompt tokens: a model asked live would stop at the 1M token limit after one call.
      const costly = structuredClone(upstream)
      for (const message of costly.messages)
        if (message.extra?.response?.usage) message.extra.response.usage.prompt_tokens = 2_000_000
      const costlyFile = writeTrajectoryFile(join(dir, 'costly'), `${INSTANCE}.traj.json`, costly)
      // The run stopped on its cost limit after its first reply (two observations), before submitting.
      const stopped = {
        ...upstream,
        info: { ...upstream.info, exit_status: 'LimitsExceeded', submission: '' },
        messages: [
          ...upstream.messages.slice(0, 5),
          { role: 'exit', content: 'LimitsExceeded', extra: { exit_status: 'LimitsExceeded', submission: '' } },
        ],
      }
      const stoppedFile = writeTrajectoryFile(join(dir, 'stopped'), `${INSTANCE}.traj.json`, stopped)
      const { records, output } = await runSwebenchSuite(
        agentEnv({ MODEL: `replay:${costlyFile},replay:${stoppedFile}` }),
      )
      expect(
        records.map((record) => [record.model, ...outcomes([record])[0]!.slice(1)]),
        explained({ records, output }),
      ).toEqual([
        [`replay:${costlyFile}`, 'passed', 'resolved', 'Submitted', 5],
        [`replay:${stoppedFile}`, 'no_answer', 'empty_patch', 'LimitsExceeded', 1],
      ])
      expect(records[1]?.reason).toContain('the limit the replayed trajectory ended on, after 1 model calls')
    },
  )

  test.for([
    {
      what: 'a file that is not a trajectory',
      make: (dir: string) => writeTrajectoryFile(dir, 'notes.traj.json', { messages: [] }),
      mode: 'agent',
      message: /nothing was asked or run:\n.*notes\.traj\.json is not a mini-swe-agent trajectory/,
    },
    {
      what: 'a trajectory of an instance not in the dataset',
      make: (dir: string) =>
        writeTrajectoryFile(dir, 'other.traj.json', {
          ...JSON.parse(readFileSync(join(UPSTREAM_RUN, INSTANCE, `${INSTANCE}.traj.json`), 'utf8')),
          instance_id: 'other__repo-9',
        }),
      mode: 'agent',
      message: /none of its 1 answers is for an item of swebench\. Its ids look like "other__repo-9"/,
    },
    {
      what: 'trajectories in one-shot mode',
      make: () => UPSTREAM_RUN,
      mode: 'oneshot',
      message: /holds agent trajectories, which replay on the bash-only track: set TESTBENCH_SWEBENCH_MODE=agent\./,
    },
    {
      what: 'tool-call trajectories in text mode',
      make: () => UPSTREAM_RUN,
      mode: 'agent-text',
      message: /holds tool-call trajectories \(testbench__tinycalc-1\), .*: set TESTBENCH_SWEBENCH_MODE=agent\./,
    },
    {
      what: 'predictions in agent mode',
      make: () => PREDICTIONS,
      mode: 'agent',
      message:
        /holds one-shot answers \(patches\), not trajectories, .*unset TESTBENCH_SWEBENCH_MODE to replay them one-shot/,
    },
  ])('$what: one message before any item', { timeout: 180_000 }, async ({ make, mode, message }) => {
    const dir = mkdtempSync(join(tmpdir(), 'swebench-bad-replay-'))
    const path = make(dir)
    const { code, output } = await startVitestRun(['--project', 'suites', 'suites/swebench'], {
      ...datasetEnv(),
      ...agentEnv({
        MODEL: `replay:${path}`,
        TESTBENCH_SWEBENCH_MODE: mode,
        TESTBENCH_REPORT_DIR: join(dir, 'reports'),
      }),
    }).done
    expect(code).not.toBe(0)
    expect(output).toMatch(message)
    // Not one item ran: no instance was asked, and no container was started.
    expect(output).not.toMatch(/✓|×|passed|infra_error/)
  })
})

function writeTrajectoryFile(dir: string, name: string, content: unknown): string {
  mkdirSync(dir, { recursive: true })
  const file = join(dir, name)
  writeFileSync(file, JSON.stringify(content))
  return file
}
