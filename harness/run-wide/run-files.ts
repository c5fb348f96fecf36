import { processWide } from './process-wide.ts'

/**
 * The run's test files as Vitest runs them, for the batch server's gather (harness/batches/batch-queue.ts): which files
 * have yet to send their first request, and whether a worker is free to start one that has not started. Told by a
 * reporter in the main process (reporters/run-files-reporter.ts) when a file starts and ends, and by the batch
 * server when a file's first request comes (harness/run-wide/process-wide.ts: both see the same one).
 */
export class RunFiles {
  /** Files that have neither sent a request nor ended. */
  private readonly silent = new Set<string>()
  /** Files that hold a worker: started and not ended. */
  private readonly running = new Set<string>()
  private workers = Number.POSITIVE_INFINITY
  private readonly listeners = new Set<() => void>()

  /** The run's files, and how many run at once (Vitest's maxWorkers). */
  expect(files: readonly string[], workers: number): void {
    this.silent.clear()
    this.running.clear()
    for (const file of files) this.silent.add(filePath(file))
    this.workers = workers
    this.changed()
  }

  /** A file's first item started: the file holds a worker. */
  started(file: string): void {
    const path = filePath(file)
    if (this.running.has(path) || !this.silent.has(path)) return
    this.running.add(path)
    this.changed()
  }

  /** A file sent a request: the rest of its requests come with it. */
  asked(file: string): void {
    if (this.silent.delete(filePath(file))) this.changed()
  }

  ended(file: string): void {
    const path = filePath(file)
    const known = this.running.delete(path)
    if (this.silent.delete(path) || known) this.changed()
  }

  /**
   * A file has yet to send its first request, and may: it runs, or a worker is free to start it. A file that
   * waits for a worker the running ones hold (more files than workers) is not waited for.
   */
  awaited(): boolean {
    const free = this.running.size < this.workers
    for (const file of this.silent) if (free || this.running.has(file)) return true
    return false
  }

  /** Calls `listener` on every change; returns what stops it. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  private changed(): void {
    for (const listener of this.listeners) listener()
  }
}

/** Vitest's module ids and a worker's test path name a file alike, whatever the platform's separator. */
function filePath(file: string): string {
  return file.replaceAll('\\', '/')
}

/** The process's one RunFiles. */
export function runFiles(): RunFiles {
  return processWide('run-files', () => new RunFiles())
}
