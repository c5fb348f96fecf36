import { readdirSync, readFileSync } from 'node:fs'

/** Resident set of a process and all its descendants, in KiB, from /proc (Linux only); 0 for one gone meanwhile. */
export function treeKiB(pid: number): number {
  return [pid, ...descendants(pid)].reduce((sum, each) => sum + residentKiB(each), 0)
}

/**
 * CPU time of a process and all its descendants so far, in ms, from /proc (Linux only): each live one's user and
 * system time, and what its children that ended used (so a worker gone meanwhile still counts), at /proc's 100 ticks a second.
 */
export function treeCpuMs(pid: number): number {
  return [pid, ...descendants(pid)].reduce((sum, each) => sum + cpuMs(each), 0)
}

const MS_PER_TICK = 10

function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // After the command's name in parentheses: state is field 3, utime … cstime are fields 14 to 17.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks) * MS_PER_TICK, 0)
  } catch {
    return 0
  }
}

function residentKiB(pid: number): number {
  try {
    return Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0)
  } catch {
    return 0
  }
}

/** Every process a process started, and theirs, from /proc (Linux only); none for one gone. */
export function descendants(pid: number): number[] {
  const children: number[] = []
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const listed = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim()
      if (listed !== '') children.push(...listed.split(' ').map(Number))
    }
  } catch {
    return []
  }
  return children.flatMap((child) => [child, ...descendants(child)])
}
