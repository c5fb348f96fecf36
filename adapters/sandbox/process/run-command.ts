import { spawn } from 'node:child_process'
import type { Readable } from 'node:stream'
import { CappedOutput } from '../output.ts'

export interface CommandRequest {
  argv: readonly string[]
  env: Record<string, string>
  cwd: string
  stdin: string | undefined
  wallMs: number
  outputBytes: number
  /** Looked for in stdout. */
  marker: string | undefined
  /** An open file the command gets as fd 4 (where GNU time writes its report). */
  fd4: number | undefined
  /** An open file the command gets as fd 5 (bwrap's --seccomp reads its filter there). */
  fd5?: number
  /** Open files the command gets as fds 6, 7, … (bwrap's --file copies each into the sandbox). */
  files?: readonly number[]
}

export interface CommandResult {
  exitCode: number | null
  signal: string | undefined
  wallMs: number
  wallLimitHit: boolean
  stdout: CappedOutput
  stderr: CappedOutput
  /** What the command wrote to fd 3 (bwrap's --json-status-fd). */
  status: string
  /** Set when the command could not be started at all. */
  spawnError: Error | undefined
}

/** How long to wait for pipes to close after the command exits, in case something still holds them. */
const DRAIN_MS = 500

/**
 * Runs `argv` in its own process group with a wall-clock limit, capturing output with caps.
 * On timeout, and after a normal exit, the whole group gets SIGKILL.
 */
export function runCommand(request: CommandRequest): Promise<CommandResult> {
  const [file, ...args] = request.argv
  if (file === undefined) throw new RangeError('runCommand needs a command; argv is empty.')
  const stdout = new CappedOutput(request.outputBytes, request.marker)
  const stderr = new CappedOutput(request.outputBytes)
  let status = ''
  const started = performance.now()
  const child = spawn(file, args, {
    cwd: request.cwd,
    env: request.env,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe', 'pipe', request.fd4 ?? 'ignore', request.fd5 ?? 'ignore', ...(request.files ?? [])],
  })
  const killGroup = (): void => {
    if (child.pid === undefined) return
    try {
      process.kill(-child.pid, 'SIGKILL')
    } catch {
      // the group is already gone
    }
  }
  let wallLimitHit = false
  const timer = setTimeout(() => {
    wallLimitHit = true
    killGroup()
  }, request.wallMs)

  const streams = child.stdio.slice(1, 4) as Readable[]
  const [out, err, statusFd] = streams
  out?.on('data', (chunk: Buffer) => stdout.push(chunk))
  err?.on('data', (chunk: Buffer) => stderr.push(chunk))
  statusFd?.on('data', (chunk: Buffer) => {
    status += chunk.toString('utf8')
  })
  for (const stream of child.stdio) stream?.on('error', () => {}) // EPIPE when the program ignores its stdin
  child.stdin?.end(request.stdin ?? '')

  return new Promise((resolve) => {
    let spawnError: Error | undefined
    child.on('error', (error) => {
      spawnError = error
    })
    child.on('close', (code, signal) => finish(code, signal))
    child.on('exit', () => {
      killGroup()
      // A descendant that left the group may hold the pipes open; do not wait on it forever.
      setTimeout(() => {
        for (const stream of streams) stream.destroy()
      }, DRAIN_MS).unref()
    })
    let done = false
    const finish = (code: number | null, signal: NodeJS.Signals | null): void => {
      if (done) return
      done = true
      clearTimeout(timer)
      resolve({
        exitCode: code,
        signal: signal ?? undefined,
        wallMs: Math.round(performance.now() - started),
        wallLimitHit,
        stdout,
        stderr,
        status,
        spawnError,
      })
    }
  })
}
