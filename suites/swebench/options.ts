/** The knobs of the SWE-bench suite (`TESTBENCH_SWEBENCH_*`), read in one place. */
import { availableParallelism } from 'node:os'
import { nonNegativeInteger, positiveInteger, readBoolean } from '../../adapters/knob.ts'

export const DATASETS = ['lite', 'verified', 'full'] as const
export type SwebenchDataset = (typeof DATASETS)[number]

export const CONTEXTS = ['oracle', 'oracle+dir', 'none'] as const
export type ContextMode = (typeof CONTEXTS)[number]

/** One reply with a diff (the paper's oracle retrieval), or mini-swe-agent's bash-only agent with tool calls or fenced commands. */
export const MODES = ['oneshot', 'agent', 'agent-text'] as const
export type SwebenchMode = (typeof MODES)[number]

export interface SwebenchOptions {
  /** TESTBENCH_SWEBENCH_DATASET: `lite` (default, 300), `verified` (500) or `full` (2294). */
  dataset: SwebenchDataset
  /** TESTBENCH_SWEBENCH_DATASET_FILE: a local SWE-bench JSON/JSONL/parquet file instead of a dataset. */
  datasetFile: string | undefined
  /** TESTBENCH_SWEBENCH_INSTANCES: a comma list of instance ids to run (default all). */
  instances: string[] | undefined
  /** TESTBENCH_SWEBENCH_CONTEXT: `oracle` (default: the files the gold patch touches), `oracle+dir` (and their neighbours), `none`. */
  context: ContextMode
  /** TESTBENCH_SWEBENCH_CONTEXT_CHARS, default 120000: the most file text the prompt carries. */
  contextChars: number
  /** TESTBENCH_SWEBENCH_REPOS_DIR: git clones to read files from (`<dir>/<owner>__<name>`), when there is no network. */
  reposDir: string | undefined
  /** TESTBENCH_SWEBENCH_EVALUATE, default 1; 0 generates and checks patches without containers. */
  evaluate: boolean
  /** TESTBENCH_SWEBENCH_TIMEOUT seconds, default 1800: one instance's evaluation in its container. */
  timeoutMs: number
  /** TESTBENCH_SWEBENCH_CONCURRENCY, default half the cores (at least 1): evaluation containers at once. */
  concurrency: number
  /** TESTBENCH_SWEBENCH_IMAGE_TEMPLATE: the evaluation image, `{id}` being the instance id as SWE-bench's images spell it. */
  imageTemplate: string
  /**
   * TESTBENCH_SWEBENCH_NETWORK: the containers' network mode for every repository. Unset: `none`,
   * except for repositories whose tests need a network (psf/requests: `bridge`, the engine's
   * default, which the official harness gives every container).
   */
  network: string | undefined
  /** TESTBENCH_SWEBENCH_KEEP_IMAGES, default 0: keep the evaluation images this run pulled (1), or remove each after its instance, as the official harness does. */
  keepImages: boolean
  /** TESTBENCH_SWEBENCH_MEMORY megabytes, default 0 (no limit): each container's memory limit. */
  memoryBytes: number
  /** TESTBENCH_SWEBENCH_MODE: `oneshot` (default), `agent` (mini-swe-agent's bash tool) or `agent-text` (its fenced commands). */
  mode: SwebenchMode
  /** TESTBENCH_SWEBENCH_TOKEN_LIMIT, default 1000000: an agent's tokens per instance, for models TESTBENCH_PRICES gives no price. */
  tokenLimit: number
}

export const DEFAULT_IMAGE_TEMPLATE = 'docker.io/swebench/sweb.eval.x86_64.{id}:latest'

export function swebenchOptions(env: NodeJS.ProcessEnv = process.env): SwebenchOptions {
  const datasetFile = nonEmpty(env.TESTBENCH_SWEBENCH_DATASET_FILE)
  if (datasetFile !== undefined && nonEmpty(env.TESTBENCH_SWEBENCH_DATASET) !== undefined) {
    throw new Error(
      `TESTBENCH_SWEBENCH_DATASET=${env.TESTBENCH_SWEBENCH_DATASET} and TESTBENCH_SWEBENCH_DATASET_FILE=${datasetFile} are both set: ` +
        `set one (the dataset to download, or your own file).`,
    )
  }
  return {
    dataset: swebenchDataset(env),
    datasetFile,
    instances: nonEmpty(env.TESTBENCH_SWEBENCH_INSTANCES)
      ?.split(',')
      .map((id) => id.trim())
      .filter((id) => id !== ''),
    context: contextMode(env.TESTBENCH_SWEBENCH_CONTEXT),
    contextChars: positiveInteger(env, 'TESTBENCH_SWEBENCH_CONTEXT_CHARS', 120_000),
    reposDir: nonEmpty(env.TESTBENCH_SWEBENCH_REPOS_DIR),
    evaluate: readBoolean(env, 'TESTBENCH_SWEBENCH_EVALUATE', true),
    timeoutMs: positiveInteger(env, 'TESTBENCH_SWEBENCH_TIMEOUT', 1800) * 1000,
    concurrency: positiveInteger(env, 'TESTBENCH_SWEBENCH_CONCURRENCY', Math.max(1, Math.floor(availableParallelism() / 2))),
    imageTemplate: imageTemplate(env.TESTBENCH_SWEBENCH_IMAGE_TEMPLATE),
    network: nonEmpty(env.TESTBENCH_SWEBENCH_NETWORK),
    keepImages: readBoolean(env, 'TESTBENCH_SWEBENCH_KEEP_IMAGES', false),
    memoryBytes: nonNegativeInteger(env, 'TESTBENCH_SWEBENCH_MEMORY', 0) * 1024 * 1024,
    mode: swebenchMode(env.TESTBENCH_SWEBENCH_MODE),
    tokenLimit: positiveInteger(env, 'TESTBENCH_SWEBENCH_TOKEN_LIMIT', 1_000_000),
  }
}

export function swebenchDataset(env: NodeJS.ProcessEnv = process.env): SwebenchDataset {
  const value = env.TESTBENCH_SWEBENCH_DATASET
  const name = (value ?? '').trim().toLowerCase()
  if (name === '') return 'lite'
  const known = DATASETS.find((dataset) => dataset === name)
  if (known === undefined) {
    throw new Error(`TESTBENCH_SWEBENCH_DATASET=${value} is not understood: use lite (300 instances, the default), verified (500) or full (2294).`)
  }
  return known
}

function contextMode(value: string | undefined): ContextMode {
  const mode = (value ?? '').trim().toLowerCase()
  if (mode === '') return 'oracle'
  const known = CONTEXTS.find((context) => context === mode)
  if (known === undefined) throw new Error(`TESTBENCH_SWEBENCH_CONTEXT=${value} is not understood: use ${CONTEXTS.join(', ')}.`)
  return known
}

function swebenchMode(value: string | undefined): SwebenchMode {
  const mode = (value ?? '').trim().toLowerCase()
  if (mode === '') return 'oneshot'
  const known = MODES.find((candidate) => candidate === mode)
  if (known === undefined) throw new Error(`TESTBENCH_SWEBENCH_MODE=${value} is not understood: use oneshot (one reply with a diff), agent (mini-swe-agent's bash tool) or agent-text (its fenced commands, for models without tool calls).`)
  return known
}

function imageTemplate(value: string | undefined): string {
  const template = nonEmpty(value) ?? DEFAULT_IMAGE_TEMPLATE
  if (!template.includes('{id}')) throw new Error(`TESTBENCH_SWEBENCH_IMAGE_TEMPLATE=${value} has no {id}: write where the instance id goes, e.g. ${DEFAULT_IMAGE_TEMPLATE}.`)
  return template
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim()
}
