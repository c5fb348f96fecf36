import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { cannotRunHere, UNPRIVILEGED } from './run-suite-as.ts'
import { skipForMissing } from '../support/required-tool.ts'

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/** A checkout's skeleton (what the probe reads) inside a directory of the given mode, as `mktemp -d` makes one (0700). */
function checkoutIn(mode: number): string {
  const parent = mkdtempSync(join(tmpdir(), 'checkout-parent-'))
  dirs.push(parent)
  const checkout = join(parent, 'llm-testbench')
  mkdirSync(join(checkout, 'node_modules', 'vitest'), { recursive: true })
  writeFileSync(join(checkout, 'node_modules', 'vitest', 'vitest.mjs'), '')
  chmodSync(parent, mode)
  return checkout
}

describe.skipIf(process.getuid?.() !== 0)('whether another user can run the suite in this checkout (as root)', () => {
  test('a checkout in a private directory is closed to an ordinary user: the reason says where and what to do, at once', () => {
    const checkout = checkoutIn(0o700)
    const started = performance.now()
    const reason = cannotRunHere(UNPRIVILEGED, checkout)
    expect(reason).toMatch(
      new RegExp(
        `uid 65534 can enter, and ${checkout} is closed to it \\(.*EACCES.*\\): clone the repository under a directory other users can enter`,
      ),
    )
    // The probe fails as the child starts, not at a timeout.
    expect(performance.now() - started).toBeLessThan(20_000)
  })

  test('a checkout others can enter is open to them', (context) => {
    // The probe runs this checkout's Node, which a closed checkout keeps from them whatever the probed one allows.
    const closed = cannotRunHere(UNPRIVILEGED)
    if (closed !== undefined) skipForMissing(context, closed, 'a checkout other users cannot enter')
    expect(cannotRunHere(UNPRIVILEGED, checkoutIn(0o755))).toBeUndefined()
  })
})
