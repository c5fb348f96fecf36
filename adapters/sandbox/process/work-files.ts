import { lstat, open, readdir, type FileHandle } from 'node:fs/promises'
import { join, relative } from 'node:path'
import type { WorkFile } from './bwrap-args.ts'

/** At most this many files are copied into a run's work dir (a program and its compiled output need a few). */
export const MAX_WORK_FILES = 256

/** The work dir's files, opened for bwrap to copy into the sandbox's own tmpfs; close them after the run. */
export interface OpenWorkFiles {
  files: WorkFile[]
  handles: FileHandle[]
}

/**
 * Opens every regular file under `work` (the sources and what the compile step left) so that the run gets
 * copies in its size-capped /tmp, not the host's dir. Undefined, with the reason, when they would not fit:
 * more than MAX_WORK_FILES files or `maxBytes` in all, which the program's own source or compile made so.
 */
export async function openWorkFiles(
  work: string,
  maxBytes: number,
  firstFd: number,
): Promise<OpenWorkFiles | { tooBig: string }> {
  const found: Array<{ path: string; executable: boolean }> = []
  let bytes = 0
  const visit = async (dir: string): Promise<string | undefined> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) {
        const problem = await visit(path)
        if (problem !== undefined) return problem
      } else if (entry.isFile()) {
        const stat = await lstat(path)
        bytes += stat.size
        found.push({ path, executable: (stat.mode & 0o111) !== 0 })
        if (found.length > MAX_WORK_FILES) return `more than ${MAX_WORK_FILES} files`
        if (bytes > maxBytes)
          return `more than ${maxBytes} bytes, the size of the sandbox's /tmp (TESTBENCH_SANDBOX_TMPFS_MB)`
      }
    }
    return undefined
  }
  const problem = await visit(work)
  if (problem !== undefined) return { tooBig: `The program's files and what its compile step made come to ${problem}.` }
  const handles: FileHandle[] = []
  try {
    for (const file of found) handles.push(await open(file.path, 'r'))
  } catch (error) {
    await Promise.all(handles.map((handle) => handle.close()))
    throw error
  }
  return {
    handles,
    files: found.map((file, index) => ({
      fd: firstFd + index,
      path: relative(work, file.path),
      executable: file.executable,
    })),
  }
}
