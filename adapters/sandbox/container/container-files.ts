import type Docker from 'dockerode'
import { execInContainer } from './container-exec.ts'
import { packTar, unpackTar } from './tar.ts'

/**
 * How a program's files get into its container and back out: as a tar on a trusted `tar`'s stdin and
 * stdout (the image's, run as the program's user before the program starts, or after it ended).
 * Docker's archive endpoint (`putArchive`) refuses any path of a read-only root that is not a volume,
 * tmpfs mounts included ("container rootfs is marked read-only"), and reads a tmpfs's underlying
 * directory rather than the tmpfs; an exec works the same on Docker and podman.
 */

const TAR_TIMEOUT_MS = 60_000

/**
 * Unpacks `files` into `dir` (made here), owned by `uid`, once `ready` exists (what the container's own start
 * prepares); throws (an infra_error: no program has run yet) when that or tar fails.
 */
export async function copyIntoContainer(
  container: Docker.Container,
  dir: string,
  files: Readonly<Record<string, string | Buffer>>,
  uid: number,
  ready: string,
): Promise<void> {
  const script =
    'i=0; until [ -e "$1" ] || [ $i -ge 200 ]; do sleep 0.05; i=$((i + 1)); done; [ -e "$1" ] || { echo "$1 was not made" >&2; exit 90; }; mkdir -p "$2" && exec tar -x -f - -C "$2"'
  const result = await execInContainer(container, ['sh', '-c', script, 'sh', ready, dir], {
    user: `${uid}:${uid}`,
    workingDir: '/',
    stdin: packTar(files, uid),
    capBytes: 16 * 1024,
    timeoutMs: TAR_TIMEOUT_MS,
  })
  if (result.exitCode !== 0) {
    throw new Error(
      `unpacking the program's files into ${dir} failed (exit status ${result.exitCode ?? 'unknown: it did not end'}): ${result.stderr.trim() || 'no message'}`,
    )
  }
}

/**
 * Reads back the regular files among `names` (relative to `dir`), each cut at `capBytes`. A name that is
 * missing, not a regular file (a symlink out of the dir included) or unreadable is left out: what the
 * program did to its own files is its outcome, never our failure.
 */
export async function copyOutOfContainer(
  container: Docker.Container,
  dir: string,
  names: readonly string[],
  uid: number,
  capBytes: number,
  totalCapBytes: number,
): Promise<Record<string, string>> {
  if (names.length === 0) return {}
  const result = await execInContainer(
    container,
    ['tar', '-c', '-f', '-', '--format=ustar', '-C', dir, '--', ...names],
    {
      user: `${uid}:${uid}`,
      workingDir: dir,
      capBytes: totalCapBytes,
      timeoutMs: TAR_TIMEOUT_MS,
    },
  ).catch(() => undefined)
  const files: Record<string, string> = {}
  if (result === undefined) return files
  const wanted = new Set(names)
  for (const entry of unpackTar(result.stdout)) {
    if (wanted.has(entry.name)) files[entry.name] = entry.content.subarray(0, capBytes).toString('utf8')
  }
  return files
}
