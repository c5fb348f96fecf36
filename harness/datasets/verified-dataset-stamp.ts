/**
 * A dataset file's sha256 is checked once per version of the file, not once per run: after a file
 * has matched its pin, a stamp in the cache records the file's identity (device, inode, size, change
 * and modification times, in nanoseconds) and the hash it matched. A later run whose file still has
 * that identity skips the hashing; any write to the file changes its change time (which no user can
 * set back), so a replaced or damaged file is hashed, and refused, again.
 */
import { createHash } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomically } from '../atomic-file.ts'

/** Where the stamp of `path` lives under `cacheDir`. */
export function stampPath(cacheDir: string, path: string): string {
  return join(cacheDir, 'datasets', 'verified', `${createHash('sha256').update(path).digest('hex').slice(0, 32)}.json`)
}

/** Whether `path` is the same version of the file that matched `sha256` before. */
export async function verifiedBefore(cacheDir: string, path: string, sha256: string): Promise<boolean> {
  try {
    const [stamp, identity] = await Promise.all([readFile(stampPath(cacheDir, path), 'utf8'), fileIdentity(path)])
    return stamp === stampText(path, identity, sha256)
  } catch {
    return false
  }
}

/**
 * Records that `path` matched `sha256` when it had `identity` (taken before it was hashed, so that a write
 * during the hashing leaves a stamp that no longer fits); a cache that cannot be written only means hashing again.
 */
export async function stampVerified(cacheDir: string, path: string, identity: string, sha256: string): Promise<void> {
  try {
    await writeFileAtomically(stampPath(cacheDir, path), stampText(path, identity, sha256))
  } catch {
    // Not an error: the stamp only saves time.
  }
}

/** What changes whenever the file is written or replaced. */
export async function fileIdentity(path: string): Promise<string> {
  const { dev, ino, size, ctimeNs, mtimeNs } = await stat(path, { bigint: true })
  return [dev, ino, size, ctimeNs, mtimeNs].join(':')
}

function stampText(path: string, identity: string, sha256: string): string {
  return `${JSON.stringify({ path, identity, sha256 })}\n`
}
