import { describe, expect, test } from 'vitest'
import {
  MAX_FILE_BYTES,
  MAX_WORKSPACE_BYTES,
  normalizeWorkspacePath,
  Workspace,
} from '../../../../suites/euler/tools/workspace.ts'

describe('the virtual workspace', () => {
  test('paths are normalized as POSIX normpath does, and a path that leaves the workspace is refused in upstream words', () => {
    expect(normalizeWorkspacePath('src/./a//b.py')).toEqual({ path: 'src/a/b.py' })
    expect(normalizeWorkspacePath('src\\main.py')).toEqual({ path: 'src/main.py' })
    expect(normalizeWorkspacePath('a/../b.py')).toEqual({ path: 'b.py' })
    expect(normalizeWorkspacePath('')).toEqual({ error: 'Path must not be empty.' })
    expect(normalizeWorkspacePath('./.')).toEqual({ error: 'Path must not be empty.' })
    for (const outside of [
      '../x',
      '..',
      'a/../../x',
      '/etc/passwd',
      '//x',
      '\\etc\\passwd',
      'notes/../../../etc/passwd',
    ]) {
      expect(normalizeWorkspacePath(outside), outside).toEqual({ error: 'Path must be workspace-relative.' })
    }
  })

  test('a file past its cap, or a workspace past its cap, is refused and nothing is written', () => {
    const workspace = new Workspace()
    expect(workspace.write('big.txt', 'x'.repeat(MAX_FILE_BYTES + 1))).toBe(
      `File too large: ${MAX_FILE_BYTES + 1} bytes, the limit is ${MAX_FILE_BYTES} bytes.`,
    )
    expect(workspace.list()).toEqual([])
    const files = MAX_WORKSPACE_BYTES / MAX_FILE_BYTES
    for (let index = 0; index < files; index++)
      expect(workspace.write(`f${index}`, 'x'.repeat(MAX_FILE_BYTES))).toBeUndefined()
    expect(workspace.write('one-more', 'x')).toMatch(/^Workspace full/)
    // Rewriting a file counts its new size only.
    expect(workspace.write('f0', 'y'.repeat(MAX_FILE_BYTES))).toBeUndefined()
  })

  test('files are listed as Python sorts them, by code point', () => {
    const workspace = new Workspace()
    for (const path of ['b.py', 'B.py', 'a/z.py', 'é.py', '😀.py', 'ﬀ.py']) workspace.write(path, '')
    expect(workspace.list()).toEqual(['B.py', 'a/z.py', 'b.py', 'é.py', 'ﬀ.py', '😀.py'])
  })
})
