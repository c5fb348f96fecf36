import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { warnOnce } from '../warn-once.ts'

/** The isolation primitives this host offers the process tier. */
export interface HostProtections {
  /** bwrap: no network, read-only filesystem, own pid namespace (the whole tree dies with it). */
  bwrap: string | undefined
  /** Why bwrap is undefined (missing, or it cannot create namespaces here), for the message that stops a run. */
  bwrapProblem?: string
  /** `bubblewrap 0.8.0`, as `bwrap --version` says: the reports record the tier that ran. */
  bwrapVersion?: string
  /** prlimit: CPU, memory, file size, process and open-file limits. */
  prlimit: string | undefined
  /** setpriv: run as a throwaway uid, which the process limit needs when we are root. */
  setpriv: string | undefined
  /** kill: with SANDBOX=none as root, ends whatever a program's throwaway uid left running (`kill -KILL -1` as that uid). */
  kill: string | undefined
  /** GNU time: CPU time and peak memory of the tree. */
  time: string | undefined
  root: boolean
}

let detected: HostProtections | undefined

export function hostProtections(): HostProtections {
  detected ??= detect()
  return detected
}

/** Namespaces for bwrap; as root there is no user namespace, so the child can switch to a throwaway uid. */
export function bwrapNamespaceFlags(root: boolean): string[] {
  return [
    ...(root ? [] : ['--unshare-user']),
    '--unshare-ipc',
    '--unshare-pid',
    '--unshare-net',
    '--unshare-uts',
    '--unshare-cgroup-try',
  ]
}

/**
 * Why the process tier cannot isolate programs on this host, or undefined when it can. Programs
 * never run without it unless the user asked for that with SANDBOX=none.
 */
export function processTierProblem(
  protections: HostProtections,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  if (platform !== 'linux') {
    return `the process sandbox needs Linux's bubblewrap, which ${platform} does not have: run with SANDBOX=docker (Docker Desktop or podman, through DOCKER_HOST)`
  }
  const missing: string[] = []
  if (protections.bwrap === undefined) missing.push(protections.bwrapProblem ?? 'bwrap is missing')
  if (protections.prlimit === undefined) missing.push('prlimit is missing (apt-get install util-linux)')
  if (protections.root && protections.setpriv === undefined)
    missing.push(
      'setpriv is missing, which programs need to run as a throwaway uid under root (apt-get install util-linux)',
    )
  if (missing.length === 0) return undefined
  return `the process sandbox cannot isolate programs here: ${missing.join('; ')}. Fix that, or run with SANDBOX=docker (Docker or podman through DOCKER_HOST)`
}

/**
 * Why SANDBOX=none cannot run programs here, or undefined when it can: as root, what a program leaves behind
 * is killed by its throwaway uid, which takes setpriv and kill.
 */
export function unsandboxedProblem(protections: HostProtections): string | undefined {
  if (!protections.root || protections.setpriv === undefined || protections.kill !== undefined) return undefined
  return 'kill is not at /usr/bin/kill or /bin/kill, and SANDBOX=none needs it to end what a program leaves running (apt-get install procps)'
}

function detect(): HostProtections {
  const root = process.getuid?.() === 0
  const find = (...paths: string[]): string | undefined => paths.find((path) => existsSync(path))
  const protections: HostProtections = {
    bwrap: find('/usr/bin/bwrap'),
    prlimit: find('/usr/bin/prlimit'),
    setpriv: find('/usr/bin/setpriv'),
    kill: find('/usr/bin/kill', '/bin/kill'),
    time: find('/usr/bin/time'),
    root,
  }
  if (protections.bwrap === undefined) {
    protections.bwrapProblem = 'bwrap is not at /usr/bin/bwrap (apt-get install bubblewrap)'
  } else {
    const probe = spawnSync(
      protections.bwrap,
      [...bwrapNamespaceFlags(root), '--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', '--', '/bin/true'],
      {
        encoding: 'utf8',
        timeout: 10_000,
      },
    )
    if (probe.status !== 0) {
      const why = (probe.stderr || probe.error?.message || `exit status ${probe.status}`).trim().split('\n')[0]
      protections.bwrapProblem =
        `bwrap cannot create namespaces here (${why}); allow unprivileged user namespaces ` +
        '(sysctl kernel.unprivileged_userns_clone=1, or kernel.apparmor_restrict_unprivileged_userns=0 on Ubuntu 24.04) or run as root'
      protections.bwrap = undefined
    } else {
      const version = spawnSync(protections.bwrap, ['--version'], { encoding: 'utf8', timeout: 10_000 })
      protections.bwrapVersion = version.stdout.trim() || 'bubblewrap (version unknown)'
    }
  }
  if (protections.time === undefined) {
    warnOnce('time', 'GNU time not found (apt-get install time): CPU time and peak memory are not measured.')
  }
  return protections
}
