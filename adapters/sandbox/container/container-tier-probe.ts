/**
 * Whether an engine that answers really applies the container tier's protections: one container made
 * exactly as a run's is, a file copied in as a program's are, and a shell script (as the program's
 * user) that reports what it sees. An engine that lacks any of them stops the run before its first item
 * with one message naming what it lacks, instead of a run of infra_error items or programs run with less.
 */

/** What the probe container is asked for, to check against what the script sees. */
export interface ProbeRequest {
  uid: number
  processes: number
  memoryBytes: number
  /** The file copied in, and the text it holds. */
  fileName: string
  fileText: string
  workDir: string
}

export function probeScript(request: ProbeRequest): string {
  const { workDir, fileName } = request
  return [
    "grep -E '^(Seccomp|NoNewPrivs|CapEff):' /proc/self/status",
    'echo "uid: $(id -u)"',
    'echo "pids: $(cat /sys/fs/cgroup/pids.max /sys/fs/cgroup/pids/pids.max 2>/dev/null | head -n 1)"',
    'echo "memory: $(cat /sys/fs/cgroup/memory.max /sys/fs/cgroup/memory/memory.limit_in_bytes 2>/dev/null | head -n 1)"',
    "echo \"interfaces: $(ls /sys/class/net 2>/dev/null | tr '\\n' ' ')\"",
    `echo "file: $(cat ${workDir}/${fileName} 2>/dev/null)"`,
    'if touch /testbench-probe 2>/dev/null; then echo "root: writable"; else echo "root: read-only"; fi',
    `if cp /bin/true ${workDir}/testbench-probe-exec && ${workDir}/testbench-probe-exec; then echo "work: runs programs"; else echo "work: cannot run programs"; fi`,
    'if unshare -U true 2>/dev/null; then echo "user namespaces: allowed"; else echo "user namespaces: refused"; fi',
  ].join('\n')
}

/** What the engine lacks, one phrase each, from the script's output; empty when it has everything. */
export function probeLacks(output: string, request: ProbeRequest): string[] {
  const seen = new Map<string, string>()
  for (const line of output.split('\n')) {
    const colon = line.indexOf(':')
    if (colon > 0) seen.set(line.slice(0, colon).trim(), line.slice(colon + 1).trim())
  }
  const lacks: string[] = []
  if (seen.get('file') !== request.fileText)
    lacks.push(`a file copied into ${request.workDir} did not arrive (the program's files cannot be written there)`)
  if (seen.get('work') !== 'runs programs')
    lacks.push(`a compiled program cannot be run from ${request.workDir} (a tmpfs mounted noexec, or not writable)`)
  if (seen.get('Seccomp') !== '2')
    lacks.push(
      `its containers run without the seccomp profile (Seccomp: ${seen.get('Seccomp') ?? 'not shown'}; an engine built without seccomp support)`,
    )
  if (seen.get('user namespaces') !== 'refused')
    lacks.push('a program can create user namespaces (the seccomp profile was not applied)')
  if (seen.get('NoNewPrivs') !== '1') lacks.push('no-new-privileges is not applied')
  if (!/^0+$/.test(seen.get('CapEff') ?? ''))
    lacks.push(`capabilities are left to the program (CapEff: ${seen.get('CapEff') ?? 'not shown'})`)
  if (seen.get('uid') !== String(request.uid))
    lacks.push(`programs do not run as uid ${request.uid} (they ran as ${seen.get('uid') || 'unknown'})`)
  if (seen.get('pids') !== String(request.processes))
    lacks.push(
      `no pids limit (asked for ${request.processes}, the container's cgroup says ${seen.get('pids') || 'nothing'}; rootless engines on cgroup v1 cannot set one)`,
    )
  const memory = Number(seen.get('memory'))
  if (!Number.isFinite(memory) || memory > request.memoryBytes)
    lacks.push(
      `no memory limit (asked for ${request.memoryBytes} bytes, the container's cgroup says ${seen.get('memory') || 'nothing'})`,
    )
  if (seen.get('root') !== 'read-only') lacks.push('the image is writable (the read-only root was not applied)')
  if (seen.get('interfaces') !== 'lo')
    lacks.push(`it has network interfaces besides lo (${seen.get('interfaces') || 'none listed'})`)
  return lacks
}
