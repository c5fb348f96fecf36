import { readdirSync, readFileSync } from 'node:fs'

/** Resident set of a process and all its descendants, in KiB, from /proc (Linux only); 0 for one gone meanwhile. */
export function treeKiB(pid: number): number {
  return [pid, ...descendants(pid)].reduce((sum, each) => sum + residentKiB(each), 0)
}

function residentKiB(pid: number): number {
  try {
    return Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0)
  } catch {
    return 0
  }
}

function descendants(pid: number): number[] {
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
