/**
 * The bash-only track end to end, as a user runs it (`TESTBENCH_SWEBENCH_MODE=agent-text MODEL=openai:… vitest run
 * suites/swebench`): a scripted model behind a loopback OpenAI server, driven through the real SDK, works on the
 * synthetic instance in its container; the run writes predictions and a trajectory, resumes from the reply cache
 * after Ctrl-C or a crash, and a rerun sends no request. The `tools` form goes over the same path through the OpenAI
 * and Anthropic SDKs in agent-replay.test.ts. Needs a container engine and the image .ci/swebench-setup.sh builds.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, beforeEach, describe, expect, test } from 'vitest'
import type { ChatReply } from '../../../../adapters/models/model-adapter.ts'
import { connectEngine } from '../../../../suites/swebench/evaluation/container-engine.ts'
import { noFutureImageName } from '../../../../suites/swebench/agent/no-future-image.ts'
import { predictionsPath, trajectoryPath } from '../../../../suites/swebench/predictions.ts'
import { scoreSwebench } from '../../../../suites/swebench/score.ts'
import { openaiChatHandler } from '../../../support/fake-openai.ts'
import {
  earlierTurns,
  openaiResponsesHandler,
  reasoningSentBack,
  type ResponsesBody,
} from '../../../support/fake-openai-responses.ts'
import { startLoopbackServer, type LoopbackServer, type SeenRequest } from '../../../support/loopback-server.ts'
import { skipWithoutTool } from '../../../support/required-tool.ts'
import { killRun, startVitestRun } from '../../../support/run-vitest.ts'
import { datasetEnv } from '../../../support/test-datasets.ts'
import { readPredictions, runSwebenchSuite } from '../run-suite.ts'
import { FIX_MEDIAN, fenced, MAKE_PATCH, SUBMIT } from '../scripted-agent.ts'
import {
  ENGINE_AND_IMAGE,
  SYNTHETIC_IMAGE,
  SYNTHETIC_IMAGE_TEMPLATE,
  fixturePatch,
  syntheticImageUnavailable,
  syntheticRow,
} from '../synthetic-instance.ts'

const docker = connectEngine()
const unavailable = await syntheticImageUnavailable(docker)

/** The model's turns: read the code, fix it, make the patch, submit. */
const SCRIPT: ChatReply[] = [fenced('cat tinycalc/stats.py'), fenced(FIX_MEDIAN), fenced(MAKE_PATCH), fenced(SUBMIT)]

/** The turn a request asks for: how many replies of the model its conversation already holds. */
function turnOf(request: SeenRequest): number {
  const body = JSON.parse(request.body) as { messages: Array<{ role: string }> }
  return body.messages.filter((message) => message.role === 'assistant').length
}

function chatRequests(server: LoopbackServer): SeenRequest[] {
  return server.seen.filter((request) => request.path === '/v1/chat/completions')
}

async function episodeContainers(): Promise<string[]> {
  const containers = await docker.listContainers({
    all: true,
    // Episodes run in the image made from the instance's without its repository's future.
    filters: { label: ['testbench.swebench.role=episode'], ancestor: [noFutureImageName(SYNTHETIC_IMAGE)] },
  })
  return containers.map((container) => container.Id)
}

let dataset = ''

function agentEnv(server: LoopbackServer, cacheDir: string): Record<string, string> {
  return {
    MODEL: 'openai:scripted',
    OPENAI_BASE_URL: `${server.url}/v1`,
    OPENAI_API_KEY: 'x',
    TESTBENCH_SWEBENCH_MODE: 'agent-text',
    TESTBENCH_SWEBENCH_DATASET_FILE: dataset,
    TESTBENCH_SWEBENCH_IMAGE_TEMPLATE: SYNTHETIC_IMAGE_TEMPLATE,
    TESTBENCH_SWEBENCH_TIMEOUT: '60',
    TESTBENCH_SWEBENCH_MEMORY: '512',
    TESTBENCH_CACHE: 'on',
    TESTBENCH_CACHE_DIR: cacheDir,
  }
}

describe('the bash-only track through the suite', () => {
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'swebench-agent-'))
    dataset = join(dir, 'tinycalc.jsonl')
    writeFileSync(dataset, `${JSON.stringify(await syntheticRow())}\n`)
  })
  beforeEach((context) => {
    skipWithoutTool(context, ENGINE_AND_IMAGE, unavailable)
  })

  test(
    'a run resolves the instance, writes its prediction and trajectory; a rerun, and a replay of the trajectory, send no request and rebuild the same patch',
    { timeout: 300_000 },
    async () => {
      const cache = mkdtempSync(join(tmpdir(), 'swebench-agent-cache-'))
      const server = await startLoopbackServer(
        openaiChatHandler(['scripted'], (request) => SCRIPT[turnOf(request)]?.text ?? 'no more turns'),
      )
      try {
        const first = await runSwebenchSuite(agentEnv(server, cache))
        expect(
          first.records.map((record) => [
            record.outcome,
            record.scoring?.status,
            record.scoring?.exitStatus,
            record.scoring?.modelCalls,
          ]),
          first.output,
        ).toEqual([['passed', 'resolved', 'Submitted', 4]])
        expect(chatRequests(server)).toHaveLength(4)
        const [record] = first.records
        expect(record?.scoring?.agent).toBe('mini-swe-agent 2.4.6 config, text actions')
        expect(record?.prompt).toContain('[exit: Submitted]')
        expect(scoreSwebench(first.records)[0]).toMatchObject({
          name: 'SWE-bench (own file) % Resolved (bash-only, mini-swe-agent 2.4.6 config, text actions)',
          value: 100,
        })
        expect(
          readPredictions(predictionsPath(first.reports, 'openai:scripted')).map((line) => line.model_patch),
        ).toEqual([fixturePatch('gold')])
        const trajectory = JSON.parse(
          readFileSync(trajectoryPath(first.reports, 'openai:scripted', 0, 'testbench__tinycalc-1'), 'utf8'),
        ) as {
          trajectory_format: string
          info: { exit_status: string; submission: string; mini_version: string; model_stats: { api_calls: number } }
          messages: Array<{ role: string }>
        }
        expect(trajectory).toMatchObject({
          trajectory_format: 'mini-swe-agent-1.1',
          info: {
            exit_status: 'Submitted',
            submission: fixturePatch('gold'),
            mini_version: '2.4.6',
            model_stats: { api_calls: 4 },
          },
        })
        expect(trajectory.messages.map((message) => message.role)).toEqual([
          'system',
          'user',
          'assistant',
          'user',
          'assistant',
          'user',
          'assistant',
          'user',
          'assistant',
          'exit',
        ])

        const again = await runSwebenchSuite(agentEnv(server, cache))
        expect(chatRequests(server)).toHaveLength(4)
        expect(
          again.records.map((record) => [record.outcome, record.scoring?.status]),
          again.output,
        ).toEqual([['passed', 'resolved']])
        expect(
          readPredictions(predictionsPath(again.reports, 'openai:scripted')).map((line) => line.model_patch),
        ).toEqual([fixturePatch('gold')])

        // The text-form trajectory the first run wrote replays too: the same fenced commands, the same patch.
        const trajectories = join(first.reports, 'swebench', 'openai_scripted.trajectories')
        const replay = await runSwebenchSuite({ ...agentEnv(server, cache), MODEL: `replay:${trajectories}` })
        expect(chatRequests(server)).toHaveLength(4)
        expect(
          replay.records.map((record) => [record.outcome, record.scoring?.status, record.scoring?.modelCalls]),
          replay.output,
        ).toEqual([['passed', 'resolved', 4]])
        expect(
          readPredictions(predictionsPath(replay.reports, `replay:${trajectories}`)).map((line) => line.model_patch),
        ).toEqual([fixturePatch('gold')])
      } finally {
        await server.close()
      }
    },
  )

  test(
    'MODEL=openai:gpt-5.3-codex (TESTBENCH_OPENAI_API unset) works through the Responses API, each turn carrying its reasoning back; a rerun sends no request',
    { timeout: 300_000 },
    async () => {
      const cache = mkdtempSync(join(tmpdir(), 'swebench-agent-cache-'))
      const asked: ResponsesBody[] = []
      const server = await startLoopbackServer(
        openaiResponsesHandler(['gpt-5.3-codex'], (body) => {
          asked.push(body)
          const turn = earlierTurns(body)
          return {
            text: SCRIPT[turn]?.text ?? 'no more turns',
            thinking: { id: `rs_${turn + 1}`, text: `Turn ${turn + 1}.`, signature: `enc-${turn + 1}` },
          }
        }),
      )
      try {
        // An empty value is an unset one: whatever the caller's environment holds, `auto` routes the model.
        const env = { ...agentEnv(server, cache), MODEL: 'openai:gpt-5.3-codex', TESTBENCH_OPENAI_API: '' }
        const first = await runSwebenchSuite(env)
        expect(
          first.records.map((record) => [
            record.outcome,
            record.scoring?.status,
            record.scoring?.exitStatus,
            record.scoring?.modelCalls,
            record.modelDetails?.api,
          ]),
          first.output,
        ).toEqual([['passed', 'resolved', 'Submitted', 4, 'responses']])
        expect(server.seen.filter((request) => request.method === 'POST').map((request) => request.path)).toEqual(
          Array(4).fill('/v1/responses'),
        )
        for (const [index, body] of asked.entries()) {
          expect(body).toMatchObject({ store: false, include: ['reasoning.encrypted_content'] })
          expect(reasoningSentBack(body)).toEqual(
            Array.from({ length: index }, (_, turn) => [`rs_${turn + 1}`, `enc-${turn + 1}`]),
          )
          // Each reasoning item goes back right before the message it led to, as the reply's output held them.
          for (const [at, item] of body.input.entries())
            if (item.type === 'reasoning')
              expect(body.input[at + 1]).toMatchObject({ type: 'message', role: 'assistant' })
        }
        const again = await runSwebenchSuite(env)
        expect(
          again.records.map((record) => [record.outcome, record.scoring?.status]),
          again.output,
        ).toEqual([['passed', 'resolved']])
        expect(asked, 'the rerun is answered from the reply cache').toHaveLength(4)
      } finally {
        await server.close()
      }
    },
  )

  test(
    'MODEL=reference in text mode submits the gold patch through the agent and the container: resolved',
    { timeout: 300_000 },
    async () => {
      const { records, output, reports } = await runSwebenchSuite({
        MODEL: 'reference',
        TESTBENCH_SWEBENCH_MODE: 'agent-text',
        TESTBENCH_SWEBENCH_DATASET_FILE: dataset,
        TESTBENCH_SWEBENCH_IMAGE_TEMPLATE: SYNTHETIC_IMAGE_TEMPLATE,
        TESTBENCH_SWEBENCH_MEMORY: '512',
      })
      expect(
        records.map((record) => [
          record.outcome,
          record.scoring?.status,
          record.scoring?.exitStatus,
          record.scoring?.modelCalls,
        ]),
        output,
      ).toEqual([['passed', 'resolved', 'Submitted', 1]])
      expect(readPredictions(predictionsPath(reports, 'reference')).map((line) => line.model_patch)).toEqual([
        fixturePatch('gold'),
      ])
    },
  )

  for (const stop of ['Ctrl-C', 'a crash (SIGKILL)'] as const) {
    test(
      `after ${stop} in the middle nothing is left running, and the next run goes on from the turn it stopped at`,
      { timeout: 300_000 },
      async () => {
        const cache = mkdtempSync(join(tmpdir(), 'swebench-agent-cache-'))
        const reports = mkdtempSync(join(tmpdir(), 'swebench-agent-reports-'))
        let interrupt: (() => void) | undefined
        let runningAtStop: string[] = []
        const server = await startLoopbackServer((request, response) => {
          const turn = request.path === '/v1/chat/completions' ? turnOf(request) : -1
          // The third turn is never answered: the run is stopped while it waits for it.
          if (turn === 2 && interrupt !== undefined) {
            const stopNow = interrupt
            interrupt = undefined
            return episodeContainers().then((running) => {
              runningAtStop = running
              stopNow()
            })
          }
          openaiChatHandler(['scripted'], (seen) => SCRIPT[turnOf(seen)]?.text ?? 'no more turns')(request, response)
        })
        try {
          const run = startVitestRun(['--project', 'suites', 'suites/swebench'], {
            ...datasetEnv(),
            ...agentEnv(server, cache),
            TESTBENCH_REPORT_DIR: reports,
          })
          interrupt = () => {
            if (stop === 'Ctrl-C' && run.child.pid !== undefined) process.kill(-run.child.pid, 'SIGINT')
            else killRun(run)
          }
          const stopped = await run.done
          expect(interrupt, stopped.output).toBeUndefined()
          expect(runningAtStop.length).toBeGreaterThan(0)
          // Other tests may run episodes of their own meanwhile: only those running when the run stopped are watched.
          const leftOf = async () => (await episodeContainers()).filter((id) => runningAtStop.includes(id))
          const deadline = Date.now() + 20_000
          while ((await leftOf()).length > 0 && Date.now() < deadline)
            await new Promise((resolve) => setTimeout(resolve, 250))
          expect(await leftOf()).toEqual([])
          const asked = chatRequests(server).length
          expect(asked).toBe(3)

          const resumed = await runSwebenchSuite(agentEnv(server, cache))
          expect(
            resumed.records.map((record) => [record.outcome, record.scoring?.status]),
            resumed.output,
          ).toEqual([['passed', 'resolved']])
          // Turns 0 and 1 came from the cache: the resumed run asked for turns 2 and 3 only.
          expect(chatRequests(server).slice(asked).map(turnOf)).toEqual([2, 3])
          expect(existsSync(trajectoryPath(resumed.reports, 'openai:scripted', 0, 'testbench__tinycalc-1'))).toBe(true)
        } finally {
          await server.close()
        }
      },
    )
  }
})
