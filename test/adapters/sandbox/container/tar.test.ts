import { execFileSync } from 'node:child_process'
import { expect, test } from 'vitest'
import { packTar, unpackTar } from '../../../../adapters/sandbox/container/tar.ts'
import { onPath, skipWithoutTool } from '../../../support/required-tool.ts'

test('a packed tar unpacks to the same files, and GNU tar reads it with the owner we set', (context) => {
  const tar = onPath('tar')
  skipWithoutTool(context, { name: 'GNU tar', install: 'apt-get install tar' }, tar === undefined)
  const long = `${'deep/'.repeat(30)}file.txt`
  const files = { 'main.py': 'print("é")\n', 'src/lib.rs': 'fn f() {}', [long]: 'x'.repeat(1000) }
  const packed = packTar(files, 65534)
  expect(unpackTar(packed).map((entry) => [entry.name, entry.content.toString('utf8')])).toEqual(Object.entries(files))
  const listing = execFileSync(tar ?? 'tar', ['-tv', '--numeric-owner'], { input: packed, encoding: 'utf8' })
  expect(listing).toMatch(/-rw-r--r-- 65534\/65534 +\d+ .* main\.py/)
  expect(listing).toContain(long)
})

test('a name too long for ustar is refused with what to do', () => {
  expect(() => packTar({ ['x'.repeat(120)]: '' }, 0)).toThrow(/too long.*under 100 bytes/)
})
