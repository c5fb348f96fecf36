import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { join } from 'node:path'
import { spawn } from 'node:child_process'
import { tmpdir } from 'node:os'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { DockerSandbox } from '../../../../adapters/sandbox/container/docker-sandbox.ts'
import { LANGUAGES } from '../../../../adapters/sandbox/index.ts'
import { HELLO, WITH_MODULES, hostileCases, type HostileContext } from '../programs.ts'
import { skipWithoutTool } from '../../../support/required-tool.ts'
import { leftoverToken, processesWith } from '../../../support/host-processes.ts'
import { CONTAINER_ENGINES, engineMissing } from '../../../support/container-engines.ts'

// Runs for real on each engine that answers and holds the sandbox image (podman at DOCKER_HOST from
// .ci/start-podman.sh, a Docker Engine at TESTBENCH_DOCKER_ENGINE_HOST from .ci/start-docker.sh);
// otherwise that engine's tests skip, saying which engine is missing and why.
const engines = await Promise.all(
  CONTAINER_ENGINES.map(async (engine) => {
    const sandbox = new DockerSandbox({ host: engine.host })
    const unreachable = await engineMissing(engine)
    return {
      ...engine,
      sandbox,
      unreachable,
      name: unreachable === undefined ? `${engine.variable}: ${await sandbox.engine()}` : engine.variable,
    }
  }),
)

const canaryDir = mkdtempSync('/var/tmp/testbench-canary-')
const canaryFile = join(canaryDir, 'canary')
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
})

afterAll(async () => {
  rmSync(canaryDir, { recursive: true, force: true })
  delete process.env['OPENAI_API_KEY']
  await new Promise((resolve) => server.close(resolve))
  await Promise.all(engines.map(({ sandbox }) => sandbox.close()))
})

/** The container tier's table: the hostile cases that say something about containers, not the slow repeats. */
const CONTAINER_CASES = new Set([
  'a user namespace cannot be made, nor the image written',
  'an infinite loop is stopped by the CPU limit',
  'sleeping forever is stopped by the wall limit',
  'a fork bomb hits the process limit and then the wall limit',
  'a memory bomb in Python runs out of memory',
  '100 MB of output is capped, counted, and the marker after it still found',
  'opening a network connection fails, to the internet and to the host',
  'reading an API key from the environment finds nothing',
  'writing outside the work dir fails or stays inside the sandbox',
  'killing its parent ends at most its own run',
  'a child sleeping past the limit in a new session dies with the timed-out run',
  'printing the real marker from code that then fails does not pass',
  'os._exit(0) before the checks does not pass',
  'a program whose checks pass prints the marker and passes',
  'files the program writes come back when asked for; a symlink out of the work dir does not',
])

describe.for(engines)('container sandbox on $name: hostile programs', ({ sandbox, unreachable, tool }) => {
  test.concurrent.for(hostileCases(host).filter((hostile) => CONTAINER_CASES.has(hostile.name)))(
    '$name',
    async (hostile, context) => {
      skipWithoutTool(context, tool, unreachable)
      const result = await sandbox.run(hostile.request)
      const expected = typeof hostile.expected === 'string' ? [hostile.expected] : hostile.expected
      expect(
        expected,
        `${result.reason}\nstdout: ${result.stdout.text.slice(0, 500)}\nstderr: ${result.stderr.text.slice(0, 1500)}`,
      ).toContain(result.outcome)
      await hostile.check?.(result)
    },
  )
})

describe.for(engines)('container sandbox on $name: every language', ({ sandbox, unreachable, tool, host }) => {
  test.concurrent.for(LANGUAGES)('%s: hello world passes', async (language, context) => {
    skipWithoutTool(context, tool, unreachable ?? (await sandbox.unavailable(language)))
    const hello = await sandbox.run({ language, files: HELLO[language].files })
    expect(hello.outcome, `${hello.reason}\n${hello.compileOutput ?? ''}\n${hello.stderr.text}`).toBe('passed')
    expect(hello.stdout.text).toBe('hello\n')
  })

  // Classifying a compile error is the same code in both tiers (the process tier tests every language);
  // here one compiled and one interpreted language show the image's compilers report as expected.
  test.concurrent.for(['c', 'python'] as const)('%s: a compile error is a compile_error', async (language, context) => {
    skipWithoutTool(context, tool, unreachable ?? (await sandbox.unavailable(language)))
    const broken = await sandbox.run({ language, files: HELLO[language].broken })
    expect(broken.outcome, `${broken.reason}\n${broken.stderr.text}`).toBe('compile_error')
  })

  test("python: the harness's modules are files beside the program", async (context) => {
    skipWithoutTool(context, tool, unreachable ?? (await sandbox.unavailable('python')))
    const ran = await sandbox.run(WITH_MODULES)
    expect(ran.stdout.text, `${ran.reason}\n${ran.stderr.text}`).toBe('42\n')
  })

  test(
    'a run whose process is killed (Ctrl-C, a crash) leaves no container: it ends with its lifetime and the engine removes it',
    { timeout: 150_000 },
    async (context) => {
      skipWithoutTool(context, tool, unreachable)
      const docker = new (await import('dockerode')).default({ socketPath: (host ?? '').replace(/^unix:\/\//, '') })
      const dir = mkdtempSync(join(tmpdir(), 'testbench-killed-run-'))
      const script = join(dir, 'killed-run.ts')
      writeFileSync(
        script,
        [
          `import { DockerSandbox } from ${JSON.stringify(fileURLToPath(new URL('../../../../adapters/sandbox/container/docker-sandbox.ts', import.meta.url)))}`,
          'const sandbox = new DockerSandbox({ host: process.argv[2] })',
          "await sandbox.run({ language: 'python', files: { 'main.py': 'import time\\ntime.sleep(600)\\n' }, limits: { wallMs: 5_000 } })",
        ].join('\n'),
      )
      const child = spawn(process.execPath, [script, host ?? ''], { stdio: 'ignore' })
      try {
        const ours = { label: [`testbench.sandbox.pid=${child.pid}`] }
        await expect
          .poll(async () => (await docker.listContainers({ filters: { ...ours, status: ['running'] } })).length, {
            timeout: 60_000,
            interval: 250,
          })
          .toBe(1)
        // The program is running in it: kill the process that made it, as a second Ctrl-C or a crash would, before it can clean up.
        child.kill('SIGKILL')
        await expect
          .poll(async () => (await docker.listContainers({ all: true, filters: ours })).length, {
            timeout: 90_000,
            interval: 1_000,
          })
          .toBe(0)
      } finally {
        child.kill('SIGKILL')
        rmSync(dir, { recursive: true, force: true })
      }
    },
  )

  test('no container is left behind', async (context) => {
    skipWithoutTool(context, tool, unreachable)
    const docker = new (await import('dockerode')).default({ socketPath: (host ?? '').replace(/^unix:\/\//, '') })
    await expect
      .poll(
        async () =>
          (await docker.listContainers({ all: true, filters: { label: [`testbench.sandbox.pid=${process.pid}`] } }))
            .length,
      )
      .toBe(0)
  })
})
