import { booleanKnob, choiceKnob, listKnob, pathKnob, textKnob, wholeNumberKnob, type KnobGroup } from '../knob.ts'

/** The sandbox's environment knobs, declared next to the code that reads them. */

export const TIERS = ['process', 'docker', 'none'] as const
export type TierName = (typeof TIERS)[number]

export const SANDBOX = choiceKnob({
  name: 'SANDBOX',
  choices: TIERS,
  default: 'process',
  readme:
    '`process` (bwrap + prlimit, Linux), `docker` (Docker or podman through `DOCKER_HOST`; macOS, Windows), or `none`: programs run unsandboxed, under a banner, and the reports say so',
})
export const SANDBOX_IMAGE = textKnob({
  name: 'TESTBENCH_SANDBOX_IMAGE',
  default: 'localhost/testbench/sandbox:bookworm',
  accepted: 'a container image name',
  readme:
    'image of the container tier; the default one is built from `adapters/sandbox/container/images/Dockerfile` when the engine lacks it',
})
/** Read by the tests only, through process.env: declared so that the settings check knows the name. */
export const DOCKER_ENGINE_HOST = textKnob({
  name: 'TESTBENCH_DOCKER_ENGINE_HOST',
  defaultText: '—',
  accepted: 'a DOCKER_HOST-style address',
  readme:
    "tests only: a second engine (a Docker Engine, where DOCKER_HOST is podman's) that the container tier's tests also run on; `.ci/start-docker.sh` exports it",
})
export const SANDBOX_BASE_IMAGE = textKnob({
  name: 'TESTBENCH_SANDBOX_BASE_IMAGE',
  default: 'debian:bookworm',
  accepted: 'a Debian bookworm image name',
  readme: 'what that build starts from (offline: an image you imported, as `.ci/start-podman.sh` does)',
})
export const SANDBOX_CONCURRENCY = wholeNumberKnob({
  name: 'TESTBENCH_SANDBOX_CONCURRENCY',
  min: 1,
  defaultText: 'cores',
  readme: 'programs running at once per test file',
})
export const SANDBOX_TMPFS_MB = wholeNumberKnob({
  name: 'TESTBENCH_SANDBOX_TMPFS_MB',
  default: 128,
  min: 1,
  readme:
    "MiB of each of a program's `/tmp` (its work dir is in it) and `/dev/shm`, both memory: counted in its memory limit where the sandbox has a cgroup, on top of it otherwise",
})
export const SANDBOX_ENV = listKnob({
  name: 'TESTBENCH_SANDBOX_ENV',
  default: [],
  defaultText: '—',
  accepted: 'comma-separated variable names',
  readme: 'extra variables passed to programs (names that look like secrets are refused)',
})
export const PYTHON = pathKnob({
  name: 'TESTBENCH_PYTHON',
  default: '/usr/bin/python3',
  accepted: 'a path to python3',
  readme: 'the interpreter that runs Python programs',
})
export const PYTHON_WARM = booleanKnob({
  name: 'TESTBENCH_PYTHON_WARM',
  default: true,
  readme:
    'a warm interpreter forks a fresh, limited child per program, for root and ordinary users alike; off starts one per program',
})
export const EXEC_SERVER = booleanKnob({
  name: 'TESTBENCH_EXEC_SERVER',
  default: true,
  readme:
    'compile steps and programs run on warm exec servers (one bwrap per worker, each step in namespaces, a tmpfs and limits of its own); off starts a bwrap per step',
})
export const JAVA_WARM = booleanKnob({
  name: 'TESTBENCH_JAVA_WARM',
  default: true,
  readme:
    'Java compiles on a warm javac (in memory, inside bwrap, annotation processors off) instead of a fresh javac per program',
})
export const PYTHON_PRELOAD = listKnob({
  name: 'TESTBENCH_PYTHON_PRELOAD',
  default: [],
  defaultText: '—',
  accepted: 'comma-separated module names',
  readme: 'modules the warm interpreter imports once, e.g. `numpy,pandas`',
})
export const NODE = pathKnob({
  name: 'TESTBENCH_NODE',
  default: '/usr/bin/node',
  accepted: 'a path to node',
  readme: 'the runtime of JavaScript programs',
})
export const RUSTC = pathKnob({
  name: 'TESTBENCH_RUSTC',
  defaultText: 'rustc on PATH',
  accepted: 'a path to rustc',
  readme: 'the Rust compiler',
})
export const CLOJURE_JAR = pathKnob({
  name: 'TESTBENCH_CLOJURE_JAR',
  default: '/usr/share/java/clojure.jar',
  accepted: 'a path to clojure.jar',
  readme: 'the Clojure jar',
})

export const sandboxKnobs: KnobGroup = {
  title: 'sandbox',
  knobs: [
    SANDBOX,
    SANDBOX_IMAGE,
    DOCKER_ENGINE_HOST,
    SANDBOX_BASE_IMAGE,
    SANDBOX_CONCURRENCY,
    SANDBOX_TMPFS_MB,
    SANDBOX_ENV,
    PYTHON,
    PYTHON_WARM,
    EXEC_SERVER,
    JAVA_WARM,
    PYTHON_PRELOAD,
    NODE,
    RUSTC,
    CLOJURE_JAR,
  ],
}
