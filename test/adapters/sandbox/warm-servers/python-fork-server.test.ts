import { spawnSync } from 'node:child_process'
import { afterAll, describe, expect, test } from 'vitest'
import { hostProtections } from '../../../../adapters/sandbox/process/host-protections.ts'
import { DEFAULT_RUN_LIMITS } from '../../../../adapters/sandbox/limits.ts'
import { ProcessSandbox } from '../../../../adapters/sandbox/process/process-sandbox.ts'
import { PythonForkServers } from '../../../../adapters/sandbox/warm-servers/python-fork-server.ts'
import { sandboxPython } from '../../../support/sandbox-available.ts'
import { skipWithoutTool, TOOLS, type SkippableContext } from '../../../support/required-tool.ts'
import { FORK_UNTIL_THE_LIMIT } from '../programs.ts'

/**
 * The warm Python path in both of its isolations: `uid` (root: a throwaway uid per child) and
 * `userns` (an ordinary user: bwrap's user namespace, a pid namespace for the children). Each
 * program here tries to get past one protection; the next run proves the server and the host intact.
 */

const python = sandboxPython()
const bwrap = '/usr/bin/bwrap'
const root = process.getuid?.() === 0

/** As root, the probe runs as nobody, as the servers run as a throwaway uid. */
const NOBODY = { uid: 65534, gid: 65534 }

function bwrapMissing(): string | undefined {
  return hostProtections().bwrap === undefined
    ? 'bwrap is not at /usr/bin/bwrap, or cannot create namespaces here'
    : undefined
}

/** Why bwrap cannot give an ordinary user's fork server its sandbox here, or undefined. */
function userNamespacesMissing(): string | undefined {
  const missing = bwrapMissing()
  if (missing !== undefined) return missing
  const flags = [
    '--unshare-user',
    '--unshare-pid',
    '--disable-userns',
    '--as-pid-1',
    '--cap-add',
    'CAP_SYS_ADMIN',
    '--ro-bind',
    '/',
    '/',
    '--proc',
    '/proc',
    '--dev',
    '/dev',
  ]
  const probe = spawnSync(
    bwrap,
    [...flags, '--', python, '-c', 'import ctypes; assert ctypes.CDLL(None).unshare(0x20000000) == 0'],
    {
      encoding: 'utf8',
      timeout: 10_000,
      cwd: '/',
      ...(root ? NOBODY : {}),
    },
  )
  if (probe.status === 0) return undefined
  return `unprivileged user namespaces with bwrap --disable-userns: ${(probe.stderr || probe.error?.message || `exit status ${probe.status}`).trim().split('\n')[0]}`
}

const isolations = [
  { name: 'userns (ordinary users, and root first)', kind: 'userns', missing: () => userNamespacesMissing() },
  {
    name: "uid (root's fallback)",
    kind: 'uid',
    missing: () => bwrapMissing() ?? (root ? undefined : 'root, to switch each child to a throwaway uid'),
  },
] as const

const PROCESSES = 8
const limits = { ...DEFAULT_RUN_LIMITS, wallMs: 5_000, processes: PROCESSES }
let nextUid = 1_600_000_000

describe.each(isolations)('warm Python fork server, $name isolation', (isolation) => {
  const servers = new PythonForkServers(python, bwrap, { root, isolation: isolation.kind })
  afterAll(() => servers.close())

  const skipUnlessAvailable = (context: SkippableContext): void =>
    skipWithoutTool(context, TOOLS.bwrap, isolation.missing())
  async function run(code: string, stdin?: string) {
    const ran = await servers.run({
      files: { 'main.py': code },
      main: 'main.py',
      stdin,
      limits,
      uid: nextUid++,
      marker: undefined,
      collect: [],
      modules: {},
    })
    if (ran === undefined) throw new Error('the fork server could not serve the run')
    return { exitCode: ran.exitCode, stdout: ran.stdout.capture().text, stderr: ran.stderr.capture().text }
  }

  test('runs a program as __main__ with its stdin, and reports its exit status', async (context) => {
    skipUnlessAvailable(context)
    const ran = await run('import sys\nprint(__name__, sys.stdin.read().strip())\nsys.exit(3)', 'from stdin')
    expect(ran).toEqual({ exitCode: 3, stdout: '__main__ from stdin\n', stderr: '' })
    expect(servers.isolation).toBe(isolation.kind)
  })

  test('harness modules run once in the server and come ready to the children that ask; a run that changes one leaves the next the original', async (context) => {
    skipUnlessAvailable(context)
    const modules = {
      base: 'import os\nLOADED_IN = os.getpid()\nstate = ["pristine"]\n',
      driver: 'import base\n\ndef report():\n    return f"{base.state[0]} {base.LOADED_IN}"\n',
    }
    const program = `import os, sys, driver
print(driver.report(), 'file' if os.path.exists('driver.py') else 'ready', driver.base.LOADED_IN != os.getpid())
driver.base.state[0] = 'changed'`
    const modulesRun = async (code: string, given: Record<string, string>) => {
      const ran = await servers.run({
        files: { 'main.py': code },
        modules: given,
        main: 'main.py',
        stdin: undefined,
        limits,
        uid: nextUid++,
        marker: undefined,
        collect: [],
      })
      if (ran === undefined) throw new Error('the fork server could not serve the run')
      return ran.stdout.capture().text.trim()
    }
    const runs = [await modulesRun(program, modules), await modulesRun(program, modules)]
    const loadedIn = /^pristine (\d+) ready True$/.exec(runs[0] ?? '')?.[1]
    expect(loadedIn, runs[0]).toBeDefined()
    // The same module object as the server ran it, once: its pid is the server's in both runs.
    expect(runs[1]).toBe(runs[0])
    const asked = "import sys\nprint(sorted(name for name in ('base', 'driver') if name in sys.modules))"
    expect(await modulesRun(asked, {}), 'a run that does not ask for them').toBe('[]')
    expect(await modulesRun(asked, { base: modules.base }), 'a run that asks for one').toBe("['base']")
  })

  test('a program holds no capability and cannot gain one, nor create a user namespace', async (context) => {
    skipUnlessAvailable(context)
    const ran = await run(`import ctypes, os
status = dict(line.split(':\\t') for line in open('/proc/self/status').read().splitlines() if ':\\t' in line)
print(status['CapEff'], status['CapPrm'], status['CapAmb'], status['NoNewPrivs'] if ${isolation.kind === 'uid' ? 'False' : 'True'} else '1')
print(ctypes.CDLL(None).unshare(0x10000000) if ${isolation.kind === 'uid' ? 'False' : 'True'} else -1)`)
    // As root, a throwaway uid can still create a user namespace: closing that is the sandbox issue's (a seccomp filter).
    expect(ran.stdout).toBe('0000000000000000 0000000000000000 0000000000000000 1\n-1\n')
  })

  test('a program can neither signal nor write to the server, and the server serves the next run', async (context) => {
    skipUnlessAvailable(context)
    const attack = await run(`import os, signal
reached = []
for pid in [p for p in os.listdir('/proc') if p.isdigit() and p != os.readlink('/proc/self')]:
    for fd in ('0', '1', '2', '3', '4'):
        try:
            open(f'/proc/{pid}/fd/{fd}', 'wb').write(b'x\\0\\0\\0\\2{}')
            reached.append(f'{pid}/fd/{fd}')
        except OSError:
            pass
    try:
        open(f'/proc/{pid}/mem', 'rb').read(1)
        reached.append(f'{pid}/mem')
    except OSError:
        pass
print('reached', reached)
for pid in [p for p in os.listdir('/proc') if p.isdigit()]:
    if int(pid) != os.getpid():
        for sig in (signal.SIGSTOP, signal.SIGKILL):
            try:
                os.kill(int(pid), sig)
            except OSError:
                pass`)
    expect(attack.stdout).toBe('reached []\n')
    expect(await run('print("still serving")')).toMatchObject({ exitCode: 0, stdout: 'still serving\n' })
  })

  test(`the process limit counts only the run's own processes (${PROCESSES})`, async (context) => {
    skipUnlessAvailable(context)
    const ran = await run(FORK_UNTIL_THE_LIMIT)
    expect(ran.stdout).toBe(`${PROCESSES}\n`)
  })

  test('what a run leaves behind (processes, files in /tmp and /dev/shm) is gone before the next', async (context) => {
    skipUnlessAvailable(context)
    await run(`import os, time
open('/tmp/left', 'w').write('x')
open('/dev/shm/left', 'w').write('x')
if os.fork() == 0:
    os.setsid()
    time.sleep(0.3)
    open('/tmp/late', 'w').write('x')
    os.execvp('sleep', ['sleep', '30'])`)
    await new Promise((resolve) => setTimeout(resolve, 500))
    const next = await run(`import os
print(sorted(os.listdir('/tmp')), os.listdir('/dev/shm'), [p for p in os.listdir('/proc') if p.isdigit() and open(f'/proc/{p}/cmdline').read().startswith('sleep')])`)
    expect(next.stdout).toBe("['runs'] [] []\n")
  })

  test('what a run writes to the root, /etc or /dev, or a system link it replaces, is undone before the next', async (context) => {
    skipUnlessAvailable(context)
    await run(`import os
for action in (lambda: os.makedirs('/fake/dir'), lambda: open('/etc/planted', 'w').write('x'), lambda: open('/dev/planted', 'w').write('x'),
               lambda: os.unlink('/lib64'), lambda: os.mkdir('/lib64')):
    try:
        action()
    except OSError:
        pass`)
    const next = await run(`import os
print([os.path.exists(path) for path in ('/fake', '/etc/planted', '/dev/planted')], os.readlink('/lib64'))`)
    expect(next.stdout).toBe(`[False, False, False] ${(await import('node:fs')).readlinkSync('/lib64')}\n`)
  })

  test('no network, and a read-only view of the system', async (context) => {
    skipUnlessAvailable(context)
    const ran = await run(`import socket
try:
    socket.create_connection(('1.1.1.1', 53), timeout=1)
    print('connected')
except OSError as error:
    print('no network')
try:
    open('/usr/testbench-escape', 'w')
except OSError as error:
    print(error.strerror)`)
    expect(ran.stdout).toBe('no network\nRead-only file system\n')
  })
})

describe('warm Python fork server: modules preloaded per request', () => {
  const sandbox = new ProcessSandbox()
  afterAll(() => sandbox.close())

  test('a run that asks for preloaded modules finds them imported; one that does not, does not', async (context) => {
    skipWithoutTool(
      context,
      TOOLS.bwrap,
      hostProtections().bwrap === undefined ? 'bwrap cannot create namespaces here' : undefined,
    )
    const files = { 'main.py': "import sys\nprint('wave' in sys.modules, 'csv' in sys.modules)" }
    const preloaded = await sandbox.run({ language: 'python', files, preload: ['csv', 'wave'] })
    const plain = await sandbox.run({ language: 'python', files })
    expect([preloaded.stdout.text, plain.stdout.text]).toEqual(['True True\n', 'False False\n'])
  })
})

describe('warm Python fork server: the verdict of the sandbox, not of the program', () => {
  const sandbox = new ProcessSandbox()
  afterAll(() => sandbox.close())

  test("a program that prints the server's old set-up failure and exits 125 is a runtime error, not an infra error", async (context) => {
    skipWithoutTool(
      context,
      TOOLS.bwrap,
      hostProtections().bwrap === undefined ? 'bwrap cannot create namespaces here' : undefined,
    )
    const forged =
      'import os, sys\nsys.stderr.write("testbench fork server: could not prepare the child: OSError()\\n")\nsys.stderr.flush()\nos._exit(125)'
    const result = await sandbox.run({ language: 'python', files: { 'main.py': forged } })
    expect(result.outcome).toBe('runtime_error')
  })
})
