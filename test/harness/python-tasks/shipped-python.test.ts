/**
 * The drivers shipped to the sandbox compiled: the loader runs the compiled code where the interpreter
 * is the build that compiled it, the sources where there is no compiled code, and refuses code compiled
 * for another build. Run here with the host's Python, on made-up modules.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { compile, programFiles } from '../../../harness/python-tasks/shipped-python.ts'
import { sandboxPython } from '../../support/sandbox-available.ts'

const SOURCES = {
  __main__: 'import helper\nprint(helper.twice(21), __name__)\n',
  helper: '"""A module."""\ndef twice(x):\n    return 2 * x\n',
}

function run(files: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), 'shipped-'))
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
  return spawnSync(sandboxPython(), ['-B', 'main.py'], { cwd: dir, encoding: 'utf8' })
}

describe('shipped Python programs', () => {
  test('compiled once, they run as __main__ with their modules importable, no source shipped', async () => {
    const code = await compile(SOURCES)
    expect(code).toBeDefined()
    const files = programFiles(SOURCES, code)
    expect(Object.keys(files).sort()).toEqual(['compiled.b64', 'main.py'])
    expect(run(files)).toMatchObject({ status: 0, stdout: '42 __main__\n' })
  })

  test('without compiled code, the sources are shipped and compiled in the sandbox', () => {
    expect(run(programFiles(SOURCES, undefined))).toMatchObject({ status: 0, stdout: '42 __main__\n' })
  })

  test('code compiled for another Python is refused, saying so', async () => {
    const code = await compile(SOURCES)
    const result = run(programFiles(SOURCES, `3.0.0 (another build)\n${code?.split('\n')[1] ?? ''}`))
    expect(result.status).toBe(1)
    expect(result.stderr).toMatch(/compiled for Python 3\.0\.0 .*set TESTBENCH_PYTHON/)
  })
})
