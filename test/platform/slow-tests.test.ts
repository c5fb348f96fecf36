import { globSync } from 'node:fs'
import { expect, test } from 'vitest'
import { SLOW_TESTS } from '../../scripts/slow-tests.ts'
import { REPO_ROOT } from '../support/run-vitest.ts'

test('every test file npm run test:fast leaves out is there, so that a renamed one does not slip back into the fast loop', () => {
  const missing = SLOW_TESTS.filter((slow) => globSync(slow.glob, { cwd: REPO_ROOT }).length === 0).map(
    (slow) => slow.glob,
  )
  expect(missing).toEqual([])
  expect(new Set(SLOW_TESTS.map((slow) => slow.glob)).size).toBe(SLOW_TESTS.length)
})
