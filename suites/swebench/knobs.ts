import type { KnobGroup } from '../../adapters/knob.ts'
import { swebenchOptions } from './options.ts'

export const swebenchKnobs: KnobGroup = {
  title: 'swebench',
  knobs: [
    { name: 'TESTBENCH_SWEBENCH_DATASET', kind: 'choice', default: 'lite', accepted: 'lite (300), verified (500) or full (2294)', readme: 'the dataset; the last two from the hub, pinned' },
    { name: 'TESTBENCH_SWEBENCH_DATASET_FILE', kind: 'path', default: '—', accepted: 'a `.json`, `.jsonl` or `.parquet` file in SWE-bench form', readme: 'your own instances instead of a dataset' },
    { name: 'TESTBENCH_SWEBENCH_SHA256', kind: 'text', default: 'the pinned file', accepted: 'a sha256 in hex', readme: 'pins a dataset file the project has not pinned' },
    { name: 'TESTBENCH_SWEBENCH_INSTANCES', kind: 'list', default: 'all', accepted: 'a comma list of instance ids', readme: 'which instances run' },
    { name: 'TESTBENCH_SWEBENCH_CONTEXT', kind: 'choice', default: 'oracle', accepted: 'oracle, oracle+dir or none', readme: 'which files the prompt carries' },
    { name: 'TESTBENCH_SWEBENCH_CONTEXT_CHARS', kind: 'integer', default: '120000', accepted: 'a whole number ≥ 1', readme: 'the most file text the prompt carries' },
    { name: 'TESTBENCH_SWEBENCH_REPOS_DIR', kind: 'path', default: '—', accepted: 'a directory of clones `<owner>__<name>`', readme: 'where files are read from without a network' },
    { name: 'TESTBENCH_SWEBENCH_EVALUATE', kind: 'boolean', default: 'on', accepted: '1/on/true or 0/off/false', readme: 'evaluate in containers; off generates patches only' },
    { name: 'TESTBENCH_SWEBENCH_TIMEOUT', kind: 'integer', default: '1800', accepted: 'seconds, ≥ 1', readme: "one instance's evaluation" },
    { name: 'TESTBENCH_SWEBENCH_CONCURRENCY', kind: 'integer', default: 'half the cores', accepted: 'a whole number ≥ 1', readme: 'evaluation containers at once' },
    { name: 'TESTBENCH_SWEBENCH_IMAGE_TEMPLATE', kind: 'text', default: 'docker.io/swebench/sweb.eval.x86_64.{id}:latest', accepted: 'an image name with `{id}`', readme: 'the evaluation image' },
    { name: 'TESTBENCH_SWEBENCH_NETWORK', kind: 'text', default: 'none (bridge for psf/requests)', accepted: 'a container network mode', readme: "the containers' network" },
    { name: 'TESTBENCH_SWEBENCH_KEEP_IMAGES', kind: 'boolean', default: 'off', accepted: '1/on/true or 0/off/false', readme: 'keep the evaluation images the run pulled' },
    { name: 'TESTBENCH_SWEBENCH_MODE', kind: 'choice', default: 'oneshot', accepted: 'oneshot, agent or agent-text', readme: "one reply with a diff, or mini-swe-agent's bash-only agent (tool calls, or fenced commands)" },
    { name: 'TESTBENCH_SWEBENCH_TOKEN_LIMIT', kind: 'integer', default: '1000000', accepted: 'a whole number ≥ 1', readme: "an agent's tokens per instance when TESTBENCH_PRICES has no price for the model" },
    { name: 'TESTBENCH_SWEBENCH_MEMORY', kind: 'integer', default: '0 (no limit)', accepted: 'megabytes, ≥ 0', readme: "each container's memory limit (an agent's container: 4096 MB when unset)" },
  ],
  check: (env) => swebenchOptions(env),
}
