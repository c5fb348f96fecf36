import { dirname, join, normalize } from 'node:path'
import { bwrapNamespaceFlags } from './host-protections.ts'
import { rootMounts } from './sandbox-root.ts'

/** A file copied into the sandbox's own tmpfs from an open file descriptor that bwrap inherits. */
export interface WorkFile {
  fd: number
  /** Relative to the work dir. */
  path: string
  executable: boolean
}

/** The work dir: a host dir bound writable (a compile step, whose output the run needs), or files copied into /tmp's tmpfs. */
export type WorkDir = { inside: string; host: string } | { inside: string; files: readonly WorkFile[] }

export interface BwrapOptions {
  /** We are root: no user namespace, so the sandbox can switch to throwaway uids with the capabilities below. */
  root: boolean
  /** Size of the private /tmp (which holds a work dir made of `files`) and of the private /dev/shm. */
  tmpfsBytes: number
  /** Paths of the tools the sandbox runs: their install dirs are bound read-only. */
  tools: readonly string[]
  /** Host paths kept out even where a bound dir holds them. */
  hidden: readonly string[]
  work?: WorkDir
  /**
   * The root itself takes writes (BigCodeBench's tasks write to /fake, /target…, as in upstream's
   * container): a size-capped tmpfs (`tmpfsBytes`) open to every uid, which the warm Python server
   * empties of what a run added before the next. Otherwise the root is read-only.
   */
  writableRoot?: boolean
  capabilities: readonly string[]
  /** An fd bwrap reads a seccomp filter from, applied to the command and everything it starts. */
  seccompFd?: number
}

/**
 * bwrap's argv up to the command: no network, its own pid, IPC and UTS namespaces (everything
 * dies with it), a read-only root made of the system's toolchain dirs and a few `/etc` files,
 * size-capped tmpfs for /tmp and /dev/shm, and the work dir.
 */
export function bwrapArgs(bwrap: string, options: BwrapOptions): string[] {
  const size = String(options.tmpfsBytes)
  const args = [
    bwrap,
    ...bwrapNamespaceFlags(options.root),
    '--die-with-parent',
    '--new-session',
    ...(options.writableRoot ? ['--perms', '1777', '--size', size, '--tmpfs', '/'] : []),
    ...rootMounts(options.tools, options.hidden),
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--perms',
    '1777',
    '--size',
    size,
    '--tmpfs',
    '/dev/shm',
    '--perms',
    '1777',
    '--size',
    size,
    '--tmpfs',
    '/tmp',
  ]
  const work = options.work
  if (work !== undefined && 'host' in work) args.push('--bind', work.host, work.inside)
  if (work !== undefined && 'files' in work) {
    const dirs = new Set<string>([work.inside])
    for (const file of work.files) {
      for (let dir = dirname(join(work.inside, file.path)); dir.startsWith(work.inside); dir = dirname(dir))
        dirs.add(dir)
    }
    for (const dir of [...dirs].sort((a, b) => a.length - b.length)) args.push('--perms', '0777', '--dir', dir)
    for (const file of work.files)
      args.push(
        '--perms',
        file.executable ? '0777' : '0666',
        '--file',
        String(file.fd),
        normalize(join(work.inside, file.path)),
      )
  }
  if (work !== undefined) args.push('--chdir', work.inside)
  // bwrap builds the root on a tmpfs of no size limit, owned by the sandbox's user where it has a user
  // namespace: read-only, a program's writes land only in the size-capped /tmp and /dev/shm (and the work dir).
  if (!options.writableRoot) args.push('--remount-ro', '/')
  for (const capability of options.capabilities) args.push('--cap-add', capability)
  if (options.seccompFd !== undefined) args.push('--seccomp', String(options.seccompFd))
  return args
}
