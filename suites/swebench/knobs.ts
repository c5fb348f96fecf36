import {
  booleanKnob,
  choiceKnob,
  listKnob,
  pathKnob,
  textKnob,
  wholeNumberKnob,
  type KnobGroup,
} from '../../adapters/knob.ts'

export const DATASETS = ['lite', 'verified', 'full'] as const
export type SwebenchDataset = (typeof DATASETS)[number]

export const CONTEXTS = ['oracle', 'oracle+dir', 'none'] as const
/** `oracle`: the files the gold patch touches; `oracle+dir`: and their neighbours; `none`. */
export type ContextMode = (typeof CONTEXTS)[number]

export const DATASET = choiceKnob({
  name: 'TESTBENCH_SWEBENCH_DATASET',
  choices: DATASETS,
  default: 'lite',
  accepted: 'lite (300), verified (500) or full (2294)',
  readme: 'the dataset; the last two from the hub, pinned',
})
export const DATASET_FILE = pathKnob({
  name: 'TESTBENCH_SWEBENCH_DATASET_FILE',
  accepted: 'a `.json`, `.jsonl` or `.parquet` file in SWE-bench form',
  readme: 'your own instances instead of a dataset',
})
export const SHA256 = textKnob({
  name: 'TESTBENCH_SWEBENCH_SHA256',
  defaultText: 'the pinned file',
  accepted: 'a sha256 in hex',
  readme: 'pins a dataset file the project has not pinned',
})
export const INSTANCES = listKnob({
  name: 'TESTBENCH_SWEBENCH_INSTANCES',
  defaultText: 'all',
  accepted: 'a comma list of instance ids',
  readme: 'which instances run',
})
export const CONTEXT = choiceKnob({
  name: 'TESTBENCH_SWEBENCH_CONTEXT',
  choices: CONTEXTS,
  default: 'oracle',
  readme: 'which files the prompt carries',
})
export const CONTEXT_CHARS = wholeNumberKnob({
  name: 'TESTBENCH_SWEBENCH_CONTEXT_CHARS',
  default: 120_000,
  min: 1,
  readme: 'the most file text the prompt carries',
})
export const REPOS_DIR = pathKnob({
  name: 'TESTBENCH_SWEBENCH_REPOS_DIR',
  accepted: 'a directory of clones `<owner>__<name>`',
  readme: 'where files are read from without a network',
})
export const EVALUATE = booleanKnob({
  name: 'TESTBENCH_SWEBENCH_EVALUATE',
  default: true,
  readme: 'evaluate in containers; off generates patches only',
})
export const TIMEOUT = wholeNumberKnob({
  name: 'TESTBENCH_SWEBENCH_TIMEOUT',
  default: 1800,
  min: 1,
  unit: 'seconds',
  readme: "one instance's evaluation",
})
export const CONCURRENCY = wholeNumberKnob({
  name: 'TESTBENCH_SWEBENCH_CONCURRENCY',
  min: 1,
  defaultText: 'half the cores',
  readme: 'evaluation containers at once',
})
export const IMAGE_TEMPLATE = textKnob({
  name: 'TESTBENCH_SWEBENCH_IMAGE_TEMPLATE',
  default: 'docker.io/swebench/sweb.eval.x86_64.{id}:latest',
  pattern: /\{id\}/,
  accepted: 'an image name with `{id}` where the instance id goes',
  readme: 'the evaluation image',
})
/** Unset: `none`, except for repositories whose tests need a network (psf/requests: `bridge`, which the official harness gives every container). */
export const NETWORK = textKnob({
  name: 'TESTBENCH_SWEBENCH_NETWORK',
  defaultText: 'none (bridge for psf/requests)',
  accepted: 'a container network mode',
  readme: "the containers' network",
})
export const KEEP_IMAGES = booleanKnob({
  name: 'TESTBENCH_SWEBENCH_KEEP_IMAGES',
  default: false,
  readme: 'keep the evaluation images the run pulled, and the agents’ images made without their repository’s future',
})
export const MEMORY = wholeNumberKnob({
  name: 'TESTBENCH_SWEBENCH_MEMORY',
  default: 0,
  defaultText: '0 (no limit)',
  unit: 'megabytes',
  readme: "each container's memory limit (an agent's container: 4096 MB when unset)",
})

/** One reply with a diff (the paper's oracle retrieval), or mini-swe-agent's bash-only agent with tool calls or fenced commands. */
export const MODES = ['oneshot', 'agent', 'agent-text'] as const
export type SwebenchMode = (typeof MODES)[number]

export const MODE = choiceKnob({
  name: 'TESTBENCH_SWEBENCH_MODE',
  choices: MODES,
  default: 'oneshot',
  readme: "one reply with a diff, or mini-swe-agent's bash-only agent (tool calls, or fenced commands)",
})
export const TOKEN_LIMIT = wholeNumberKnob({
  name: 'TESTBENCH_SWEBENCH_TOKEN_LIMIT',
  default: 1_000_000,
  min: 1,
  readme: "an agent's tokens per instance when TESTBENCH_PRICES has no price for the model",
})

export const swebenchKnobs: KnobGroup = {
  title: 'swebench',
  knobs: [
    DATASET,
    DATASET_FILE,
    SHA256,
    INSTANCES,
    CONTEXT,
    CONTEXT_CHARS,
    REPOS_DIR,
    EVALUATE,
    TIMEOUT,
    CONCURRENCY,
    IMAGE_TEMPLATE,
    NETWORK,
    KEEP_IMAGES,
    MEMORY,
    MODE,
    TOKEN_LIMIT,
  ],
  check: swebenchRules,
}

/** The rule across the knobs: a dataset to download and a file of one's own are two answers to one question. */
export function swebenchRules(env: NodeJS.ProcessEnv): void {
  const file = DATASET_FILE.read(env)
  if (file !== undefined && DATASET.raw(env) !== undefined) {
    throw new Error(
      `${DATASET.name}=${DATASET.raw(env)} and ${DATASET_FILE.name}=${file} are both set: set one (the dataset to download, or your own file).`,
    )
  }
}
