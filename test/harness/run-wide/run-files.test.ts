import { expect, test } from 'vitest'
import { RunFiles } from '../../../harness/run-wide/run-files.ts'

test('a file is awaited until it asks or ends, while it runs or a worker is free for it', () => {
  const files = new RunFiles()
  const changes: string[] = []
  const stop = files.onChange(() => changes.push('changed'))
  expect(files.awaited()).toBe(false)
  files.expect(['/p/a.test.ts', '/p/b.test.ts', 'C:\\p\\c.test.ts'], 2)
  expect(files.awaited()).toBe(true)
  files.started('/p/a.test.ts')
  files.asked('/p/a.test.ts')
  expect(files.awaited()).toBe(true)
  // b runs and holds the other worker: c starts only once a or b ends, so only b is waited for.
  files.started('/p/b.test.ts')
  expect(files.awaited()).toBe(true)
  files.asked('/p/b.test.ts')
  expect(files.awaited()).toBe(false)
  files.ended('/p/a.test.ts')
  expect(files.awaited()).toBe(true)
  // A worker names a file with the platform's separator, Vitest with forward slashes.
  files.asked('C:/p/c.test.ts')
  expect(files.awaited()).toBe(false)
  // A file asking again, or the end of one never expected, changes nothing.
  const heard = changes.length
  files.asked('/p/b.test.ts')
  files.ended('/p/d.test.ts')
  expect(changes).toHaveLength(heard)
  stop()
  files.ended('/p/b.test.ts')
  expect(changes).toHaveLength(heard)
})

test('a file that ends without asking is no longer awaited', () => {
  const files = new RunFiles()
  files.expect(['a.test.ts'], 4)
  files.started('a.test.ts')
  expect(files.awaited()).toBe(true)
  files.ended('a.test.ts')
  expect(files.awaited()).toBe(false)
})
