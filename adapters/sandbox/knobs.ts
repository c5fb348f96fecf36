import type { KnobGroup } from '../knob.ts'

/** The sandbox's environment knobs, declared next to the code that reads them. */
export const sandboxKnobs: KnobGroup = {
  title: 'sandbox',
  knobs: [
    { name: 'SANDBOX', kind: 'choice', default: 'process', accepted: 'process, docker or none', readme: '`process` (bwrap + prlimit, Linux), `docker` (Docker or podman through `DOCKER_HOST`; macOS, Windows), or `none`: programs run unsandboxed, under a banner, and the reports say so' },
    { name: 'TESTBENCH_SANDBOX_IMAGE', kind: 'text', default: 'localhost/testbench/sandbox:bookworm', accepted: 'a container image name', readme: 'image of the container tier; the default one is built from `adapters/sandbox/images/Dockerfile` when the engine lacks it' },
    { name: 'TESTBENCH_DOCKER_ENGINE_HOST', kind: 'text', default: '—', accepted: 'a DOCKER_HOST-style address', readme: "tests only: a second engine (a Docker Engine, where DOCKER_HOST is podman's) that the container tier's tests also run on; `.ci/start-docker.sh` exports it" },
    { name: 'TESTBENCH_SANDBOX_BASE_IMAGE', kind: 'text', default: 'debian:bookworm', accepted: 'a Debian bookworm image name', readme: 'what that build starts from (offline: an image you imported, as `.ci/start-podman.sh` does)' },
    { name: 'TESTBENCH_SANDBOX_CONCURRENCY', kind: 'integer', default: 'cores', accepted: 'a whole number ≥ 1', readme: 'programs running at once per test file' },
    { name: 'TESTBENCH_SANDBOX_TMPFS_MB', kind: 'integer', default: '128', accepted: 'a whole number ≥ 1', readme: "MiB of each of a program's `/tmp` (its work dir is in it) and `/dev/shm`, both memory: counted in its memory limit where the sandbox has a cgroup, on top of it otherwise" },
    { name: 'TESTBENCH_SANDBOX_ENV', kind: 'list', default: '—', accepted: 'comma-separated variable names', readme: 'extra variables passed to programs (names that look like secrets are refused)' },
    { name: 'TESTBENCH_PYTHON', kind: 'path', default: '/usr/bin/python3', accepted: 'a path to python3', readme: 'the interpreter that runs Python programs' },
    { name: 'TESTBENCH_PYTHON_WARM', kind: 'boolean', default: 'on', accepted: '1/on/true or 0/off/false', readme: 'a warm interpreter forks a fresh, limited child per program, for root and ordinary users alike; off starts one per program' },
    { name: 'TESTBENCH_EXEC_SERVER', kind: 'boolean', default: 'on', accepted: '1/on/true or 0/off/false', readme: 'compile steps and programs run on warm exec servers (one bwrap per worker, each step in namespaces, a tmpfs and limits of its own); off starts a bwrap per step' },
    { name: 'TESTBENCH_JAVA_WARM', kind: 'boolean', default: 'on', accepted: '1/on/true or 0/off/false', readme: 'Java compiles on a warm javac (in memory, inside bwrap, annotation processors off) instead of a fresh javac per program' },
    { name: 'TESTBENCH_PYTHON_PRELOAD', kind: 'list', default: '—', accepted: 'comma-separated module names', readme: 'modules the warm interpreter imports once, e.g. `numpy,pandas`' },
    { name: 'TESTBENCH_NODE', kind: 'path', default: '/usr/bin/node', accepted: 'a path to node', readme: 'the runtime of JavaScript programs' },
    { name: 'TESTBENCH_RUSTC', kind: 'path', default: 'rustc on PATH', accepted: 'a path to rustc', readme: 'the Rust compiler' },
    { name: 'TESTBENCH_CLOJURE_JAR', kind: 'path', default: '/usr/share/java/clojure.jar', accepted: 'a path to clojure.jar', readme: 'the Clojure jar' },
  ],
}
