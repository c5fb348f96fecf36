import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs'
import { rmdir } from 'node:fs/promises'
import { join } from 'node:path'

/**
 * One memory cgroup per run, where we can make them (as root, with cgroup v1's memory controller or
 * cgroup v2): it counts what rlimits cannot, all of a run's processes together, their shared memory,
 * tmpfs files and page tables, against one limit; the kernel OOM-kills inside the run when it is passed.
 * RLIMIT_DATA and RLIMIT_AS are per process: 64 processes could each take the whole limit.
 */
export interface MemoryCgroups {
  readonly version: 1 | 2
  /**
   * A fresh cgroup for one run (or one warm server), limited to `limitBytes` (swap included where the kernel
   * counts it); `owner` may move itself in (a server started as a throwaway uid).
   */
  create(limitBytes: number, owner?: { uid: number; gid: number }): RunCgroup
}

export interface RunCgroup {
  /** `argv` started inside the cgroup: a shell moves itself in, then execs it, so that nothing runs outside first. */
  enter(argv: readonly string[]): string[]
  /** The kernel killed a process of the run for passing the limit. */
  oomKilled(): Promise<boolean>
  /** How many processes the kernel killed so far for passing the limit (a warm server's runs, one after another). */
  oomKills(): Promise<number>
  /** Memory charged to the cgroup now. */
  usage(): Promise<number>
  setLimit(limitBytes: number): void
  /** Removes the cgroup once its processes are gone. */
  remove(): Promise<void>
}

const ROOT_V2 = '/sys/fs/cgroup'
const ROOT_V1 = '/sys/fs/cgroup/memory'
const PREFIX = 'testbench-'

let detected: MemoryCgroups | undefined | null = null

/** The run cgroups of this process, or undefined where none can be made (not root, no memory controller). */
export function memoryCgroups(root: boolean = process.getuid?.() === 0): MemoryCgroups | undefined {
  if (detected === null) detected = root ? detect() : undefined
  return detected
}

function detect(): MemoryCgroups | undefined {
  const v2 = existsSync(join(ROOT_V2, 'cgroup.controllers'))
  const base = v2 ? ROOT_V2 : ROOT_V1
  if (
    v2
      ? !readText(join(ROOT_V2, 'cgroup.controllers')).split(/\s+/).includes('memory')
      : !existsSync(join(ROOT_V1, 'cgroup.procs'))
  )
    return undefined
  removeStale(base)
  const parent = join(base, `${PREFIX}${process.pid}`)
  try {
    mkdirSync(parent)
    // v2: a cgroup's children get the memory controller only when it hands it down (it holds no process itself).
    if (v2) writeFileSync(join(parent, 'cgroup.subtree_control'), '+memory')
  } catch {
    try {
      rmdirSync(parent)
    } catch {
      // never made
    }
    return undefined
  }
  // The warm servers would die with this process, too late for their cgroups to go: they are killed now,
  // and the groups go once they have left. What is still busy after a moment the next testbench process removes.
  process.once('exit', () => {
    killGroup(parent)
    for (let attempt = 0; attempt < 20 && existsSync(parent); attempt++) {
      removeGroup(parent)
      if (existsSync(parent)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10)
    }
  })
  return new Cgroups(v2 ? 2 : 1, parent)
}

/** Cgroups that a testbench process which has since died left behind. */
function removeStale(base: string): void {
  for (const name of safeList(base)) {
    if (!name.startsWith(PREFIX)) continue
    const pid = Number(name.slice(PREFIX.length))
    if (Number.isInteger(pid) && existsSync(`/proc/${pid}`)) continue
    removeGroup(join(base, name))
  }
}

/** Every process still in a process's cgroup or its run cgroups. */
function killGroup(dir: string): void {
  const groups = [
    dir,
    ...safeList(dir)
      .filter((name) => name.startsWith('run-'))
      .map((name) => join(dir, name)),
  ]
  for (const group of groups) {
    for (const pid of readText(join(group, 'cgroup.procs')).split('\n').filter(Boolean)) {
      try {
        process.kill(Number(pid), 'SIGKILL')
      } catch {
        // gone already
      }
    }
  }
}

/** A process's cgroup and its run cgroups, those whose processes are gone. */
function removeGroup(dir: string): void {
  for (const child of safeList(dir).filter((name) => name.startsWith('run-'))) {
    try {
      rmdirSync(join(dir, child))
    } catch {
      // still busy
    }
  }
  try {
    rmdirSync(dir)
  } catch {
    // still busy
  }
}

class Cgroups implements MemoryCgroups {
  readonly version: 1 | 2
  readonly #parent: string
  #next = 0

  constructor(version: 1 | 2, parent: string) {
    this.version = version
    this.#parent = parent
  }

  // Synchronous: a few writes to a kernel file system, once per run.
  create(limitBytes: number, owner?: { uid: number; gid: number }): RunCgroup {
    const dir = join(this.#parent, `run-${this.#next++}`)
    mkdirSync(dir)
    const group = new RunGroup(this.version, dir)
    try {
      if (this.version === 2) tryWrite(join(dir, 'memory.swap.max'), '0')
      group.setLimit(limitBytes)
      if (owner !== undefined) chownSync(join(dir, 'cgroup.procs'), owner.uid, owner.gid)
    } catch (error) {
      rmdirSync(dir)
      throw error
    }
    return group
  }
}

class RunGroup implements RunCgroup {
  readonly #version: 1 | 2
  readonly #dir: string

  constructor(version: 1 | 2, dir: string) {
    this.#version = version
    this.#dir = dir
  }

  enter(argv: readonly string[]): string[] {
    return ['/bin/sh', '-c', 'echo $$ > "$0" && exec "$@"', join(this.#dir, 'cgroup.procs'), ...argv]
  }

  async oomKilled(): Promise<boolean> {
    return (await this.oomKills()) > 0
  }

  // Read synchronously: a few bytes from a kernel file system, where a trip through libuv's thread pool costs more, once per run.
  async oomKills(): Promise<number> {
    const text = readText(join(this.#dir, this.#version === 2 ? 'memory.events' : 'memory.oom_control'))
    return Number(/^oom_kill (\d+)$/m.exec(text)?.[1] ?? 0)
  }

  async usage(): Promise<number> {
    return (
      Number(readText(join(this.#dir, this.#version === 2 ? 'memory.current' : 'memory.usage_in_bytes')).trim()) || 0
    )
  }

  setLimit(limitBytes: number): void {
    const limit = String(Math.ceil(limitBytes))
    if (this.#version === 2) {
      writeFileSync(join(this.#dir, 'memory.max'), limit)
      return
    }
    // memsw (memory + swap) exists where the kernel accounts swap; it may never be below the memory limit,
    // so the order of the two writes depends on whether the limit goes up or down.
    const memsw = join(this.#dir, 'memory.memsw.limit_in_bytes')
    const memory = join(this.#dir, 'memory.limit_in_bytes')
    if (limitBytes >= Number(readText(memory).trim())) {
      tryWrite(memsw, limit)
      writeFileSync(memory, limit)
    } else {
      writeFileSync(memory, limit)
      tryWrite(memsw, limit)
    }
  }

  async remove(): Promise<void> {
    // The run's processes are killed by then; the last ones may take a moment to leave.
    for (let attempt = 0; attempt < 50; attempt++) {
      try {
        await rmdir(this.#dir)
        return
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    }
  }
}

function tryWrite(path: string, text: string): void {
  try {
    writeFileSync(path, text)
  } catch {
    // the kernel does without this file (no swap accounting)
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return ''
  }
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}
