import { spawn } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { LANGUAGES } from '../../../../adapters/sandbox/index.ts'
import { hostProtections } from '../../../../adapters/sandbox/process/host-protections.ts'
import { ProcessSandbox } from '../../../../adapters/sandbox/process/process-sandbox.ts'
import { HELLO, WITH_MODULES, hostileCases, type HostileContext } from '../programs.ts'
import { skipWithoutSandbox } from '../../../support/sandbox-available.ts'
import { skipWithoutTool } from '../../../support/required-tool.ts'
import { killProcessesWith, leftoverToken, processesWith } from '../../../support/host-processes.ts'

const sandbox = new ProcessSandbox()
/** Python starting a fresh interpreter per program: on the warm exec servers, and in a bwrap of its own (where those cannot run). */
const freshInterpreters = [
  ['on the exec servers', new ProcessSandbox({ warmPython: false })],
  ['a bwrap per step', new ProcessSandbox({ warmPython: false, warmExec: false })],
] as const

const canaryDir = mkdtempSync('/var/tmp/testbench-canary-')
const canaryFile = join(canaryDir, 'canary')
// A host process the programs must not reach; checked alive after all of them.
const sentinel = spawn('/bin/sleep', ['300'], { stdio: 'ignore' })
let server: Server
let connections = 0
const host: HostileContext = {
  canaryFile,
  listenerPort: 0,
  connectionsSeen: () => connections,
  token: leftoverToken,
  processesWith,
}

beforeAll(async () => {
  // World-writable, so that only the sandbox stands between a program and the canary.
  chmodSync(canaryDir, 0o777)
  writeFileSync(canaryFile, 'canary')
  chmodSync(canaryFile, 0o666)
  server = createServer((socket) => {
    connections++
    socket.destroy()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  host.listenerPort = typeof address === 'object' && address !== null ? address.port : 0
  process.env['OPENAI_API_KEY'] = 'sk-canary-should-never-be-seen'
  process.env['GITHUB_TOKEN'] = 'ghp_canary'
})

afterAll(async () => {
  expect(sentinel.exitCode).toBeNull()
  expect(sentinel.signalCode).toBeNull()
  sentinel.kill()
  rmSync(canaryDir, { recursive: true, force: true })
  delete process.env['OPENAI_API_KEY']
  delete process.env['GITHUB_TOKEN']
  await new Promise((resolve) => server.close(resolve))
  await sandbox.close()
  for (const [, fresh] of freshInterpreters) await fresh.close()
})

describe('process sandbox: hostile programs', () => {
  test.concurrent.for(hostileCases(host))('$name', async (hostile, context) => {
    await skipWithoutSandbox(context, [hostile.request.language])
    const result = await sandbox.run(hostile.request)
    const expected = typeof hostile.expected === 'string' ? [hostile.expected] : hostile.expected
    expect(
      expected,
      `${result.reason}\nstdout: ${result.stdout.text.slice(0, 500)}\nstderr: ${result.stderr.text.slice(0, 1500)}`,
    ).toContain(result.outcome)
    await hostile.check?.(result)
  })
})

describe.for(freshInterpreters)(
  'process sandbox: hostile Python programs, a fresh interpreter each, %s',
  ([, fresh]) => {
    beforeEach((context) => skipWithoutSandbox(context))
    test.concurrent.for(hostileCases(host).filter((hostile) => hostile.request.language === 'python'))(
      '$name',
      async (hostile) => {
        const result = await fresh.run(hostile.request)
        const expected = typeof hostile.expected === 'string' ? [hostile.expected] : hostile.expected
        expect(
          expected,
          `${result.reason}\nstdout: ${result.stdout.text.slice(0, 500)}\nstderr: ${result.stderr.text.slice(0, 1500)}`,
        ).toContain(result.outcome)
        await hostile.check?.(result)
      },
    )
  },
)

describe("process sandbox: the harness's Python modules", () => {
  test.for([['taken ready from a warm server', sandbox], ...freshInterpreters] as const)(
    '%s',
    async ([, runner], context) => {
      await skipWithoutSandbox(context)
      const ran = await runner.run(WITH_MODULES)
      expect(ran.stdout.text, `${ran.reason}\n${ran.stderr.text}`).toBe('42\n')
    },
  )
})

describe('process sandbox: every language', () => {
  test.concurrent.for(LANGUAGES)('%s: hello world passes', async (language, context) => {
    await skipWithoutSandbox(context, [language])
    const result = await sandbox.run({ language, files: HELLO[language].files })
    expect(result.outcome, `${result.reason}\n${result.compileOutput ?? ''}\n${result.stderr.text}`).toBe('passed')
    expect(result.stdout.text).toBe('hello\n')
  })

  test.concurrent.for(LANGUAGES)('%s: a compile error is a compile_error', async (language, context) => {
    await skipWithoutSandbox(context, [language])
    const result = await sandbox.run({ language, files: HELLO[language].broken })
    expect(result.outcome, `${result.reason}\n${result.stderr.text}`).toBe('compile_error')
  })
})

describe('process sandbox: runs are isolated from each other', () => {
  beforeEach((context) => skipWithoutSandbox(context))
  test.for([
    ['warm', { warmPython: true }],
    ['exec server', { warmPython: false }],
    ['cold', { warmPython: false, warmExec: false }],
  ] as const)('%s: a run leaves nothing in /tmp, /dev/shm or SysV IPC for the next one', async ([, options]) => {
    // One sandbox, one run at a time: warm, both runs go through the same server.
    const isolated = new ProcessSandbox(options)
    const leave =
      "import ctypes\nopen('/tmp/leak', 'w').write('x')\nopen('/dev/shm/leak', 'w').write('x')\nprint(ctypes.CDLL(None).shmget(0x7e57, 4096, 0o1000 | 0o666))\n"
    const look =
      "import ctypes, os\nfound = [path for path in ('/tmp/leak', '/dev/shm/leak') if os.path.exists(path)]\nif ctypes.CDLL(None).shmget(0x7e57, 4096, 0o666) >= 0:\n    found.append('shm')\nprint(found)\n"
    try {
      const left = await isolated.run({ language: 'python', files: { 'main.py': leave } })
      // -1: the seccomp filter refuses SysV shared memory (counted by no rlimit); otherwise it must not outlive the run.
      expect(Number(left.stdout.text), left.stderr.text).toBeGreaterThanOrEqual(-1)
      const looked = await isolated.run({ language: 'python', files: { 'main.py': look } })
      expect(looked.stdout.text, looked.stderr.text).toBe('[]\n')
    } finally {
      await isolated.close()
    }
  })
})

describe('process sandbox: on hosts missing a protection', () => {
  const found = hostProtections()
  test("a sandbox that cannot start is an infra_error, not the program's fault", async () => {
    const broken = new ProcessSandbox({
      protections: () => ({ ...found, bwrap: '/nonexistent/bwrap' }),
      warmPython: false,
    })
    const result = await broken.run({ language: 'python', files: HELLO.python.files })
    expect(result.outcome).toBe('infra_error')
    // (As root the sandbox starts in a memory cgroup through /bin/sh, which then fails to exec bwrap.)
    expect(result.reason).toMatch(/(could not start|failed to set up).*\/nonexistent\/bwrap/)
  })

  test('without bwrap no program runs: every run is an infra_error that says what is missing and what to do', async () => {
    const withoutBwrap = new ProcessSandbox({
      protections: () => ({
        ...found,
        bwrap: undefined,
        bwrapProblem: 'bwrap is not at /usr/bin/bwrap (apt-get install bubblewrap)',
      }),
      warmPython: false,
    })
    const token = host.token('no-bwrap-ran')
    const result = await withoutBwrap.run({
      language: 'python',
      files: { 'main.py': `open('/tmp/${token}', 'w')\nprint(1)\n` },
    })
    expect(result.outcome).toBe('infra_error')
    expect(result.reason).toMatch(/apt-get install bubblewrap.*SANDBOX=docker.*SANDBOX=none/)
    expect(existsSync(`/tmp/${token}`)).toBe(false)
  })

  test('SANDBOX=none (unsandboxed): limits hold and leftovers of the run are killed by its uid', async (context) => {
    // The throwaway uid that finds the leftovers needs root.
    if (!found.root) {
      context.task.meta.skipReason = 'runs as root only: an ordinary user has no throwaway uid to run the program as'
      context.skip(context.task.meta.skipReason)
    }
    skipWithoutTool(context, { name: 'setpriv', install: 'apt-get install util-linux' }, found.setpriv === undefined)
    skipWithoutTool(context, { name: 'kill', install: 'apt-get install procps' }, found.kill === undefined)
    const withoutBwrap = new ProcessSandbox({ unsandboxed: true, warmPython: false })
    expect(withoutBwrap.description()).toBe('none (unsandboxed)')
    const loop = await withoutBwrap.run({
      language: 'python',
      files: { 'main.py': 'while True:\n    pass\n' },
      limits: { wallMs: 3_000, cpuSeconds: 1 },
    })
    expect(loop.outcome).toBe('timeout')
    const token = host.token('no-bwrap-orphan')
    const orphan = `import subprocess\nsubprocess.Popen(['/bin/sh', '-c', 'sleep 1000; : ${token}'], start_new_session=True)\n`
    try {
      expect((await withoutBwrap.run({ language: 'python', files: { 'main.py': orphan } })).outcome).toBe('passed')
      await expect.poll(() => processesWith(token)).toEqual([])
    } finally {
      killProcessesWith(token)
    }
  })
})

describe('process sandbox: afterwards', () => {
  test('the host still runs programs, and none of our runs left a process behind', async (context) => {
    await skipWithoutSandbox(context)
    const result = await sandbox.run({ language: 'python', files: HELLO.python.files })
    expect(result.outcome).toBe('passed')
    // The warm servers are ours too, until closed.
    await sandbox.close()
    for (const [, fresh] of freshInterpreters) await fresh.close()
    const children = () =>
      readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8')
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .map(Number)
    await expect.poll(() => children().filter((pid) => pid !== sentinel.pid)).toEqual([])
  })

  test('a bad request is refused with what to do', async () => {
    const result = await sandbox.run({ language: 'python', files: { '../escape.py': 'print(1)' } })
    expect(result.outcome).toBe('infra_error')
    expect(result.reason).toMatch(/relative path/)
  })
})
