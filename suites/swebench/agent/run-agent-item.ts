/**
 * One SWE-bench item on the bash-only track: mini-swe-agent's agent works in the instance's container until it
 * submits or meets a limit, its submission is judged as a prediction is (a fresh container), and its trajectory
 * goes into the record and beside the predictions file.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { ProviderError, type ChatReply } from '../../../adapters/models/model-adapter.ts'
import { parseReplayFile } from '../../../adapters/models/answer-sources/replay.ts'
import type { ItemContext } from '../../../harness/benchmark.ts'
import { reportDir } from '../../../harness/knobs.ts'
import { costOf, pricesFromEnv } from '../../../harness/run-wide/prices.ts'
import type { AgentRun, AgentSetup } from './agent-loop.ts'
import { EPISODE_LIMITS, runEpisode } from './agent-episode.ts'
import { InfraError } from '../evaluation/container-run.ts'
import { parseActions } from './agent-actions.ts'
import { screenCommands, type HistoryProbe } from './history-probes.ts'
import { judgePatch } from '../patches/judge-reply.ts'
import { agentConfig, MINI_SWE_AGENT_VERSION } from './mini-swe-agent-config.ts'
import { trajectoryPath } from '../predictions.ts'
import { repoSpec } from '../evaluation/repo-specs.ts'
import { describeVerdict, evaluationImage, type SwebenchItem, type SwebenchRun } from '../run-item.ts'
import type { SwebenchFacts } from '../score.ts'
import { renderTrajectory, trajectoryJson } from './trajectory.ts'

export async function runAgentItem(
  item: SwebenchItem,
  bench: ItemContext<SwebenchFacts>,
  run: SwebenchRun,
): Promise<void> {
  const { instance } = item
  const { options } = run
  if (run.engine === undefined)
    throw new InfraError('SWE-bench agent mode needs a container engine, and this run has none.')
  const { docker, images, noFuture, limiter } = run.engine
  const config = agentConfig(options.mode === 'agent-text' ? 'text' : 'tools')
  const agent = `mini-swe-agent ${MINI_SWE_AGENT_VERSION} config${config.form === 'text' ? ', text actions' : ''}`
  const image = evaluationImage(options.imageTemplate, instance.instanceId)
  const spec = instance.spec ?? repoSpec(instance.repo, instance.version)
  const prices = pricesFromEnv()
  const price = (reply: ChatReply) =>
    reply.tokens === undefined
      ? prices?.perMillionTokens[bench.model.label]
        ? 0
        : undefined
      : costOf(prices, bench.model.label, reply.tokens)?.total
  const replayed = bench.model.provider === 'replay' ? replayedTurns(bench, instance.instanceId) : undefined
  const spending: Pick<AgentSetup, 'costOf' | 'tokenLimit' | 'callLimit'> =
    replayed === undefined ? { costOf: price, tokenLimit: options.tokenLimit } : replayed.limits
  await images.using(image, async () => {
    let agentImage = ''
    const episode = await limiter.run(() =>
      noFuture.using(
        image,
        instance.baseCommit,
        (made) => {
          const seconds = (made.buildMs / 1000).toFixed(1)
          const how = made.buildMs === 0 ? '' : `; ${made.derived ? 'made' : 'checked'} in ${seconds} s`
          agentImage = `${made.image} (${made.summary}${how})`
          return runEpisode(docker, {
            config,
            task: instance.problemStatement,
            image: made.id,
            limits: {
              ...EPISODE_LIMITS,
              network: options.network ?? spec.network ?? 'none',
              ...(options.memoryBytes > 0 ? { memoryBytes: options.memoryBytes } : {}),
            },
            ask: (messages, tools) => bench.ask(messages, {}, tools === undefined ? {} : { tools }),
            ...spending,
            signal: bench.signal,
            onPulled: (pulled) => images.markPulled(pulled),
          })
        },
        (pulled) => images.markPulled(pulled),
      ),
    )
    // The commands run, and for a replay those of the whole trajectory (a run made elsewhere, perhaps on a leaky image).
    const probes = screenCommands(
      [...new Set([...episodeCommands(episode), ...(replayed?.commands(config.form) ?? [])])],
      instance.baseCommit,
    )
    writeTrajectory(bench, instance.instanceId, image, episode, config)
    // The submission is judged as a prediction's model_patch is: byte for byte; none is an empty patch.
    const verdict = await judgePatch(instance, episode.submission, run.judges, bench.signal)
    const ending = `${episode.exitStatus}${episode.limitReason ? ` (${episode.limitReason})` : ''}`
    const lowered = `${verdict.reason.charAt(0).toLowerCase()}${verdict.reason.slice(1)}`
    bench.record({
      outcome: verdict.outcome,
      reason: `${
        episode.exitStatus === 'Submitted' ? verdict.reason : `${ending}: the agent submitted nothing, so ${lowered}`
      }${probes.length === 0 ? '' : ` ${probedText(probes, verdict.status === 'resolved')}`}`,
      extracted: verdict.patch,
      prompt: renderTrajectory(episode.messages),
      tokens: episode.tokens,
      output: [
        `exit status ${episode.exitStatus} after ${episode.modelCalls} model calls`,
        `the agent's image: ${agentImage}`,
        describeVerdict(verdict),
        ...probeLines(probes),
      ].join('\n'),
      ...(probes.length > 0 ? { marks: ['probed_history' as const] } : {}),
      scoring: {
        status: verdict.status,
        dataset: options.datasetFile === undefined ? options.dataset : 'own file',
        repo: instance.repo,
        contextFiles: 0,
        repairedHunks: 0,
        agent,
        exitStatus: episode.exitStatus,
        modelCalls: episode.modelCalls,
        historyProbes: probes.length,
        ...(prices?.perMillionTokens[bench.model.label] ? { agentCost: episode.cost } : {}),
        ...(verdict.evaluation?.appliedWith ? { appliedWith: verdict.evaluation.appliedWith } : {}),
        ...(verdict.evaluation ? { evaluationMs: verdict.evaluation.wallMs } : {}),
      },
    })
    const allowed = verdict.status === 'generated' ? 'generated' : 'resolved'
    bench.expect(verdict.status, verdict.reason).toBe(allowed)
  })
}

/**
 * A replay spends nothing, so no cost or token limit holds: the trajectory's replies run out where its run ended. One
 * that ended on a limit (LimitsExceeded) ends there again, after as many model calls, whatever the limit was. An
 * instance the replay has no trajectory of is not the model's fault, and is known before any image is pulled.
 */
function replayedTurns(
  bench: ItemContext<SwebenchFacts>,
  instanceId: string,
): {
  limits: Pick<AgentSetup, 'costOf' | 'tokenLimit' | 'callLimit'>
  commands: (form: 'text' | 'tools') => string[]
} {
  const file = bench.model.model
  const replayed = parseReplayFile(file).find(
    (answer) => answer.itemId === instanceId && answer.sample === bench.sample,
  )
  const calls = replayed?.turns?.length
  if (calls === undefined) {
    const reason = `MODEL=replay:${file} holds no trajectory of ${instanceId}${bench.sample === 0 ? '' : ` for sample ${bench.sample}`}, so nothing was run for it.`
    bench.record({ outcome: 'provider_error', reason })
    throw new ProviderError(reason)
  }
  const turns = replayed?.turns ?? []
  return {
    limits: {
      costOf: () => undefined,
      tokenLimit: 0,
      ...(replayed?.exitStatus === 'LimitsExceeded'
        ? { callLimit: { calls, reason: `the limit the replayed trajectory ended on, after ${calls} model calls` } }
        : {}),
    },
    commands: (form) =>
      turns.flatMap((turn) => {
        const parsed = parseActions(form, turn)
        return 'actions' in parsed ? parsed.actions.map((action) => action.command) : []
      }),
  }
}

/** The commands the agent ran, as its messages note them. */
function episodeCommands(episode: AgentRun): string[] {
  return episode.messages.flatMap((message) => {
    const actions = message.role === 'assistant' ? message.extra?.actions : undefined
    if (!Array.isArray(actions)) return []
    return actions.flatMap((action) =>
      typeof action === 'object' && action !== null && !Array.isArray(action) && typeof action.command === 'string'
        ? [action.command]
        : [],
    )
  })
}

/** What the reason says of an item whose agent probed: a resolved one is marked for a reader to look at. */
function probedText(probes: readonly HistoryProbe[], resolved: boolean): string {
  const count = `${probes.length} command${probes.length === 1 ? '' : 's'}`
  return resolved
    ? `LOOK: resolved after ${count} that read history beyond the working tree (see output).`
    : `(The agent ran ${count} that read history beyond the working tree; see output.)`
}

function probeLines(probes: readonly HistoryProbe[]): string[] {
  if (probes.length === 0) return ['history probes: none']
  return [
    `history probes: ${probes.length} command(s) read history beyond the working tree (the container held none past the base commit):`,
    ...probes.map(
      (probe) => `  ${probe.command.split('\n')[0] ?? ''}${probe.command.includes('\n') ? ' …' : ''}  [${probe.why}]`,
    ),
  ]
}

function writeTrajectory(
  bench: ItemContext<SwebenchFacts>,
  instanceId: string,
  image: string,
  episode: AgentRun,
  config: ReturnType<typeof agentConfig>,
): void {
  const file = trajectoryPath(reportDir(), bench.model.label, bench.sample, instanceId)
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(
    file,
    `${JSON.stringify(trajectoryJson(episode, { instanceId, model: bench.model.label, image, config }), null, 2)}\n`,
  )
}
