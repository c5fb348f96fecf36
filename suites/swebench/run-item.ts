/** One SWE-bench item: prompt with context, ask, judge the patch, write the prediction, record, assert. */
import { join } from 'node:path'
import type Docker from 'dockerode'
import { Limiter } from '../../adapters/sandbox/concurrency.ts'
import type { BenchItem, ItemContext } from '../../harness/benchmark.ts'
import { cacheDir } from '../../harness/knobs.ts'
import { connectEngine, engineUnavailable } from './evaluation/container-engine.ts'
import { evaluatePatch } from './evaluation/evaluate.ts'
import type { SwebenchInstance } from './instance.ts'
import { judgePatch, judgeReply, type Judges, type ReplyVerdict } from './patches/judge-reply.ts'
import type { SwebenchMode, SwebenchOptions } from './options.ts'
import { referenceSubmission } from './agent/reference-submission.ts'
import { NoFutureImages } from './agent/no-future-image.ts'
import { PulledImages } from './evaluation/pulled-images.ts'
import { contextFiles, swebenchPrompt } from './prompt.ts'
import { RepoCache } from './repo-cache.ts'
import { repoSpec } from './evaluation/repo-specs.ts'
import type { SwebenchFacts } from './score.ts'

export interface SwebenchItem extends BenchItem {
  instance: SwebenchInstance
}

export function swebenchItem(instance: SwebenchInstance, mode: SwebenchMode = 'oneshot'): SwebenchItem {
  const firstLine = instance.problemStatement.trim().split('\n')[0] ?? ''
  return {
    id: instance.instanceId,
    title: firstLine.length > 60 ? `${firstLine.slice(0, 57)}…` : firstLine,
    ...(mode === 'agent'
      ? {}
      : { reference: mode === 'agent-text' ? referenceSubmission(instance.patch) : instance.patch }),
    instance,
  }
}

/** SWE-bench's published evaluation image of an instance (`__` is written `_1776_` in image names). */
export function evaluationImage(template: string, instanceId: string): string {
  return template.replace('{id}', instanceId.replace('__', '_1776_').toLowerCase())
}

export interface SwebenchRun {
  judges: Judges
  /**
   * The judges of a replayed prediction: the same evaluation, which needs no clone (the instance's image holds the
   * repository); the check against a clone only where TESTBENCH_SWEBENCH_REPOS_DIR has one, never cloned for it.
   */
  replayJudges: Judges
  repos: RepoCache
  options: SwebenchOptions
  /** The engine, the images the run pulled, the agents' images without their repository's future and the container slots. */
  engine?: { docker: Docker; images: PulledImages; noFuture: NoFutureImages; limiter: TaskLimiter }
}

/** Runs at most so many tasks at once: a Limiter, or one shared by the run's workers (harness/run-wide/run-slots.ts). */
export interface TaskLimiter {
  run<T>(task: () => Promise<T>): Promise<T>
}

/** The judges and the clone cache of one run; containers are bounded by TESTBENCH_SWEBENCH_CONCURRENCY. */
export function swebenchRun(
  options: SwebenchOptions,
  env: NodeJS.ProcessEnv = process.env,
  limiter: TaskLimiter = new Limiter(options.concurrency),
): SwebenchRun {
  const repos = new RepoCache(join(cacheDir(env), 'swebench', 'repos'), options.reposDir)
  const judges: Judges = {}
  // An agent reads the repository in its container: a clone is used only when one is at hand.
  if (
    options.mode === 'oneshot'
      ? options.context !== 'none' || options.reposDir !== undefined
      : options.reposDir !== undefined
  ) {
    judges.check = (instance, patch) => repos.checkPatch(instance.repo, instance.baseCommit, patch)
  }
  const usesContainers = options.evaluate || options.mode !== 'oneshot'
  const docker = usesContainers ? connectEngine(env) : undefined
  const images = docker === undefined ? undefined : new PulledImages(docker, options.keepImages)
  if (options.evaluate && docker !== undefined && images !== undefined) {
    judges.evaluate = (instance, patch, signal) => {
      const spec = instance.spec ?? repoSpec(instance.repo, instance.version)
      const image = evaluationImage(options.imageTemplate, instance.instanceId)
      return images.using(image, () =>
        limiter.run(() =>
          evaluatePatch(docker, instance, patch, {
            image,
            spec,
            timeoutMs: options.timeoutMs,
            network: options.network ?? spec.network ?? 'none',
            memoryBytes: options.memoryBytes,
            pulled: images,
            ...(signal ? { signal } : {}),
          }),
        ),
      )
    }
  }
  const { check, ...replayJudges } = judges
  return {
    judges,
    replayJudges: options.reposDir === undefined || check === undefined ? replayJudges : { ...replayJudges, check },
    repos,
    options,
    ...(docker !== undefined && images !== undefined
      ? { engine: { docker, images, noFuture: new NoFutureImages(docker, options.keepImages), limiter } }
      : {}),
  }
}

/** Fails the run up front, in one line, when evaluations are asked for and no engine answers. */
export async function assertEngineReachable(
  options: SwebenchOptions,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  if (!options.evaluate && options.mode === 'oneshot') return
  const reason = await engineUnavailable(connectEngine(env))
  if (reason === undefined) return
  if (options.mode !== 'oneshot')
    throw new Error(
      `SWE-bench: ${reason}. The agent works in the instance's container (TESTBENCH_SWEBENCH_MODE=${options.mode}), so it needs one.`,
    )
  throw new Error(
    `SWE-bench: ${reason}. To generate and check patches without evaluating them, set TESTBENCH_SWEBENCH_EVALUATE=0.`,
  )
}

export async function runItem(item: SwebenchItem, bench: ItemContext<SwebenchFacts>, run: SwebenchRun): Promise<void> {
  const { instance } = item
  // A replayed prediction was made elsewhere, from its own prompt: none is shown here, so nothing is read from a clone.
  const replayed = bench.model.provider === 'replay'
  const files = replayed ? [] : await contextFiles(instance, run.repos, run.options.context, run.options.contextChars)
  const reply = await bench.ask(swebenchPrompt(instance, files), { temperature: 0 })
  const judges = replayed ? run.replayJudges : run.judges
  // A replayed prediction is the patch itself; a reply holds one somewhere.
  const verdict =
    reply.form === 'solution'
      ? await judgePatch(instance, reply.text, judges, bench.signal)
      : await judgeReply(instance, reply.text, judges, bench.signal)
  bench.record({
    outcome: verdict.outcome,
    reason: verdict.reason,
    extracted: verdict.patch,
    output: describeVerdict(verdict),
    scoring: {
      status: verdict.status,
      dataset: run.options.datasetFile === undefined ? run.options.dataset : 'own file',
      repo: instance.repo,
      contextFiles: files.length,
      repairedHunks: verdict.repaired.length,
      ...(verdict.check ? { appliesCleanly: verdict.check.applies } : {}),
      ...(verdict.evaluation?.appliedWith ? { appliedWith: verdict.evaluation.appliedWith } : {}),
      ...(verdict.evaluation ? { evaluationMs: verdict.evaluation.wallMs } : {}),
    },
  })
  const allowed = verdict.status === 'generated' ? 'generated' : 'resolved'
  bench.expect(verdict.status, verdict.reason).toBe(allowed)
}

export function describeVerdict(verdict: ReplyVerdict): string {
  const lines = [verdict.reason]
  if (verdict.repaired.length > 0) lines.push(`Repaired hunk headers: ${verdict.repaired.join('; ')}`)
  if (verdict.evaluation?.log) lines.push('', lastLines(verdict.evaluation.log, 60))
  return lines.join('\n')
}

function lastLines(text: string, count: number): string {
  const lines = text.trimEnd().split('\n')
  return (lines.length > count ? ['…', ...lines.slice(-count)] : lines).join('\n')
}
