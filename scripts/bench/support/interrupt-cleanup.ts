import type { ChildProcess } from 'node:child_process'
import { rmSync } from 'node:fs'
import { constants } from 'node:os'
import { descendants } from './process-tree.ts'

/**
 * What a bench leaves behind when Ctrl-C or SIGTERM stops it mid-run: its runs' temp folders and the process trees it
 * started (a Vitest run in a group of its own gets no Ctrl-C from the terminal). Each is registered while it lives;
 * the first SIGINT or SIGTERM kills every tree, removes every folder, and exits with 128 + the signal's number (130
 * for Ctrl-C).
 */
const folders = new Set<string>()
const children = new Set<number>()
let listening = false

/** Removes `folder` if the bench is interrupted; returns it. A folder removed meanwhile is left as it is. */
export function removeOnInterrupt(folder: string): string {
  folders.add(folder)
  listen()
  return folder
}

/** Kills `child` and every process under it if the bench is interrupted before it exits. */
export function killOnInterrupt(child: ChildProcess): void {
  const pid = child.pid
  if (pid === undefined || child.exitCode !== null || child.signalCode !== null) return
  children.add(pid)
  // Forgotten at its exit, so that a later process given the same pid is never killed.
  child.once('exit', () => children.delete(pid))
  listen()
}

/** For `runSuiteForRecords`' `started`: the run's folder and its Vitest process tree go if the bench is interrupted. */
export function cleanUpRunOnInterrupt(run: { dir: string; child: ChildProcess }): void {
  removeOnInterrupt(run.dir)
  killOnInterrupt(run.child)
}

function listen(): void {
  if (listening) return
  listening = true
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => cleanUpAndExit(signal))
}

function cleanUpAndExit(signal: 'SIGINT' | 'SIGTERM'): never {
  for (const pid of children) {
    const tree = [pid, ...descendants(pid)]
    try {
      process.kill(-pid, 'SIGKILL')
    } catch {
      // Not a group's leader: its tree is killed one by one below.
    }
    for (const each of tree) {
      try {
        process.kill(each, 'SIGKILL')
      } catch {
        // Gone already.
      }
    }
  }
  for (const folder of folders) rmSync(folder, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 })
  process.exit(128 + constants.signals[signal])
}
