/**
 * A claim on one task's calibration, so that the workers of a run (each part file calibrates the
 * whole selection) run each canonical solution once: a lock file beside the result, made with
 * O_EXCL, holding who made it. A claim whose maker is gone (its process ended, on this host) or
 * that is older than `staleMs` is taken over.
 */
import { hostname } from 'node:os'
import { open, readFile, rm, stat } from 'node:fs/promises'

export interface Claim {
  release(): Promise<void>
}

interface Holder {
  pid: number
  host: string
  since: number
}

/** The claim on `file`'s lock, or undefined when another live process holds it. */
export async function claim(lock: string, staleMs: number): Promise<Claim | undefined> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(lock, 'wx')
      const holder: Holder = { pid: process.pid, host: hostname(), since: Date.now() }
      await handle.writeFile(JSON.stringify(holder))
      await handle.close()
      return { release: () => rm(lock, { force: true }) }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    if (!(await isStale(lock, staleMs))) return undefined
    await rm(lock, { force: true })
  }
  return undefined
}

async function isStale(lock: string, staleMs: number): Promise<boolean> {
  try {
    if (Date.now() - (await stat(lock)).mtimeMs > staleMs) return true
    const holder = JSON.parse(await readFile(lock, 'utf8')) as Partial<Holder>
    return holder.host === hostname() && typeof holder.pid === 'number' && !isAlive(holder.pid)
  } catch {
    // Gone, being written this instant, or unreadable: stale only once old enough to be sure.
    return false
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
