import { afterAll, describe, expect, test } from 'vitest'
import { sandboxEnvironment } from '../../../../adapters/sandbox/environment.ts'
import { ExecServers, type ExecStep, type StepFile } from '../../../../adapters/sandbox/warm-servers/exec-server.ts'
import { hostProtections } from '../../../../adapters/sandbox/process/host-protections.ts'
import { DEFAULT_COMPILE_LIMITS, DEFAULT_RUN_LIMITS } from '../../../../adapters/sandbox/limits.ts'
import { sandboxPython } from '../../../support/sandbox-available.ts'
import { skipWithoutTool, TOOLS, type SkippableContext } from '../../../support/required-tool.ts'
import { FORK_UNTIL_THE_LIMIT } from '../programs.ts'
import { leftoverToken } from '../../../support/host-processes.ts'

/**
 * The warm exec server in both of its isolations: `uid` (root: a throwaway uid per program) and `userns` (an ordinary
 * user: bwrap's user namespace; as root, run as nobody to see it). Each program tries to get past one protection, to
 * reach another step (before, after or beside it) or the server; the steps around it prove the server intact.
 */

const python = sandboxPython()
const bwrap = '/usr/bin/bwrap'
const root = process.getuid?.() === 0
const NOBODY = { uid: 65534, gid: 65534 }
const MiB = 1024 * 1024
const PROCESSES = 8

const isolations = [
  {
    name: 'userns (ordinary users)',
    servers: () => new ExecServers(python, bwrap, { root, ...(root ? { user: NOBODY } : {}) }),
    needsRoot: false,
  },
  { name: "uid (root's)", servers: () => new ExecServers(python, bwrap, { root }), needsRoot: true },
] as const

function skipUnlessAvailable(context: SkippableContext, needsRoot: boolean): void {
  skipWithoutTool(
    context,
    TOOLS.bwrap,
    hostProtections().bwrap === undefined
      ? 'bwrap is not at /usr/bin/bwrap, or cannot create namespaces here'
      : undefined,
  )
  if (needsRoot && !root) context.skip("the uid isolation is root's")
}

let nextUid = 1_600_000_000

function step(argv: string[], files: Record<string, string> = {}, rest: Partial<ExecStep> = {}): ExecStep {
  const limits = { ...DEFAULT_RUN_LIMITS, wallMs: 5_000, processes: PROCESSES }
  return {
    tools: [],
    argv,
    env: sandboxEnvironment('/tmp/work'),
    files: new Map(
      Object.entries(files).map(([path, text]) => [path, { bytes: Buffer.from(text), executable: false }]),
    ),
    stdin: undefined,
    limits,
    dataBytes: limits.memoryBytes,
    addressSpaceBytes: limits.memoryBytes + 1024 * MiB,
    cgroupBytes: limits.memoryBytes + 256 * MiB,
    tmpfsBytes: 16 * MiB,
    uid: nextUid++,
    marker: undefined,
    ship: [],
    shipBytes: MiB,
    ...rest,
  }
}

describe.each(isolations)('warm exec server, $name isolation', (isolation) => {
  const servers = isolation.servers()
  afterAll(() => servers.close())

  async function py(code: string, rest: Partial<ExecStep> = {}) {
    const ran = await servers.run(step([python, 'main.py'], { 'main.py': code }, rest))
    if (ran === undefined) throw new Error('the exec server could not serve the step')
    return { ...ran, stdout: ran.stdout.capture().text, stderr: ran.stderr.capture().text }
  }

  test('runs a command in the work dir with its stdin, and reports its exit status, CPU time and peak memory', async (context) => {
    skipUnlessAvailable(context, isolation.needsRoot)
    const ran = await py(
      "import os, sys\nblock = bytearray(50 * 2 ** 20)\nprint(os.getcwd(), sys.stdin.read(), os.getpid(), sorted(os.listdir('/proc/1/task')))\nsys.exit(3)",
      { stdin: 'from stdin' },
    )
    expect({ exitCode: ran.exitCode, stdout: ran.stdout, stderr: ran.stderr }).toEqual({
      exitCode: 3,
      stdout: "/tmp/work from stdin 2 ['1']\n",
      stderr: '',
    })
    expect(ran.peakMemoryBytes).toBeGreaterThan(50 * MiB)
    expect(ran.cpuMs).toBeGreaterThanOrEqual(0)
    expect(servers.isolation).toBe(isolation.needsRoot ? 'uid' : 'userns')
  })

  test('a program holds no capability, has no_new_privs and the seccomp filter: no user namespace, no prlimit of another process', async (context) => {
    skipUnlessAvailable(context, isolation.needsRoot)
    const ran = await py(`import ctypes, os, resource
status = dict(line.split(':\\t') for line in open('/proc/self/status').read().splitlines() if ':\\t' in line)
print(status['CapEff'], status['CapPrm'], status['CapBnd'], status['CapAmb'], status['NoNewPrivs'], status['Seccomp'])
print(ctypes.CDLL(None).unshare(0x10000000))
resource.prlimit(0, resource.RLIMIT_NOFILE, (64, 64))
try:
    resource.prlimit(1, resource.RLIMIT_CPU, (0, 0))
    print('lowered the init')
except OSError as error:
    print(error.strerror)`)
    expect(ran.stdout, ran.stderr).toBe(
      '0000000000000000 0000000000000000 0000000000000000 0000000000000000 1 2\n-1\nOperation not permitted\n',
    )
  })

  test(`the process limit counts only the step's own processes (${PROCESSES})`, async (context) => {
    skipUnlessAvailable(context, isolation.needsRoot)
    const ran = await py(FORK_UNTIL_THE_LIMIT)
    expect(ran.stdout).toBe(`${PROCESSES}\n`)
  })

  test('what a step leaves (processes, files in /tmp and /dev/shm, SysV IPC) is gone before the next, and a daemon dies with the step', async (context) => {
    skipUnlessAvailable(context, isolation.needsRoot)
    const token = leftoverToken('exec')
    await py(`import os, subprocess, sys
open('/tmp/left', 'w').write('x')
open('/dev/shm/left', 'w').write('x')
subprocess.Popen(['/bin/sh', '-c', 'sleep 30; : ${token}'], start_new_session=True)`)
    const next = await py(`import os
print(sorted(os.listdir('/tmp')), os.listdir('/dev/shm'), sorted(os.listdir('/tmp/work')), [p for p in os.listdir('/proc') if p.isdigit()])
print(open('/proc/sysvipc/shm').read().count('\\n'))`)
    expect(next.stdout).toBe("['work'] [] ['main.py'] ['1', '2']\n1\n")
    const { readdirSync, readFileSync } = await import('node:fs')
    const left = readdirSync('/proc').filter(
      (pid) =>
        /^\d+$/.test(pid) &&
        (() => {
          try {
            return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(token)
          } catch {
            return false
          }
        })(),
    )
    expect(left).toEqual([])
  })

  test('two steps at once see nothing of each other: processes, files, /tmp, /dev/shm, signals', async (context) => {
    skipUnlessAvailable(context, isolation.needsRoot)
    const token = leftoverToken('exec')
    const look = `import os, signal, time
open('/tmp/${token}', 'w').write('x')
open('/dev/shm/${token}', 'w').write('x')
seen = set()
for _ in range(30):
    for pid in os.listdir('/proc'):
        if pid.isdigit() and int(pid) not in (1, os.getpid()):
            seen.add(pid)
    for directory in ('/tmp', '/dev/shm', '/tmp/work'):
        seen.update(name for name in os.listdir(directory) if name not in ('${token}', 'work', 'main.py'))
    for pid in range(2, 4096):
        if pid != os.getpid():
            try:
                os.kill(pid, 0)
                seen.add(pid)
            except ProcessLookupError:
                pass
            except PermissionError:
                seen.add(pid)
    time.sleep(0.05)
print(sorted(map(str, seen)))`
    const both = await Promise.all([py(look), py(look)])
    expect(both.map((ran) => ran.stdout)).toEqual(['[]\n', '[]\n'])
  })

  test('a program can reach neither its init nor the server: no fd, memory or environ through /proc, no signal, no forged report', async (context) => {
    skipUnlessAvailable(context, isolation.needsRoot)
    const attack = await py(`import os, signal, struct
reached = []
for entry in ('fd/0', 'fd/1', 'fd/2', 'fd/3', 'fd/4', 'fd/5', 'fd/6', 'mem', 'environ', 'maps', 'root/tmp'):
    try:
        with open(f'/proc/1/{entry}', 'rb') as file:
            file.read(1)
        reached.append(entry)
    except OSError:
        pass
forged = struct.pack('>cI', b'R', 2) + b'{}'
for fd in range(3, 1024):
    try:
        os.write(fd, forged)
        reached.append(f'wrote fd {fd}')
    except OSError:
        pass
for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGSTOP, signal.SIGKILL):
    try:
        os.kill(1, sig)
    except PermissionError:  # (as root, the init is not the program's uid)
        pass
print('reached', reached)
raise SystemExit(7)`)
    expect({ stdout: attack.stdout, exitCode: attack.exitCode }).toEqual({ stdout: 'reached []\n', exitCode: 7 })
    expect((await py('print("still serving")')).stdout).toBe('still serving\n')
  })

  test("a program that prints the server's set-up failure and exits 125 is only that: its own exit", async (context) => {
    skipUnlessAvailable(context, isolation.needsRoot)
    const forged = await py(
      'import os, sys\nsys.stderr.write("could not prepare the step: OSError()\\n")\nsys.stderr.flush()\nos._exit(125)',
    )
    expect(forged.exitCode).toBe(125)
    expect(servers.available).toBe(true)
  })

  test('the wall limit kills the whole step, a daemon in a new session too', async (context) => {
    skipUnlessAvailable(context, isolation.needsRoot)
    const token = leftoverToken('exec')
    const ran = await py(
      `import subprocess, time\nsubprocess.Popen(['/bin/sh', '-c', 'sleep 30; : ${token}'], start_new_session=True)\ntime.sleep(30)`,
      {
        limits: { ...DEFAULT_RUN_LIMITS, wallMs: 1_000, processes: PROCESSES },
      },
    )
    expect(ran.wallLimitHit).toBe(true)
    expect(ran.wallMs).toBeLessThan(4_000)
    expect((await py('print("next")')).stdout).toBe('next\n')
  })

  test("a compile step's work dir comes back (executable bits kept, symlinks not followed); too much of it is too big", async (context) => {
    skipUnlessAvailable(context, isolation.needsRoot)
    const made = await servers.run(
      step(
        [python, 'build.py'],
        {
          'build.py':
            "import os\nopen('out', 'w').write('#!/bin/sh\\necho built\\n')\nos.chmod('out', 0o755)\nos.makedirs('sub')\nopen('sub/data', 'w').write('d')\nos.symlink('/etc/passwd', 'link')\nos.chmod('sub/data', 0)\n",
        },
        {
          ship: 'all',
          shipBytes: MiB,
          limits: { ...DEFAULT_COMPILE_LIMITS, wallMs: 5_000 },
        },
      ),
    )
    expect(
      [...(made?.files ?? new Map<string, StepFile>())]
        .map(([path, file]) => [path, file.executable, file.bytes.toString()])
        .sort(),
    ).toEqual([
      ['build.py', false, expect.any(String)],
      ['out', true, '#!/bin/sh\necho built\n'],
      ['sub/data', false, 'd'],
    ])
    const built = await servers.run(step(['./out'], {}, { files: made?.files ?? new Map() }))
    expect(built?.stdout.capture().text).toBe('built\n')
    const big = await servers.run(
      step(
        [python, 'build.py'],
        { 'build.py': "open('big', 'wb').write(b'x' * 3 * 2 ** 20)\n" },
        { ship: 'all', shipBytes: 2 * MiB, limits: { ...DEFAULT_COMPILE_LIMITS, wallMs: 5_000 } },
      ),
    )
    expect(big?.tooBig).toMatch(/more than 2097152 bytes/)
  })

  test("a program's tmpfs holds its size, and files that do not fit are the program's, not ours", async (context) => {
    skipUnlessAvailable(context, isolation.needsRoot)
    const filled = await py(
      "n = 0\ntry:\n    with open('/tmp/fill', 'wb') as file:\n        while True:\n            file.write(b'x' * 2 ** 20)\n            file.flush()\n            n += 1\nexcept OSError as error:\n    print(n, error.strerror)",
    )
    expect(filled.stdout).toMatch(/^1[56] No space left on device\n$/)
    const tooBig = await servers.run(
      step([python, 'main.py'], { 'main.py': 'print(1)', 'huge.bin': 'x'.repeat(20 * MiB) }),
    )
    expect(tooBig?.tooBig).toMatch(/do not fit/)
  })
})
