/**
 * A seccomp filter (classic BPF, as bwrap's --seccomp and prctl(PR_SET_SECCOMP) take it) that
 * keeps sandboxed programs from making user namespaces, which would give them root inside and
 * the kernel surface that comes with it, and from a few calls that only exploits need:
 *
 * - clone and unshare with CLONE_NEWUSER fail with EPERM; clone3 fails with ENOSYS, because its
 *   flags sit in memory a filter cannot read (the C library then falls back to clone);
 * - keyctl, add_key, request_key (the kernel keyring is not namespaced), bpf, perf_event_open,
 *   userfaultfd, io_uring_setup, ptrace of other processes' memory by pidfd (pidfd_getfd) fail with EPERM;
 * - ptrace, process_vm_readv and process_vm_writev fail with EPERM: a program has no business in another
 *   process's memory (its parent in the sandbox, GNU time or prlimit, runs as the same uid);
 * - memfd_create and shmget fail with EPERM: memory in a memfd written with write() and SysV shared
 *   memory are counted by no rlimit (RLIMIT_AS counts them only once mapped, RLIMIT_FSIZE not at all),
 *   and /dev/shm, the size-capped tmpfs, does the same job;
 * - prlimit64 of another process fails with EPERM (of itself, pid 0, as the C library calls it, it works): the
 *   processes around a program that share its uid (its namespace's init in a user namespace, GNU time) keep their limits;
 * - another architecture's calls (x32 on x86-64, 32-bit syscalls) kill the process.
 */

interface Arch {
  audit: number
  /** Calls numbered at or above this are another ABI (x32); 0 when there is none. */
  foreignAbove: number
  clone: number
  unshare: number
  clone3: number
  prlimit64: number
  denied: readonly number[]
}

const ARCHES: Partial<Record<NodeJS.Architecture, Arch>> = {
  x64: {
    audit: 0xc000003e,
    foreignAbove: 0x40000000,
    clone: 56,
    unshare: 272,
    clone3: 435,
    prlimit64: 302,
    // keyctl, add_key, request_key, bpf, perf_event_open, userfaultfd, io_uring_setup, pidfd_getfd, memfd_create, shmget,
    // ptrace, process_vm_readv, process_vm_writev
    denied: [250, 248, 249, 321, 298, 323, 425, 438, 319, 29, 101, 310, 311],
  },
  arm64: {
    audit: 0xc00000b7,
    foreignAbove: 0,
    clone: 220,
    unshare: 97,
    clone3: 435,
    prlimit64: 261,
    denied: [219, 217, 218, 280, 241, 282, 425, 438, 279, 194, 117, 270, 271],
  },
}

const CLONE_NEWUSER = 0x10000000
const EPERM = 1
const ENOSYS = 38

const LD_W_ABS = 0x20
const JEQ_K = 0x15
const JGE_K = 0x35
const JSET_K = 0x45
const RET_K = 0x06
const RET_ALLOW = 0x7fff0000
const RET_KILL_PROCESS = 0x80000000
const retErrno = (errno: number): number => 0x00050000 | errno

/** seccomp_data: nr at 0, arch at 4, args[i] at 16 + 8i (their low 32 bits first on little-endian machines). */
const OFFSET_NR = 0
const OFFSET_ARCH = 4
const OFFSET_ARG0 = 16

type Instruction = [code: number, jt: number, jf: number, k: number]

/** The filter for this machine, or undefined where its architecture has no table here. */
export function seccompFilter(arch: NodeJS.Architecture = process.arch): Buffer | undefined {
  const table = ARCHES[arch]
  if (table === undefined) return undefined
  const program: Instruction[] = [
    [LD_W_ABS, 0, 0, OFFSET_ARCH],
    [JEQ_K, 1, 0, table.audit],
    [RET_K, 0, 0, RET_KILL_PROCESS],
    [LD_W_ABS, 0, 0, OFFSET_NR],
  ]
  if (table.foreignAbove > 0) {
    program.push([JGE_K, 0, 1, table.foreignAbove], [RET_K, 0, 0, RET_KILL_PROCESS])
  }
  program.push([JEQ_K, 0, 1, table.clone3], [RET_K, 0, 0, retErrno(ENOSYS)])
  for (const nr of table.denied) program.push([JEQ_K, 0, 1, nr], [RET_K, 0, 0, retErrno(EPERM)])
  // prlimit64: its pid (the low 32 bits of the first argument, as the kernel reads a pid_t) must be 0, this process.
  program.push(
    [JEQ_K, 0, 4, table.prlimit64],
    [LD_W_ABS, 0, 0, OFFSET_ARG0],
    [JEQ_K, 0, 1, 0],
    [RET_K, 0, 0, RET_ALLOW],
    [RET_K, 0, 0, retErrno(EPERM)],
  )
  // clone and unshare: look at the flags in the first argument.
  program.push(
    [JEQ_K, 1, 0, table.clone],
    [JEQ_K, 0, 3, table.unshare],
    [LD_W_ABS, 0, 0, OFFSET_ARG0],
    [JSET_K, 0, 1, CLONE_NEWUSER],
    [RET_K, 0, 0, retErrno(EPERM)],
    [RET_K, 0, 0, RET_ALLOW],
  )
  const buffer = Buffer.alloc(program.length * 8)
  program.forEach(([code, jt, jf, k], index) => {
    buffer.writeUInt16LE(code, index * 8)
    buffer.writeUInt8(jt, index * 8 + 2)
    buffer.writeUInt8(jf, index * 8 + 3)
    buffer.writeUInt32LE(k >>> 0, index * 8 + 4)
  })
  return buffer
}
