import { execFileSync } from 'node:child_process'
import { accessSync, constants, existsSync, realpathSync } from 'node:fs'
import { homedir } from 'node:os'
import { delimiter, dirname, join } from 'node:path'
import type { Knob } from '../../knob.ts'
import { CLOJURE_JAR, NODE, PYTHON, RUSTC } from '../knobs.ts'
import type { Tool, Toolchain } from '../languages.ts'

export type Resolved = { path: string } | { missing: string }

/** Where the process tier finds each tool on this host. Env vars override; results are cached. */
export class HostToolchain {
  readonly #env: NodeJS.ProcessEnv
  readonly #cache = new Map<Tool, Resolved>()

  constructor(env: NodeJS.ProcessEnv = process.env) {
    this.#env = env
  }

  resolve(tool: Tool): Resolved {
    let found = this.#cache.get(tool)
    if (found === undefined) {
      found = this.#find(tool)
      this.#cache.set(tool, found)
    }
    return found
  }

  /** The tools `needed` as a Toolchain, or the first reason one of them is missing. */
  toolchain(needed: readonly Tool[]): { tools: Toolchain } | { missing: string } {
    const tools: Partial<Record<Tool, string>> = {}
    for (const tool of needed) {
      const found = this.resolve(tool)
      if ('missing' in found) return found
      tools[tool] = found.path
    }
    // Tools a language does not need stay empty; its commands never read them.
    return { tools: { ...EMPTY_TOOLCHAIN, ...tools } }
  }

  #find(tool: Tool): Resolved {
    const env = this.#env
    switch (tool) {
      case 'python':
        return given(env, PYTHON) ?? existing(PYTHON.defaultValue) ?? onPath('python3', env, PYTHON.name)
      case 'node':
        return given(env, NODE) ?? existing(NODE.defaultValue) ?? { path: process.execPath }
      case 'java':
      case 'javac':
      case 'go':
      case 'gcc':
        return onPath(tool, env, 'PATH')
      case 'gxx':
        return onPath('g++', env, 'PATH')
      case 'rustc':
        return given(env, RUSTC) ?? realRustc(env)
      case 'clojureJar':
        return (
          given(env, CLOJURE_JAR) ??
          existing(CLOJURE_JAR.defaultValue) ?? {
            missing: `the Clojure jar is not at ${CLOJURE_JAR.defaultValue} (apt-get install clojure, or set ${CLOJURE_JAR.name})`,
          }
        )
    }
  }
}

const EMPTY_TOOLCHAIN: Toolchain = {
  python: '',
  node: '',
  java: '',
  javac: '',
  rustc: '',
  go: '',
  gcc: '',
  gxx: '',
  clojureJar: '',
}

function given(env: NodeJS.ProcessEnv, knob: Knob<string | undefined>): Resolved | undefined {
  const value = knob.raw(env)
  if (value === undefined) return undefined
  return existsSync(value) ? { path: value } : { missing: `${knob.name} is ${value}, which does not exist` }
}

function existing(path: string): Resolved | undefined {
  return existsSync(path) ? { path } : undefined
}

function onPath(name: string, env: NodeJS.ProcessEnv, hint: string): Resolved {
  const dirs = [...(env['PATH'] ?? '').split(delimiter), join(homedir(), '.cargo', 'bin')]
  for (const dir of dirs) {
    if (dir === '') continue
    const path = join(dir, name)
    try {
      accessSync(path, constants.X_OK)
      return { path }
    } catch {
      // not in this directory
    }
  }
  return { missing: `${name} is not on PATH (install it, or fix ${hint})` }
}

/** `rustc` on PATH is usually rustup's proxy, which needs ~/.rustup; the sandbox calls the toolchain's own binary. */
function realRustc(env: NodeJS.ProcessEnv): Resolved {
  const proxy = onPath('rustc', env, 'TESTBENCH_RUSTC')
  if ('missing' in proxy) return proxy
  try {
    const sysroot = execFileSync(proxy.path, ['--print', 'sysroot'], { encoding: 'utf8', timeout: 30_000 }).trim()
    return existing(join(sysroot, 'bin', 'rustc')) ?? proxy
  } catch (error) {
    return {
      missing: `${proxy.path} --print sysroot failed (${(error as Error).message.split('\n')[0]}); set TESTBENCH_RUSTC`,
    }
  }
}

/** The directory to expose for a tool at `path`: its install prefix (`…/bin/tool` → `…`), or the file itself. */
export function installPrefix(path: string): string {
  const real = realpathSync(path)
  const dir = dirname(real)
  return dir.endsWith('/bin') ? dirname(dir) : real
}
