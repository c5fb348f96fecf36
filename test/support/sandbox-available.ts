import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { hostProtections } from '../../adapters/sandbox/process/host-protections.ts'
import type { Language } from '../../adapters/sandbox/index.ts'
import { ProcessSandbox } from '../../adapters/sandbox/process/process-sandbox.ts'
import { skipWithoutTool, TOOLS, type SkippableContext, type Tool } from './required-tool.ts'

/**
 * Tests that run programs, in the process sandbox or through a suite run, skip where the sandbox
 * cannot isolate them: generated and hostile programs never run unsandboxed in a test.
 */

const LANGUAGE_TOOLS: Record<Language, Tool> = {
  python: { name: 'python3', install: 'apt-get install python3' },
  javascript: { name: 'node', install: 'https://nodejs.org' },
  java: TOOLS.java,
  rust: TOOLS.rustc,
  go: TOOLS.go,
  c: TOOLS.gcc,
  cpp: TOOLS.gcc,
  clojure: TOOLS.clojure,
}

const toolchains = new ProcessSandbox({ warmPython: false })

/** Why the process tier cannot isolate a program here (no working bwrap), or undefined. */
export function isolationMissing(): string | undefined {
  return hostProtections().bwrap === undefined
    ? 'bwrap is not at /usr/bin/bwrap, or cannot create namespaces here'
    : undefined
}

/** Skips the test unless the process sandbox isolates programs here and has every language's toolchain. */
export async function skipWithoutSandbox(
  context: SkippableContext,
  languages: readonly Language[] = ['python'],
): Promise<void> {
  skipWithoutTool(context, TOOLS.bwrap, isolationMissing())
  for (const language of languages)
    skipWithoutTool(context, LANGUAGE_TOOLS[language], await toolchains.unavailable(language))
}

/** The interpreter the sandbox runs Python with: TESTBENCH_PYTHON, else Debian's, else python3 on PATH. */
export function sandboxPython(env: NodeJS.ProcessEnv = process.env): string {
  return env.TESTBENCH_PYTHON || (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3')
}

/** Why the sandbox's Python cannot import `modules` (e.g. numpy), or undefined when it can. */
export function pythonModulesMissing(
  modules: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const python = sandboxPython(env)
  const probe = spawnSync(python, ['-c', `import ${modules.join(', ')}`], { encoding: 'utf8', timeout: 60_000 })
  if (probe.status === 0) return undefined
  const why = (probe.stderr || probe.error?.message || `exit status ${probe.status}`).trim().split('\n').at(-1)
  return `${python} cannot import ${modules.join(', ')}: ${why}`
}

/** Skips the test unless the sandbox's Python has Debian's libraries that the tasks import. */
export function skipWithoutPythonModules(context: SkippableContext, modules: readonly string[]): void {
  skipWithoutTool(context, TOOLS.debianPython, pythonModulesMissing(modules))
}
