import type { Language, RunOutcome, RunRequest, RunResult } from '../../../adapters/sandbox/index.ts'
import { printMarker } from '../../../adapters/sandbox/index.ts'

/** One hostile program and what must come of it; `check` looks at the result and at the host. */
export interface HostileCase {
  name: string
  request: RunRequest
  /** Several when the tier decides: killing its parent ends only its own run, or nothing at all. */
  expected: RunOutcome | readonly RunOutcome[]
  check?: (result: RunResult) => void | Promise<void>
}

/** What a hostile case may need from the host around it. */
export interface HostileContext {
  /** A canary file the program must not delete or change, at a path the sandbox can see. */
  canaryFile: string
  /** A TCP port on the host's loopback that counts the connections it gets. */
  listenerPort: number
  connectionsSeen: () => number
  /** A unique word for leftover-process checks: a program puts it in the command line of what it leaves behind. */
  token: (name: string) => string
  /** Host processes whose command line holds the text. */
  processesWith: (text: string) => number[]
}

const python = (source: string, rest: Partial<RunRequest> = {}): RunRequest => ({
  language: 'python',
  files: { 'main.py': source },
  ...rest,
})

/** Program, then checks, then the marker: the shape every suite gives the runner. */
export const withChecks = (language: Language, program: string, checks: string): RunRequest => ({
  language,
  files: (marker) => ({
    [language === 'python' ? 'main.py' : 'main.js']: `${program}\n${checks}\n${printMarker(language, marker)}\n`,
  }),
})

export function hostileCases(host: HostileContext): HostileCase[] {
  const orphan = host.token('orphan')
  const orphanOfTimeout = host.token('orphan-of-timeout')
  return [
    {
      name: 'an infinite loop is stopped by the CPU limit',
      request: python('while True:\n    pass\n', { limits: { cpuSeconds: 1, wallMs: 5_000 } }),
      expected: 'timeout',
    },
    {
      name: 'sleeping forever is stopped by the wall limit',
      request: python('import time\ntime.sleep(1000)\n', { limits: { wallMs: 1_000 } }),
      expected: 'timeout',
      check: (result) => {
        if (result.wallMs > 4_000) throw new Error(`The wall limit of 1 s took ${result.wallMs} ms to act.`)
      },
    },
    {
      name: 'a fork bomb hits the process limit and then the wall limit',
      request: python('import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n', {
        limits: { wallMs: 2_000, processes: 32 },
      }),
      expected: 'timeout',
    },
    {
      name: 'a memory bomb in Python runs out of memory',
      request: python('blocks = []\nwhile True:\n    blocks.append(bytearray(10_000_000))\n', {
        limits: { memoryBytes: 256 * 2 ** 20 },
      }),
      expected: 'memory',
    },
    {
      name: 'a memory bomb in JavaScript runs out of memory',
      request: {
        language: 'javascript',
        files: { 'main.js': 'const blocks = []\nfor (;;) blocks.push(new Array(1_000_000).fill(1.5))\n' },
        limits: { memoryBytes: 256 * 2 ** 20 },
      },
      expected: 'memory',
    },
    {
      name: 'a memory bomb in C runs out of memory',
      request: {
        language: 'c',
        files: {
          'main.c':
            '#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\nint main(void) {\n  for (;;) {\n    char *block = malloc(1 << 20);\n    if (!block) {\n      perror("malloc");\n      return 3;\n    }\n    memset(block, 1, 1 << 20);\n  }\n}\n',
        },
        limits: { memoryBytes: 128 * 2 ** 20 },
      },
      expected: 'memory',
    },
    {
      name: '100 MB of output is capped, counted, and the marker after it still found',
      request: withChecks(
        'python',
        "import sys\nchunk = 'x' * 2 ** 20\nfor _ in range(100):\n    sys.stdout.write(chunk)\nprint()",
        '',
      ),
      expected: 'passed',
      check: (result) => {
        if (!result.stdout.truncated || result.stdout.text.length !== 2 ** 20)
          throw new Error('stdout was not capped at 1 MiB.')
        if (result.stdout.bytes < 100 * 2 ** 20)
          throw new Error(`Only ${result.stdout.bytes} bytes of stdout were counted.`)
      },
    },
    {
      name: 'opening a network connection fails, to the internet and to the host',
      request: python(
        `import socket\nfor address in [('127.0.0.1', ${host.listenerPort}), ('1.1.1.1', 53)]:\n    try:\n        socket.create_connection(address, timeout=2).close()\n        print('connected to', address)\n    except OSError as error:\n        print('blocked', address, error)\n`,
      ),
      expected: 'passed',
      check: (result) => {
        if (result.stdout.text.includes('connected'))
          throw new Error(`The program got a connection: ${result.stdout.text}`)
        if (host.connectionsSeen() !== 0) throw new Error('The host listener saw a connection from the sandbox.')
      },
    },
    {
      name: 'a user namespace cannot be made, nor the image written',
      request: python(
        'import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\nprint(libc.unshare(0x10000000))\n' +
          "for path in ('/usr/testbench-write', '/etc/testbench-write', '/testbench-write'):\n    try:\n        open(path, 'w')\n        print('wrote', path)\n    except OSError:\n        pass\n",
      ),
      expected: 'passed',
      check: (result) => {
        if (result.stdout.text !== '-1\n')
          throw new Error(`The program made a user namespace or wrote outside its dirs: ${result.stdout.text}`)
      },
    },
    {
      name: 'reading an API key from the environment finds nothing',
      request: python('import os\nprint(sorted(os.environ.items()))\n'),
      expected: 'passed',
      check: (result) => {
        if (/canary|API_KEY|TOKEN|SECRET/.test(result.stdout.text))
          throw new Error(`A secret leaked: ${result.stdout.text}`)
      },
    },
    {
      name: 'writing outside the work dir fails or stays inside the sandbox',
      request: python(
        `import os\nfor path in ['/etc/testbench-escape', '/usr/testbench-escape', '/var/tmp/testbench-escape', ${JSON.stringify(host.canaryFile)}]:\n    try:\n        with open(path, 'a') as f:\n            f.write('escaped')\n        print('wrote', path)\n    except OSError as error:\n        print('refused', path, error)\nopen('inside.txt', 'w').write('fine')\n`,
      ),
      expected: 'passed',
      check: async () => {
        const { existsSync, readFileSync } = await import('node:fs')
        for (const path of ['/etc/testbench-escape', '/usr/testbench-escape', '/var/tmp/testbench-escape']) {
          if (existsSync(path)) throw new Error(`The program created ${path} on the host.`)
        }
        if (readFileSync(host.canaryFile, 'utf8') !== 'canary') throw new Error('The program changed the canary file.')
      },
    },
    {
      name: 'deleting files outside the work dir fails',
      request: python(
        `import os, shutil\nfor path in [${JSON.stringify(host.canaryFile)}]:\n    try:\n        os.remove(path)\n        print('deleted', path)\n    except OSError as error:\n        print('refused', path, error)\ntry:\n    shutil.rmtree(os.path.dirname(${JSON.stringify(host.canaryFile)}))\nexcept OSError as error:\n    print('refused', error)\n`,
      ),
      expected: 'passed',
      check: async () => {
        const { readFileSync } = await import('node:fs')
        if (readFileSync(host.canaryFile, 'utf8') !== 'canary') throw new Error('The canary file is gone or changed.')
      },
    },
    {
      name: 'killing its parent ends at most its own run',
      request: python(
        "import os, signal, time\nos.kill(os.getppid(), signal.SIGKILL)\ntime.sleep(0.2)\nprint('still here')\n",
      ),
      expected: ['passed', 'runtime_error'],
    },
    {
      name: 'kill(-1) reaches only the sandbox itself',
      request: python("import os, signal, time\nos.kill(-1, signal.SIGKILL)\ntime.sleep(1)\nprint('survived')\n"),
      // Cold, the program's own wrappers share its uid and die, ending the run; warm, nothing else does.
      expected: ['passed', 'runtime_error'],
    },
    {
      name: 'a child that outlives its parent is killed with the sandbox',
      request: python(
        `import subprocess\nsubprocess.Popen(['/bin/sh', '-c', 'sleep 1000; : ${orphan}'], start_new_session=True)\nprint('parent done')\n`,
      ),
      expected: 'passed',
      check: async () => {
        await new Promise((resolve) => setTimeout(resolve, 200))
        const left = host.processesWith(orphan)
        if (left.length > 0) throw new Error(`Processes left behind: ${left.join(', ')}`)
      },
    },
    {
      name: 'a child sleeping past the limit in a new session dies with the timed-out run',
      request: python(
        `import os, subprocess, time\nsubprocess.Popen(['/bin/sh', '-c', 'sleep 1000; : ${orphanOfTimeout}'], start_new_session=True)\ntime.sleep(1000)\n`,
        { limits: { wallMs: 1_500 } },
      ),
      expected: 'timeout',
      check: async () => {
        await new Promise((resolve) => setTimeout(resolve, 200))
        const left = host.processesWith(orphanOfTimeout)
        if (left.length > 0) throw new Error(`Processes left behind: ${left.join(', ')}`)
      },
    },
    {
      name: 'printing the real marker from code that then fails does not pass',
      request: {
        language: 'python',
        files: (marker) => ({
          'main.py': `print(${JSON.stringify(marker)})\nraise ValueError('the checks fail')\n${printMarker('python', marker)}\n`,
        }),
      },
      expected: 'runtime_error',
      check: (result) => {
        if (result.markerSeen !== true) throw new Error('The marker was printed but not seen.')
      },
    },
    {
      name: 'printing a guessed marker and exiting 0 does not pass',
      request: withChecks(
        'python',
        "print('TESTBENCH_PASS_00000000000000000000000000000000')\nraise SystemExit(0)",
        'assert False',
      ),
      expected: 'runtime_error',
    },
    {
      name: 'sys.exit(0) before the checks does not pass',
      request: withChecks('python', 'import sys\nsys.exit(0)', 'assert 1 + 1 == 3'),
      expected: 'runtime_error',
    },
    {
      name: 'os._exit(0) before the checks does not pass',
      request: withChecks('python', 'import os\nos._exit(0)', 'assert 1 + 1 == 3'),
      expected: 'runtime_error',
    },
    {
      name: 'process.exit(0) before the checks does not pass',
      request: withChecks('javascript', 'process.exit(0)', 'throw new Error("checks")'),
      expected: 'runtime_error',
    },
    {
      name: 'files the program writes come back when asked for; a symlink out of the work dir does not',
      request: python(
        `import os\nopen('out.txt', 'w').write('result 42')\nos.makedirs('sub')\nopen('sub/deep.txt', 'w').write('deep')\nos.symlink(${JSON.stringify(host.canaryFile)}, 'escape.txt')\n`,
        { collect: ['out.txt', 'sub/deep.txt', 'escape.txt', 'missing.txt'] },
      ),
      expected: 'passed',
      check: (result) => {
        const files = JSON.stringify(result.files)
        if (files !== JSON.stringify({ 'out.txt': 'result 42', 'sub/deep.txt': 'deep' }))
          throw new Error(`Collected ${files}.`)
      },
    },
    {
      name: 'a program whose checks pass prints the marker and passes',
      request: withChecks('python', 'def add(a, b):\n    return a + b', 'assert add(2, 3) == 5'),
      expected: 'passed',
      check: (result) => {
        if (result.markerSeen !== true) throw new Error('The marker was not seen.')
      },
    },
  ]
}

/** A program that imports the harness's modules (RunRequest.pythonModules), one of which imports the other. */
export const WITH_MODULES = {
  language: 'python',
  files: { 'main.py': 'import driver\nprint(driver.answer())\n' },
  pythonModules: { base: 'X = 6\n', driver: 'import base\n\n\ndef answer():\n    return base.X * 7\n' },
} as const satisfies RunRequest

/** Hello world and a compile error for every language. */
export const HELLO: Record<Language, { files: Record<string, string>; broken: Record<string, string> }> = {
  python: { files: { 'main.py': 'print("hello")\n' }, broken: { 'main.py': 'def f(:\n    pass\n' } },
  javascript: { files: { 'main.js': 'console.log("hello")\n' }, broken: { 'main.js': 'function (\n' } },
  java: {
    files: {
      'Main.java':
        'public class Main {\n  public static void main(String[] args) {\n    System.out.println("hello");\n  }\n}\n',
    },
    broken: {
      'Main.java': 'public class Main {\n  public static void main(String[] args) {\n    int x = "hello";\n  }\n}\n',
    },
  },
  rust: {
    files: { 'main.rs': 'fn main() {\n    println!("hello");\n}\n' },
    broken: { 'main.rs': 'fn main() {\n    let x: i32 = "hello";\n}\n' },
  },
  go: {
    files: { 'main.go': 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("hello")\n}\n' },
    broken: { 'main.go': 'package main\n\nfunc main() {\n\tvar x int = "hello"\n}\n' },
  },
  c: {
    files: { 'main.c': '#include <stdio.h>\nint main(void) {\n  puts("hello");\n  return 0;\n}\n' },
    broken: { 'main.c': 'int main(void) {\n  return undefined_name;\n}\n' },
  },
  cpp: {
    files: { 'main.cpp': '#include <iostream>\nint main() {\n  std::cout << "hello" << std::endl;\n}\n' },
    broken: { 'main.cpp': '#include <string>\nint main() {\n  int x = std::string("hello");\n}\n' },
  },
  clojure: {
    files: { 'main.clj': '(println "hello")\n' },
    broken: { 'main.clj': '(println (undefined-function 1))\n' },
  },
}

/** Forks sleeping children until the process limit refuses one; prints how many processes it had then, itself included. */
export const FORK_UNTIL_THE_LIMIT = `import os, time
started = 0
try:
    while True:
        if os.fork() == 0:
            time.sleep(30)
            os._exit(0)
        started += 1
except OSError:
    print(started + 1)`
