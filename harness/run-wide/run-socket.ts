import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface RunSocket {
  /** Where the run's server listens: a Unix socket in a folder of its own, or a named pipe on Windows. */
  address: string
  /** Removes the socket's folder; call it once the server has closed. */
  remove: () => void
}

/**
 * A local socket for one of the run's servers (`slots`, `batches`). A run stopped by Ctrl-C or process.exit
 * skips Vitest's global teardown, so the folder also goes when the process exits.
 */
export function runSocket(name: string): RunSocket {
  if (process.platform === 'win32')
    return { address: `\\\\.\\pipe\\testbench-${name}-${process.pid}-${Date.now()}`, remove: () => {} }
  // A Unix socket path must stay under about 100 bytes.
  const base = tmpdir().length <= 60 ? tmpdir() : '/tmp'
  const dir = mkdtempSync(join(base, `testbench-${name}-`))
  const removeDir = (): void => rmSync(dir, { recursive: true, force: true })
  process.once('exit', removeDir)
  return {
    address: join(dir, `${name}.sock`),
    remove: () => {
      process.off('exit', removeDir)
      removeDir()
    },
  }
}
