import { constants } from 'node:fs'
import { open, realpath } from 'node:fs/promises'
import { join, sep } from 'node:path'

/**
 * Reads back the files a program wrote, once none of its processes are left. A name that
 * resolves outside the work dir (a symlink to a host file) or is not a regular file is skipped.
 */
export async function collectFiles(
  work: string,
  names: readonly string[],
  capBytes: number,
): Promise<Record<string, string>> {
  const files: Record<string, string> = {}
  const inside = (await realpath(work)) + sep
  for (const name of names) {
    try {
      const real = await realpath(join(work, name))
      if (!real.startsWith(inside)) continue
      const file = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
      try {
        if (!(await file.stat()).isFile()) continue
        const buffer = Buffer.alloc(capBytes)
        const { bytesRead } = await file.read(buffer, 0, capBytes, 0)
        files[name] = buffer.subarray(0, bytesRead).toString('utf8')
      } finally {
        await file.close()
      }
    } catch {
      // not there, or not readable: not collected
    }
  }
  return files
}
