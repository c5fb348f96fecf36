import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process'
import type { Socket } from 'node:net'
import { sandboxEnvironment } from '../environment.ts'

/**
 * A warm server's process (the Python fork server, the exec server, the warm javac): spawned detached in a
 * process group of its own, as `user` when given, the last lines of its stderr kept for the warning that
 * says why it did not start. It keeps Node alive only while busy. A server that cannot be spawned at all
 * (its bwrap is missing) ends as one that exited, its spawn error as its diagnostics.
 */
export class ServerProcess {
  readonly #process: ChildProcess
  #stderr = ''
  readonly #exitListeners: Array<() => void> = []
  #ended = false

  constructor(
    argv: readonly string[],
    options: { env?: Record<string, string>; user?: { uid: number; gid: number } | undefined; extraFd?: number } = {},
  ) {
    const [file, ...args] = argv
    const stdio: StdioOptions =
      options.extraFd === undefined ? ['pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe', options.extraFd]
    this.#process = spawn(file ?? 'bwrap', args, {
      env: options.env ?? sandboxEnvironment('/tmp'),
      stdio,
      detached: true,
      cwd: '/',
      ...options.user,
    })
    this.#process.stderr?.on('data', (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString('utf8')).slice(-2000)
    })
    this.#process.stdin?.on('error', () => {})
    this.#process.on('exit', () => this.#end())
    this.#process.on('error', (error) => {
      this.#stderr = `${this.#stderr}\n${error.message}`.slice(-2000)
      this.#end()
    })
    this.idle()
  }

  onStdout(listener: (chunk: Buffer) => void): void {
    this.#process.stdout?.on('data', listener)
  }

  onExit(listener: () => void): void {
    this.#exitListeners.push(listener)
  }

  write(data: Buffer | string): void {
    this.#process.stdin?.write(data)
  }

  /** The last lines the server printed on stderr, for a warning. */
  diagnostics(): string {
    return this.#stderr.trim().split('\n').slice(-2).join(' | ') || 'no message'
  }

  #end(): void {
    if (this.#ended) return
    this.#ended = true
    for (const listener of this.#exitListeners) listener()
  }

  /** Kills the server's whole process group. */
  kill(): void {
    if (this.#process.pid === undefined || this.#process.exitCode !== null) return
    try {
      process.kill(-this.#process.pid, 'SIGKILL')
    } catch {
      // already gone
    }
  }

  /** An idle server must not keep Node alive; a busy one must. */
  idle(): void {
    this.#process.unref()
    for (const stream of [this.#process.stdout, this.#process.stderr]) (stream as Socket | null)?.unref()
  }

  busy(): void {
    this.#process.ref()
    for (const stream of [this.#process.stdout, this.#process.stderr]) (stream as Socket | null)?.ref()
  }
}
