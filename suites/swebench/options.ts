/** The SWE-bench suite's options, from its knobs (knobs.ts, where each knob and its default is declared). */
import { availableParallelism } from 'node:os'
import {
  CONCURRENCY,
  CONTEXT,
  CONTEXT_CHARS,
  DATASET,
  DATASET_FILE,
  EVALUATE,
  IMAGE_TEMPLATE,
  INSTANCES,
  KEEP_IMAGES,
  MEMORY,
  MODE,
  NETWORK,
  REPOS_DIR,
  swebenchRules,
  TIMEOUT,
  TOKEN_LIMIT,
  type ContextMode,
  type SwebenchDataset,
  type SwebenchMode,
} from './knobs.ts'

export { CONTEXTS, DATASETS, MODES, type ContextMode, type SwebenchDataset, type SwebenchMode } from './knobs.ts'

export const DEFAULT_IMAGE_TEMPLATE = IMAGE_TEMPLATE.defaultValue

/** What the knobs give, in the units the code uses; what each knob means and its default are in knobs.ts. */
export interface SwebenchOptions {
  dataset: SwebenchDataset
  /** A local SWE-bench JSON/JSONL/parquet file instead of a dataset. */
  datasetFile: string | undefined
  /** The instance ids to run; undefined runs all. */
  instances: string[] | undefined
  context: ContextMode
  /** The most file text the prompt carries. */
  contextChars: number
  /** Git clones to read files from (`<dir>/<owner>__<name>`), when there is no network. */
  reposDir: string | undefined
  /** False generates and checks patches without containers. */
  evaluate: boolean
  /** One instance's evaluation in its container. */
  timeoutMs: number
  /** Evaluation containers at once. */
  concurrency: number
  /** The evaluation image, `{id}` being the instance id as SWE-bench's images spell it. */
  imageTemplate: string
  /** The containers' network mode for every repository; undefined: knobs.ts's NETWORK says what each repository gets. */
  network: string | undefined
  /** Keep the evaluation images this run pulled, or remove each after its instance, as the official harness does. */
  keepImages: boolean
  /** Each container's memory limit; 0 is none. */
  memoryBytes: number
  mode: SwebenchMode
  /** An agent's tokens per instance, for models TESTBENCH_PRICES gives no price. */
  tokenLimit: number
}

export function swebenchOptions(env: NodeJS.ProcessEnv = process.env): SwebenchOptions {
  swebenchRules(env)
  return {
    dataset: swebenchDataset(env),
    datasetFile: DATASET_FILE.read(env),
    instances: INSTANCES.read(env)?.slice(),
    context: CONTEXT.read(env),
    contextChars: CONTEXT_CHARS.read(env),
    reposDir: REPOS_DIR.read(env),
    evaluate: EVALUATE.read(env),
    timeoutMs: TIMEOUT.read(env) * 1000,
    concurrency: CONCURRENCY.read(env) ?? Math.max(1, Math.floor(availableParallelism() / 2)),
    imageTemplate: IMAGE_TEMPLATE.read(env),
    network: NETWORK.read(env),
    keepImages: KEEP_IMAGES.read(env),
    memoryBytes: MEMORY.read(env) * 1024 * 1024,
    mode: MODE.read(env),
    tokenLimit: TOKEN_LIMIT.read(env),
  }
}

export function swebenchDataset(env: NodeJS.ProcessEnv = process.env): SwebenchDataset {
  return DATASET.read(env)
}
