import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cacheDir } from '../../models/knobs.ts'

/**
 * The container tier's seccomp profile (the OCI format engines take): the same refusals as the process
 * tier's filter (seccomp-filter.ts) on top of allowing everything else, which the engine's own default
 * profile would otherwise decide. No new user namespaces, no ptrace or process_vm_*, no memfd or SysV
 * shared memory (memory no rlimit counts), no keyring, bpf, perf, userfaultfd or io_uring, no prlimit of another process.
 */
const CLONE_NEWUSER = 0x10000000
const EPERM = 1
const ENOSYS = 38

export const CONTAINER_SECCOMP_PROFILE = {
  defaultAction: 'SCMP_ACT_ALLOW',
  syscalls: [
    {
      names: [
        'ptrace',
        'process_vm_readv',
        'process_vm_writev',
        'memfd_create',
        'shmget',
        'keyctl',
        'add_key',
        'request_key',
        'bpf',
        'perf_event_open',
        'userfaultfd',
        'io_uring_setup',
        'pidfd_getfd',
      ],
      action: 'SCMP_ACT_ERRNO',
      errnoRet: EPERM,
    },
    ...['unshare', 'clone'].map((name) => ({
      names: [name],
      action: 'SCMP_ACT_ERRNO',
      errnoRet: EPERM,
      args: [{ index: 0, value: CLONE_NEWUSER, valueTwo: CLONE_NEWUSER, op: 'SCMP_CMP_MASKED_EQ' }],
    })),
    // Of this process only (pid 0): GNU time and prlimit, of the program's uid, keep their limits.
    {
      names: ['prlimit64'],
      action: 'SCMP_ACT_ERRNO',
      errnoRet: EPERM,
      args: [{ index: 0, value: 0, op: 'SCMP_CMP_NE' }],
    },
    // Its flags are in memory a filter cannot read: the C library falls back to clone.
    { names: ['clone3'], action: 'SCMP_ACT_ERRNO', errnoRet: ENOSYS },
  ],
}

let profileFile: string | undefined

/**
 * The `SecurityOpt` entry that applies the profile: Docker takes the profile's JSON, podman a path to it,
 * which it opens itself (the engine must run on this machine, as podman's socket does). The file is named
 * by its content in the cache, so every process of every run shares one and none is left in /tmp.
 */
export function seccompSecurityOpt(podman: boolean): string {
  if (!podman) return `seccomp=${JSON.stringify(CONTAINER_SECCOMP_PROFILE)}`
  profileFile ??= writtenProfile()
  return `seccomp=${profileFile}`
}

function writtenProfile(): string {
  const json = JSON.stringify(CONTAINER_SECCOMP_PROFILE)
  const dir = join(cacheDir(), 'sandbox')
  const file = join(dir, `seccomp-${createHash('sha256').update(json).digest('hex').slice(0, 16)}.json`)
  if (existsSync(file)) return file
  mkdirSync(dir, { recursive: true })
  // Written aside and renamed, so that a process of another worker never reads half a profile.
  const partial = `${file}.${process.pid}.partial`
  writeFileSync(partial, json, { mode: 0o644 })
  renameSync(partial, file)
  return file
}
