import { randomBytes } from 'node:crypto'
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { ProcessSandbox } from '../../../../adapters/sandbox/process/process-sandbox.ts'
import type { Language } from '../../../../adapters/sandbox/languages.ts'
import { skipWithoutSandbox } from '../../../support/sandbox-available.ts'

/**
 * What a sandboxed program and its compile step see of the host: toolchains and a few /etc files,
 * nothing of the run's data, cache or reports, the project, the user's home, /var or /run. Each
 * secret is placed where the old read-only view of the whole root showed it, by this run, under
 * a fresh name, and taken away afterwards.
 */

const token = randomBytes(8).toString('hex')
const SECRET = `testbench-secret-${token}`
const places: Record<string, string> = {}
const made: string[] = []

function plant(name: string, dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o755 })
  const path = join(dir, `answer-key-${token}.txt`)
  // Quoted, so that a C file that includes it compiles where it can be read.
  writeFileSync(path, `"${SECRET}"\n`, { mode: 0o644 })
  places[name] = path
  made.push(path)
}

const dataDir = mkdtempSync('/var/tmp/testbench-data-')
const cacheDir = mkdtempSync('/var/tmp/testbench-cache-')
const reportDir = mkdtempSync('/var/tmp/testbench-reports-')
made.push(dataDir, cacheDir, reportDir)
// Readable by anyone, as a shared dataset copy is: only the sandbox may keep a program out.
for (const dir of [dataDir, cacheDir, reportDir]) chmodSync(dir, 0o755)
plant('the data dir', join(dataDir, 'euler'))
plant('the reply cache', cacheDir)
plant('the reports', reportDir)
plant('the project tree', process.cwd())
plant('the home dir', homedir())
const saved = {
  data: process.env['TESTBENCH_DATA_DIR'],
  cache: process.env['TESTBENCH_CACHE_DIR'],
  reports: process.env['TESTBENCH_REPORT_DIR'],
}
process.env['TESTBENCH_DATA_DIR'] = dataDir
process.env['TESTBENCH_CACHE_DIR'] = cacheDir
process.env['TESTBENCH_REPORT_DIR'] = reportDir

const warm = new ProcessSandbox()
const cold = new ProcessSandbox({ warmPython: false })

afterAll(async () => {
  for (const path of made) rmSync(path, { recursive: true, force: true })
  for (const [name, value] of [
    ['TESTBENCH_DATA_DIR', saved.data],
    ['TESTBENCH_CACHE_DIR', saved.cache],
    ['TESTBENCH_REPORT_DIR', saved.reports],
  ] as const) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
  await warm.close()
  await cold.close()
})

/** Walks every directory the program can list, reading files, and prints what holds the secret. */
const SEARCH = `import os
needle = bytes.fromhex('${Buffer.from(SECRET).toString('hex')}')
found = []
for top in ['/']:
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames[:] = [d for d in dirnames if os.path.join(dirpath, d) not in ('/proc', '/sys', '/dev', '/usr')]
        for name in filenames:
            try:
                with open(os.path.join(dirpath, name), 'rb') as f:
                    if needle in f.read(1 << 16):
                        found.append(os.path.join(dirpath, name))
            except OSError:
                pass
print('found', found)
`

describe('the sandbox root', () => {
  test.for([
    ['warm', warm],
    ['cold', cold],
  ] as const)(
    'a %s Python program searching the whole visible file system finds no secret',
    async ([, sandbox], context) => {
      await skipWithoutSandbox(context)
      const direct = Object.values(places)
        .map((path) => `print(${JSON.stringify(path)}, os.path.exists(${JSON.stringify(path)}))`)
        .join('\n')
      const ran = await sandbox.run({
        language: 'python',
        files: { 'main.py': `${SEARCH}\n${direct}\n` },
        limits: { wallMs: 60_000, cpuSeconds: 60 },
      })
      expect(ran.outcome, ran.stderr.text).toBe('passed')
      expect(ran.stdout.text).toContain('found []\n')
      for (const path of Object.values(places)) expect(ran.stdout.text).toContain(`${path} False\n`)
    },
  )

  const compileTimeReads: Array<[Language, Record<string, string>]> = [
    [
      'c',
      {
        'main.c':
          '#include <stdio.h>\nstatic const char *key =\n#include "PATH"\n;\nint main(void) { puts(key); return 0; }\n',
      },
    ],
    ['rust', { 'main.rs': `fn main() { println!("{}", include_str!("PATH")); }\n` }],
  ]
  test.for(compileTimeReads)(
    'a %s compile step cannot read a secret at compile time',
    async ([language, files], context) => {
      await skipWithoutSandbox(context, [language])
      for (const [name, path] of Object.entries(places)) {
        const source = Object.fromEntries(
          Object.entries(files).map(([file, text]) => [file, text.replace('PATH', path)]),
        )
        const ran = await cold.run({ language, files: source })
        expect(ran.outcome, `${language} read ${name} at compile time`).toBe('compile_error')
        expect(`${ran.stdout.text}${ran.compileOutput ?? ''}`).not.toContain(SECRET)
      }
    },
  )

  test.for(['warm', 'cold'] as const)('a %s program cannot make a user namespace', async (kind, context) => {
    await skipWithoutSandbox(context)
    const sandbox = kind === 'warm' ? warm : cold
    const program = `import ctypes, os, subprocess
libc = ctypes.CDLL(None, use_errno=True)
print('unshare', libc.unshare(0x10000000), ctypes.get_errno() != 0)
print('unshare -U', subprocess.run(['unshare', '-U', 'true'], capture_output=True).returncode != 0)
`
    const ran = await sandbox.run({ language: 'python', files: { 'main.py': program } })
    expect(ran.stdout.text, ran.stderr.text).toBe('unshare -1 True\nunshare -U True\n')
  })

  test('a C program cannot make a user namespace either', async (context) => {
    await skipWithoutSandbox(context, ['c'])
    const program = `#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
int main(void) { printf("%d\\n", unshare(CLONE_NEWUSER)); return 0; }
`
    const ran = await cold.run({ language: 'c', files: { 'main.c': program } })
    expect(ran.stdout.text).toBe('-1\n')
  })
})
