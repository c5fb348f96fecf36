import type Docker from 'dockerode'
import type { Duplex } from 'node:stream'

/** What a command the harness runs in a sandbox container (not the program's steps) gave back. */
export interface ContainerExecResult {
  /** null when the command did not end within its time, or the engine did not say. */
  exitCode: number | null
  stdout: Buffer
  stderr: string
}

/** Something to write on stdout or stderr, as Docker's attach stream carries it. */
export interface StreamSink {
  push(chunk: Buffer): void
}

/**
 * Runs `cmd` in a running container as `user`, with `stdin` written then closed, and collects its output
 * (stdout up to `capBytes`, the rest dropped). Both engines take a tar this way into any writable mount,
 * where Docker's archive endpoint refuses a read-only root's tmpfs.
 */
export async function execInContainer(
  container: Docker.Container,
  cmd: string[],
  options: { user: string; workingDir: string; stdin?: Buffer; capBytes: number; timeoutMs: number },
): Promise<ContainerExecResult> {
  const exec = await container.exec({
    Cmd: cmd,
    AttachStdin: options.stdin !== undefined,
    AttachStdout: true,
    AttachStderr: true,
    User: options.user,
    WorkingDir: options.workingDir,
  })
  const stream = (await exec.start({ hijack: true, stdin: options.stdin !== undefined })) as Duplex
  const stdout = new ByteSink(options.capBytes)
  const stderr = new ByteSink(16 * 1024)
  let timedOut = false
  const ended = streamEnded(stream, stdout, stderr)
  if (options.stdin !== undefined) stream.end(options.stdin)
  const timer = setTimeout(() => {
    timedOut = true
    stream.destroy()
  }, options.timeoutMs)
  await ended
  clearTimeout(timer)
  const exitCode = timedOut ? null : ((await finishedExec(exec)).ExitCode ?? null)
  return { exitCode, stdout: stdout.bytes(), stderr: stderr.bytes().toString('utf8') }
}

/** Resolves when the attach stream ends, its frames written to the two sinks. */
export function streamEnded(stream: Duplex, stdout: StreamSink, stderr: StreamSink): Promise<void> {
  return new Promise<void>((resolve) => {
    demultiplex(stream, stdout, stderr)
    stream.on('end', resolve)
    stream.on('close', resolve)
    stream.on('error', () => resolve())
  })
}

/** Docker's attach stream: frames of [kind (1 stdout, 2 stderr), 0, 0, 0, length (u32 BE)] then the bytes. */
function demultiplex(stream: Duplex, stdout: StreamSink, stderr: StreamSink): void {
  let pending: Buffer = Buffer.alloc(0)
  stream.on('data', (chunk: Buffer) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk])
    while (pending.length >= 8) {
      const length = pending.readUInt32BE(4)
      if (pending.length < 8 + length) break
      const payload = pending.subarray(8, 8 + length)
      if (pending[0] === 2) stderr.push(payload)
      else stdout.push(payload)
      pending = pending.subarray(8 + length)
    }
  })
}

/** The stream can end a moment before the engine records the exit code. */
export async function finishedExec(exec: Docker.Exec): Promise<Docker.ExecInspectInfo> {
  let info = await exec.inspect()
  for (let attempt = 0; info.Running && attempt < 40; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 25))
    info = await exec.inspect()
  }
  return info
}

class ByteSink implements StreamSink {
  readonly #chunks: Buffer[] = []
  readonly #capBytes: number
  #kept = 0

  constructor(capBytes: number) {
    this.#capBytes = capBytes
  }

  push(chunk: Buffer): void {
    if (this.#kept >= this.#capBytes) return
    const part = chunk.subarray(0, this.#capBytes - this.#kept)
    this.#chunks.push(part)
    this.#kept += part.length
  }

  bytes(): Buffer {
    return Buffer.concat(this.#chunks)
  }
}
