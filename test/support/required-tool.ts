import { accessSync, constants, existsSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import type { TaskMeta } from 'vitest'

/**
 * Tests that need an optional tool (bwrap, a container engine, a language's toolchain, Chromium,
 * Debian's Python libraries…) call `skipWithoutTool`: where the tool is missing the test is
 * skipped, naming the tool and how to install it, never failed and never run another way.
 * CI sets TESTBENCH_REQUIRE_TOOLS=1 (`.ci/run` does), where a missing tool fails the test
 * instead, so that a broken install step cannot hide behind skips.
 */
export const REQUIRE_TOOLS_VARIABLE = 'TESTBENCH_REQUIRE_TOOLS'

/** Something a test can need, and how a user gets it. */
export interface Tool {
  name: string
  /** How to install it, e.g. `apt-get install bubblewrap`. */
  install: string
}

/** The tools `.ci/run` installs, by what the tests call them. */
export const TOOLS = {
  bwrap: { name: 'bwrap', install: 'apt-get install bubblewrap (Linux only; elsewhere use SANDBOX=docker)' },
  prlimit: { name: 'prlimit', install: 'apt-get install util-linux' },
  containerEngine: {
    name: 'a container engine (Docker or podman through DOCKER_HOST)',
    install: 'apt-get install podman runc uidmap slirp4netns fuse-overlayfs, then source .ci/start-podman.sh',
  },
  dockerEngine: {
    name: 'a Docker Engine at TESTBENCH_DOCKER_ENGINE_HOST (besides the engine at DOCKER_HOST)',
    install: 'apt-get install docker.io, then source .ci/start-docker.sh',
  },
  java: { name: 'java and javac', install: 'apt-get install default-jdk-headless' },
  go: { name: 'go', install: 'apt-get install golang-go' },
  rustc: { name: 'rustc', install: 'apt-get install rustc, or https://rustup.rs' },
  clojure: { name: 'clojure', install: 'apt-get install clojure' },
  gcc: { name: 'gcc and g++', install: 'apt-get install gcc g++' },
  chromium: { name: 'chromium', install: 'apt-get install chromium' },
  debianPython: {
    name: "Debian's python3 with the BigCodeBench libraries",
    install: 'apt-get install python3 $(grep -v "^#" .ci/bigcodebench-packages.txt)',
  },
} as const satisfies Record<string, Tool>

/** The reason a test skips: the tool, what was looked for, and how to install it. */
export function missingToolReason(tool: Tool, detail?: string): string {
  return `needs ${tool.name}, which is missing${detail ? ` (${detail})` : ''}: install it with \`${tool.install}\``
}

declare module 'vitest' {
  interface TaskMeta {
    /** Why the test skipped, for reports that do not show a skip's note (Vitest's json reporter). */
    skipReason?: string
  }
}

/** The part of a Vitest test context this helper uses. */
export interface SkippableContext {
  skip(note?: string): never
  task?: { meta: TaskMeta }
}

/**
 * Skips the test when `missing` says why the tool cannot be used (undefined: it can).
 * With TESTBENCH_REQUIRE_TOOLS=1 it throws instead, so the test fails with the same words.
 */
export function skipWithoutTool(
  context: SkippableContext,
  tool: Tool,
  missing: string | boolean | undefined,
  env: NodeJS.ProcessEnv = process.env,
): void {
  if (missing === undefined || missing === false) return
  skipForMissing(
    context,
    missingToolReason(tool, typeof missing === 'string' ? missing : undefined),
    'a missing tool',
    env,
  )
}

/**
 * Skips the test for something else it needs and cannot have here (a dataset, a checkout other users can
 * enter): `reason` says what and how to get it, `what` names the kind. With TESTBENCH_REQUIRE_TOOLS=1 it
 * throws instead, as for a missing tool.
 */
export function skipForMissing(
  context: SkippableContext,
  reason: string,
  what: string,
  env: NodeJS.ProcessEnv = process.env,
): never {
  if (toolsRequired(env)) throw new Error(`${REQUIRE_TOOLS_VARIABLE}=1, so ${what} fails the test: it ${reason}.`)
  if (context.task) context.task.meta.skipReason = reason
  return context.skip(reason)
}

export function toolsRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[REQUIRE_TOOLS_VARIABLE] === '1'
}

/** The first executable called `command` on PATH, as a shell would find it; undefined when there is none. */
export function onPath(command: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const extensions = process.platform === 'win32' ? ['.exe', '.cmd', '.bat', ''] : ['']
  for (const directory of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const extension of extensions) {
      const candidate = join(directory, `${command}${extension}`)
      if (isExecutable(candidate)) return candidate
    }
  }
  return undefined
}

/** Says why `command` cannot be found, or undefined when it is on PATH. */
export function notOnPath(command: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return onPath(command, env) === undefined ? `${command} is not on PATH` : undefined
}

/** Says why the file is missing, or undefined when it is there. */
export function fileMissing(path: string): string | undefined {
  return existsSync(path) ? undefined : `${path} does not exist`
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}
