import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * Global setup of the harness tests: every temp dir a test makes, and every temp dir of the runs and
 * sandboxes it starts, goes under one root of this run (through TMPDIR, which the workers and their
 * children inherit), and the root is removed when the run ends, whether its tests passed or not.
 */
export default function setup(): () => void {
  const before = process.env.TMPDIR
  const root = mkdtempSync(join(tmpdir(), 'testbench-tests-'))
  // Like /tmp itself: the sandbox's throwaway uids must be able to reach their work dirs in here.
  chmodSync(root, 0o1777)
  process.env.TMPDIR = root
  const remove = (): void => rmSync(root, { recursive: true, force: true, maxRetries: 3 })
  // A run that stops before its items (harness/stop-before-items.ts) ends the process without teardowns.
  process.once('exit', remove)
  return () => {
    process.off('exit', remove)
    if (before === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = before
    remove()
  }
}
