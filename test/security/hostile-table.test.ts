/**
 * The hostile table, replayed through PE-Bench as a model's replies (`MODEL=replay:<file>`), as root and
 * as an ordinary user: every hostile program ends neither passed nor infra_error, every control passes,
 * and the host is unharmed (no file, process, connection or mount of this run left behind, the canary
 * intact, no control sequence on the terminal).
 */
import { spawnSync } from 'node:child_process'
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { DEFAULT_TMPFS_MIB } from '../../adapters/sandbox/limits.ts'
import type { ItemRecord } from '../../harness/records/item-record.ts'
import { reportDir } from '../../harness/knobs.ts'
import { skipWithoutSandbox } from '../support/sandbox-available.ts'
import { CONTROLS, fill, HOSTILE_PROGRAMS, type HostileLanguage, type HostileSlots } from './hostile-programs.ts'
import { cannotRunHere, runEulerAs, UNPRIVILEGED, type User } from './run-suite-as.ts'
import { CONTAINER_ENGINES, engineMissing, type ContainerEngine } from '../support/container-engines.ts'
import { skipForMissing, skipWithoutTool } from '../support/required-tool.ts'
import { leftoverToken, processesWith } from '../support/host-processes.ts'

const FIXTURE_DATASETS = fileURLToPath(new URL('../../fixtures/euler/datasets', import.meta.url))
const FIXTURE_SOLUTIONS = join(FIXTURE_DATASETS, 'euler', 'solutions.json')
const FIXTURE_SOLUTIONS_SHA256 = 'b3aeedb669617655a526e325a303cff999c6d8304aaa762ac47953ecb511d57f'
const LANGUAGES: readonly HostileLanguage[] = ['python', 'javascript', 'c', 'rust', 'java', 'go']
const FENCE: Record<HostileLanguage, string> = {
  python: 'python',
  javascript: 'javascript',
  c: 'c',
  rust: 'rust',
  java: 'java',
  go: 'go',
}

interface Listener {
  server: Server
  connections: number
}

const listeners: Listener[] = []
let slots: HostileSlots
let canaryDir: string

async function listen(address: string | { port: number; host: string }): Promise<Listener> {
  const listener: Listener = {
    server: createServer((socket) => {
      listener.connections++
      socket.destroy()
    }),
    connections: 0,
  }
  await new Promise<void>((resolve) =>
    typeof address === 'string'
      ? listener.server.listen(address, resolve)
      : listener.server.listen(address.port, address.host, resolve),
  )
  listeners.push(listener)
  return listener
}

beforeAll(async () => {
  const token = leftoverToken('hostile')
  canaryDir = mkdtempSync('/var/tmp/testbench-canary-')
  chmodSync(canaryDir, 0o777)
  const canary = join(canaryDir, 'canary')
  writeFileSync(canary, 'canary')
  chmodSync(canary, 0o666)
  const tcp = await listen({ port: 0, host: '127.0.0.1' })
  const address = tcp.server.address()
  const unixPath = join(tmpdir(), `${token}.sock`)
  await listen(unixPath)
  chmodSync(unixPath, 0o777)
  await listen(`\0${token}`)
  slots = {
    TOKEN: token,
    PORT: String(typeof address === 'object' && address !== null ? address.port : 0),
    ABSTRACT: token,
    UNIXSOCK: unixPath,
    SOLUTIONS: FIXTURE_SOLUTIONS,
    CANARY: canary,
  }
})

afterAll(async () => {
  await Promise.all(listeners.map((listener) => new Promise((resolve) => listener.server.close(resolve))))
  rmSync(canaryDir, { recursive: true, force: true })
})

/** The replay file: hostile programs as samples of item 0001 of each language, the control as item 0002 sample 0. */
function replayFile(dir: string, languages: readonly HostileLanguage[]): { file: string; samples: number } {
  const lines: string[] = []
  let samples = 1
  for (const language of languages) {
    const programs = HOSTILE_PROGRAMS.filter((program) => program.language === language)
    samples = Math.max(samples, programs.length)
    programs.forEach((program, sample) => {
      lines.push(
        JSON.stringify({
          id: '0001',
          variant: language,
          sample,
          reply: `\`\`\`${FENCE[language]}\n${fill(program.source, slots)}\n\`\`\``,
        }),
      )
    })
    lines.push(
      JSON.stringify({
        id: '0002',
        variant: language,
        sample: 0,
        reply: `\`\`\`${FENCE[language]}\n${CONTROLS[language]}\`\`\``,
      }),
    )
  }
  const file = join(dir, 'hostile-replies.jsonl')
  writeFileSync(file, `${lines.join('\n')}\n`)
  return { file, samples }
}

/** Host paths where a program that got out would leave something named with this run's token. */
const LOOKED_AT = ['/tmp', '/var/tmp', '/dev/shm', '/root', '/work', '/etc', '/usr', '/']

/** Whether `user` can run `command --version` from our PATH. */
function usable(command: string, user: { uid: number; gid: number }): boolean {
  return (
    spawnSync(command, ['--version'], {
      uid: user.uid,
      gid: user.gid,
      env: { PATH: process.env.PATH ?? '' },
      stdio: 'ignore',
      timeout: 30_000,
    }).status === 0
  )
}

function leftovers(token: string): string[] {
  const found: string[] = []
  for (const dir of LOOKED_AT) {
    try {
      for (const name of readdirSync(dir))
        if (name.includes(token) && !name.endsWith('.sock')) found.push(join(dir, name))
    } catch {
      // not there, or not ours to read
    }
  }
  return found
}

/** The process tier as root and as an ordinary user; the container tier (as root, who can reach the engines' sockets) on each engine. */
const RUNS: readonly { who: string; user: User | undefined; engine: ContainerEngine | undefined }[] = [
  { who: 'root', user: undefined, engine: undefined },
  { who: 'an ordinary user', user: UNPRIVILEGED, engine: undefined },
  ...CONTAINER_ENGINES.map((engine) => ({
    who: `root, SANDBOX=docker on the engine at ${engine.variable}`,
    user: undefined,
    engine,
  })),
]

describe.for(RUNS.map((run) => [run.who, run] as const))(
  'the hostile table through PE-Bench, as %s',
  ([who, { user, engine }]) => {
    test(
      'no hostile program passes or becomes infra_error, every control passes, and the host is unharmed',
      { timeout: 900_000 },
      async (context) => {
        if (engine === undefined) await skipWithoutSandbox(context, [...LANGUAGES])
        else skipWithoutTool(context, engine.tool, await engineMissing(engine))
        if (user !== undefined && process.getuid?.() !== 0) context.skip('running the suite as another user needs root')
        const closed = user === undefined ? undefined : cannotRunHere(user)
        if (closed !== undefined) skipForMissing(context, closed, 'a checkout other users cannot enter')
        const dir = mkdtempSync(join(tmpdir(), 'hostile-table-'))
        chmodSync(dir, 0o755)
        const reports = join(dir, 'reports')
        mkdirSync(reports)
        const home = join(dir, 'home')
        mkdirSync(home)
        if (user !== undefined) for (const owned of [reports, home]) chownSync(owned, user.uid, user.gid)
        // Root's rustup toolchain lives in root's home, which no other user can enter: that user runs the others.
        const languages = LANGUAGES.filter(
          (language) => user === undefined || language !== 'rust' || usable('rustc', user),
        )
        const { file, samples } = replayFile(dir, languages)
        const connectionsBefore = listeners.map((listener) => listener.connections)
        const { code, output } = await runEulerAs(user, {
          MODEL: `replay:${file}`,
          SAMPLES: String(samples),
          TESTBENCH_DATA_DIR: FIXTURE_DATASETS,
          TESTBENCH_EULER_SHA256: FIXTURE_SOLUTIONS_SHA256,
          TESTBENCH_EULER_LANGUAGES: languages.join(','),
          TESTBENCH_EULER_PROBLEMS: '1-2',
          TESTBENCH_EULER_RUN_TIMEOUT_MS: '5000',
          ...(engine === undefined ? { SANDBOX: 'process' } : { SANDBOX: 'docker', DOCKER_HOST: engine.host ?? '' }),
          TESTBENCH_SANDBOX_CONCURRENCY: '2',
          TESTBENCH_SANDBOX_TMPFS_MB: String(DEFAULT_TMPFS_MIB),
          TESTBENCH_REPORT_DIR: reports,
          TESTBENCH_CACHE: 'off',
          TESTBENCH_CACHE_DIR: join(dir, 'cache'),
          ...(user === undefined ? {} : { HOME: home }),
        })
        expect(existsSync(join(reports, 'euler')), output.slice(-5000)).toBe(true)
        const records = readdirSync(join(reports, 'euler'))
          .filter((name) => name.endsWith('.jsonl'))
          .flatMap((name) =>
            readFileSync(join(reports, 'euler', name), 'utf8')
              .split('\n')
              .filter((line) => line !== ''),
          )
          .map((line) => JSON.parse(line) as ItemRecord)
        const find = (language: string, itemId: string, sample: number) =>
          records.find((record) => record.variant === language && record.itemId === itemId && record.sample === sample)

        const table: string[] = []
        const problems: string[] = []
        for (const language of languages) {
          HOSTILE_PROGRAMS.filter((program) => program.language === language).forEach((program, sample) => {
            const record = find(language, '0001', sample)
            const outcome = record?.outcome ?? 'missing'
            table.push(`${language.padEnd(10)} ${program.kind.padEnd(17)} ${outcome.padEnd(13)} ${program.name}`)
            const ranAsExpected =
              program.ran ??
              (program.kind === 'compile-time read'
                ? undefined
                : ['wrong_answer', 'runtime_error', 'timeout', 'memory'])
            if (
              outcome === 'passed' ||
              outcome === 'infra_error' ||
              outcome === 'missing' ||
              outcome === 'provider_error'
            ) {
              problems.push(
                `${language} "${program.name}": ${outcome} (${record?.reason ?? 'no record'})\n${record?.output?.slice(0, 1500) ?? ''}`,
              )
            } else if (
              (program.kind === 'tmpfs' || program.kind === 'disk') &&
              Number(/got (\d+) MiB/.exec(record?.output ?? '')?.[1] ?? 0) > DEFAULT_TMPFS_MIB
            ) {
              problems.push(
                `${language} "${program.name}" wrote more than the ${DEFAULT_TMPFS_MIB} MiB tmpfs: ${/got \d+ MiB/.exec(record?.output ?? '')?.[0]}`,
              )
            } else if (ranAsExpected !== undefined && !ranAsExpected.includes(outcome)) {
              problems.push(
                `${language} "${program.name}" did not run as written: ${outcome} (${record?.reason ?? ''})\n${record?.output?.slice(0, 1500) ?? ''}`,
              )
            }
          })
          const control = find(language, '0002', 0)
          if (control?.outcome !== 'passed')
            problems.push(
              `${language} control: ${control?.outcome ?? 'missing'} (${control?.reason ?? 'no record'})\n${control?.output?.slice(0, 800) ?? ''}`,
            )
        }
        // Kept beside the other tests' artifacts (screenshots), for the table with its outcomes.
        mkdirSync(join(reportDir(), 'security'), { recursive: true })
        const name =
          engine === undefined ? (user === undefined ? 'root' : 'ordinary-user') : `docker-${engine.variable}`
        writeFileSync(join(reportDir(), 'security', `hostile-table-${name}.txt`), `${table.join('\n')}\n`)
        if (problems.length > 0) console.log(`hostile table (${who}):\n${table.join('\n')}`)
        expect(problems, output.slice(-3000)).toEqual([])
        // Wrong answers fail their items: the run exits 1, as a run with wrong answers does; it was not killed.
        expect(code, output.slice(-3000)).toBe(1)

        // The host: nothing reached, left or changed by this run.
        expect(listeners.map((listener) => listener.connections)).toEqual(connectionsBefore)
        expect(readFileSync(slots.CANARY, 'utf8')).toBe('canary')
        expect(leftovers(slots.TOKEN)).toEqual([])
        await expect.poll(() => processesWith(slots.TOKEN), { timeout: 10_000 }).toEqual([])
        expect(readFileSync('/proc/mounts', 'utf8')).not.toContain(slots.TOKEN)
        // What the programs printed reached no terminal as control sequences: the run's output has none.
        expect(output).not.toMatch(/[\u001b\u0007\u009b]/)
      },
    )
  },
)
