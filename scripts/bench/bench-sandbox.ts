// npm run bench:sandbox: what the process sandbox costs over a bare spawn, per language.
// For each language, the same trivial programs (print a number) run these ways, interleaved program by program:
// - bare: the language's own compile and run commands, spawned directly in a temp dir in memory (/dev/shm, as the
//   sandbox's work dir is), no sandbox;
// - cold: a fresh runtime per program on the warm exec servers (each step in namespaces and a tmpfs of its own),
//   which is what users get for JavaScript, C, Go, and Python with TESTBENCH_PYTHON_WARM=off;
// - bwrap: a bwrap per step (TESTBENCH_EXEC_SERVER=off, and the fallback where exec servers cannot start);
// - warm: the language's warm path, where it has one (Python's fork server, Java's warm javac then the exec server),
//   which is what users get for those languages.
// Prints medians and min–max per program and the ratios to bare. Run it as root and as an ordinary user: the
// isolation differs (throwaway uids and cgroups, or a user namespace).
// - the container tier (SANDBOX=docker) on each engine of BENCH_CONTAINER_HOSTS (DOCKER_HOST-style addresses, comma-separated;
//   none by default), named by the engine that answers there: a container per program, files in and out through tar.
// BENCH_ROUNDS (default 3), BENCH_PROGRAMS (default 20 per round), BENCH_LANGUAGES (default python,javascript,c,java,go).
import { execa } from 'execa'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { removeOnInterrupt } from './support/interrupt-cleanup.ts'
import { sandboxEnvironment } from '../../adapters/sandbox/environment.ts'
import { HostToolchain } from '../../adapters/sandbox/process/host-toolchain.ts'
import { languageSpec, type Language } from '../../adapters/sandbox/languages.ts'
import { DEFAULT_COMPILE_LIMITS, DEFAULT_RUN_LIMITS } from '../../adapters/sandbox/limits.ts'
import { ProcessSandbox } from '../../adapters/sandbox/process/process-sandbox.ts'
import { DockerSandbox } from '../../adapters/sandbox/container/docker-sandbox.ts'
import type { Sandbox } from '../../adapters/sandbox/sandbox.ts'
import { refuseArguments } from '../script-usage.ts'

const USAGE = `usage: npm run bench:sandbox
What the process sandbox costs over a bare spawn, per language. Environment: BENCH_ROUNDS (default 3),
BENCH_PROGRAMS (default 20), BENCH_LANGUAGES (default python,javascript,c,java,go), BENCH_CONTAINER_HOSTS.`
refuseArguments(USAGE)

const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
const count = Number(process.env.BENCH_PROGRAMS ?? 20)
const languages = (process.env.BENCH_LANGUAGES ?? 'python,javascript,c,java,go').split(',') as Language[]

const SOURCES: Partial<Record<Language, (n: number) => string>> = {
  python: (n) => `print(${n} * 2)\n`,
  javascript: (n) => `console.log(${n} * 2)\n`,
  c: (n) => `#include <stdio.h>\nint main(void) { printf("%d\\n", ${n} * 2); return 0; }\n`,
  cpp: (n) => `#include <iostream>\nint main() { std::cout << ${n} * 2 << std::endl; }\n`,
  java: (n) => `public class Main { public static void main(String[] args) { System.out.println(${n} * 2); } }\n`,
  go: (n) => `package main\nimport "fmt"\nfunc main() { fmt.Println(${n} * 2) }\n`,
}
/** The languages whose runtime the sandbox keeps warm. */
const WARM: readonly Language[] = ['python', 'java']

const toolchain = new HostToolchain()
// In memory, as the sandbox's work dir and /tmp are (a tmpfs each): the host's /tmp may be a disk.
const dir = removeOnInterrupt(
  mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'testbench-bench-sandbox-')),
)
const cold = new ProcessSandbox({ warmPython: false, warmJava: false, warmExec: true })
const sandboxes: Record<string, Sandbox> = {
  cold,
  bwrap: new ProcessSandbox({ warmPython: false, warmJava: false, warmExec: false }),
  warm: new ProcessSandbox({ warmPython: true, warmJava: true, warmExec: true }),
}
const containerWays: string[] = []
for (const host of (process.env.BENCH_CONTAINER_HOSTS ?? '').split(',').filter((host) => host !== '')) {
  const container = new DockerSandbox({ host })
  const unreachable = await container.unreachable()
  if (unreachable !== undefined) throw new Error(`BENCH_CONTAINER_HOSTS: ${unreachable}`)
  const way = (await container.engine()).startsWith('podman') ? 'podman' : 'docker-engine'
  sandboxes[way] = container
  containerWays.push(way)
  console.log(`${way}: ${container.description()} at ${host}`)
}

function expectOutput(what: string, n: number, stdout: string): void {
  if (stdout.trim() !== String(n * 2))
    throw new Error(`${what}: program ${n} printed ${JSON.stringify(stdout.slice(0, 200))}, not ${n * 2}.`)
}

type Way = string

async function runOnce(language: Language, way: Way, n: number): Promise<void> {
  const spec = languageSpec(language)
  const source = SOURCES[language]?.(n) ?? ''
  const sandbox = sandboxes[way]
  if (sandbox !== undefined) {
    const result = await sandbox.run({ language, files: { [spec.main]: source } })
    expectOutput(`${language} ${way}`, n, result.stdout.text)
    return
  }
  const found = toolchain.toolchain(spec.tools)
  if ('missing' in found) throw new Error(found.missing)
  const work = join(dir, `${language}-${n}-${Math.random().toString(36).slice(2)}`)
  mkdirSync(work)
  writeFileSync(join(work, spec.main), source)
  // The environment the sandbox gives its programs, so that both sides start the same runtime the same way.
  const env = { ...sandboxEnvironment(work, spec.env?.(work)), TMPDIR: work }
  // Go's build cache starts empty in every sandboxed compile (a shared one would carry one run's files to the next): here too.
  if (language === 'go') Object.assign(env, { GOCACHE: join(work, 'go-build'), GOPATH: join(work, 'go') })
  if (spec.compile !== undefined) {
    const [compiler, ...flags] = spec.compile(found.tools, spec.main, [spec.main], DEFAULT_COMPILE_LIMITS)
    await execa(compiler ?? '', flags, { cwd: work, env, extendEnv: false })
  }
  const [file, ...args] = spec.run(found.tools, spec.main, DEFAULT_RUN_LIMITS)
  expectOutput(`${language} bare`, n, (await execa(file ?? '', args, { cwd: work, env, extendEnv: false })).stdout)
  rmSync(work, { recursive: true, force: true })
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? (sorted[middle] ?? NaN) : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2
}

try {
  console.log(
    `${count} trivial programs per language and round, ${rounds} rounds, ways interleaved; as ${process.getuid?.() === 0 ? 'root' : 'an ordinary user'}, load ${loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')}\n`,
  )
  for (const language of languages) {
    if (SOURCES[language] === undefined) throw new Error(`No benchmark program for ${language}.`)
    const missing = await cold.unavailable(language)
    if (missing !== undefined) {
      console.log(`${language}: left out (${missing})\n`)
      continue
    }
    const ways: Way[] = [
      ...(WARM.includes(language) ? ['bare', 'cold', 'bwrap', 'warm'] : ['bare', 'cold', 'bwrap']),
      ...containerWays,
    ]
    // Disk cache, the sandbox's one-time probes and the warm servers' start-up are not what is measured.
    for (const way of ways) await runOnce(language, way, 0)
    const perProgram = new Map<Way, number[]>()
    for (let round = 0; round < rounds; round++) {
      for (let n = 1; n <= count; n++) {
        // Program by program, each way in turn, a different one first each time.
        for (let k = 0; k < ways.length; k++) {
          const way = ways[(k + n + round) % ways.length] as Way
          const started = performance.now()
          await runOnce(language, way, n)
          perProgram.set(way, [...(perProgram.get(way) ?? []), performance.now() - started])
        }
      }
    }
    const bare = median(perProgram.get('bare') ?? [])
    for (const way of ways) {
      const values = perProgram.get(way) ?? []
      const ratio = way === 'bare' ? '' : `  ${(median(values) / bare).toFixed(2)}× bare`
      const range = `${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)}`
      const perProgramMs = median(values).toFixed(1).padStart(8)
      console.log(`${language.padEnd(11)} ${way.padEnd(13)} ${perProgramMs} ms/program  (${range})${ratio}`)
    }
    console.log()
  }
  console.log(
    `load afterwards ${loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')}`,
  )
} finally {
  for (const sandbox of Object.values(sandboxes)) await sandbox.close()
  rmSync(dir, { recursive: true, force: true })
}
