/**
 * The container an agent works in for one instance: started from the instance's evaluation image, kept
 * alive by a process that reads our held-open stdin, so that when the harness goes away for any reason
 * (Ctrl-C, a crash, SIGKILL) stdin closes, the container ends and the engine removes it; `close()`
 * removes it at once. Every command is a fresh `bash -c` process (`docker exec`, as mini-swe-agent runs
 * it) in the image's environment, in `/testbed`, under `timeout -s KILL`, which kills the command's whole
 * process group at the limit. Limits: memory (no swap), processes, the size of each file a command writes,
 * and the container's written bytes (diskExceeded(), which the agent asks between turns).
 */
import { PassThrough, type Duplex } from 'node:stream'
import type Docker from 'dockerode'
import type { CommandOutput } from './agent-messages.ts'
import { InfraError, ensureImage } from '../evaluation/container-run.ts'

export interface EpisodeLimits {
  /** Bytes of memory (swap included); 0 for none. */
  memoryBytes: number
  pids: number
  /** Bytes of any one file a command writes (RLIMIT_FSIZE). */
  fileBytes: number
  /** Bytes the container may write in all; past it the episode ends after the command. */
  diskBytes: number
  /** `none` keeps the container off the network. */
  network: string
}

export interface EpisodeSetup {
  image: string
  limits: EpisodeLimits
  /** Told when the image had to be pulled for this episode. */
  onPulled?: (image: string) => void
}

export interface CommandRequest {
  command: string
  cwd: string
  env: Readonly<Record<string, string>>
  timeoutSeconds: number
}

/** What a command gave. */
export interface CommandResult extends CommandOutput {
  /** Code points of the output not kept (past OUTPUT_KEPT_BYTES); the observation counts them as elided. */
  droppedChars: number
}

/** The output bytes kept in full; past them only the first and last half are kept (the observation shows 5,000 characters of each end). */
export const OUTPUT_KEPT_BYTES = 4 * 1024 * 1024
/** Seconds past a command's limit before the harness stops waiting for its stream (a stream a leftover process holds open). */
const STREAM_GRACE_SECONDS = 5

export class EpisodeContainer {
  readonly id: string
  readonly #docker: Docker
  readonly #container: Docker.Container
  readonly #keepAlive: Duplex
  readonly #limits: EpisodeLimits
  #removed = false

  private constructor(docker: Docker, container: Docker.Container, keepAlive: Duplex, limits: EpisodeLimits) {
    this.#docker = docker
    this.#container = container
    this.#keepAlive = keepAlive
    this.#limits = limits
    this.id = container.id
  }

  static async start(docker: Docker, setup: EpisodeSetup): Promise<EpisodeContainer> {
    if (await ensureImage(docker, setup.image)) setup.onPulled?.(setup.image)
    const { limits } = setup
    let container: Docker.Container
    try {
      container = await docker.createContainer({
        Image: setup.image,
        Entrypoint: [],
        Cmd: ['sh', '-c', 'cat >/dev/null'],
        OpenStdin: true,
        StdinOnce: true,
        AttachStdin: true,
        Tty: false,
        Labels: { 'testbench.suite': 'swebench', 'testbench.swebench.role': 'episode' },
        HostConfig: {
          AutoRemove: true,
          NetworkMode: limits.network,
          PidsLimit: limits.pids,
          // Naming one ulimit drops the engine's defaults (podman then asks for a nofile its service may not have): all are named.
          Ulimits: [
            { Name: 'fsize', Soft: limits.fileBytes, Hard: limits.fileBytes },
            { Name: 'nofile', Soft: 1024, Hard: 1024 },
            { Name: 'nproc', Soft: 4096, Hard: 4096 },
          ],
          ...(limits.memoryBytes > 0 ? { Memory: limits.memoryBytes, MemorySwap: limits.memoryBytes } : {}),
        },
      })
    } catch (error) {
      throw new InfraError(`Could not create the episode container from ${setup.image}: ${reason(error)}.`)
    }
    try {
      const keepAlive = (await container.attach({ stream: true, stdin: true, hijack: true })) as Duplex
      // The keep-alive stream carries nothing back; an error on it means the container is going away.
      keepAlive.on('error', () => undefined)
      await container.start()
      return new EpisodeContainer(docker, container, keepAlive, limits)
    } catch (error) {
      await container.remove({ force: true, v: true }).catch(() => undefined)
      throw new InfraError(`Could not start the episode container from ${setup.image}: ${reason(error)}.`)
    }
  }

  /** Runs one command to its end or its time limit; the container's own trouble is an InfraError. */
  async run(request: CommandRequest, signal?: AbortSignal): Promise<CommandResult> {
    if (this.#removed) throw new InfraError('The episode container was already removed.')
    const env = Object.entries(request.env).map(([name, value]) => `${name}=${value}`)
    const exec = await this.#unlessGone('create a command in the episode container', () =>
      this.#container.exec({
        Cmd: ['timeout', '-s', 'KILL', String(request.timeoutSeconds), 'bash', '-c', request.command],
        Env: env,
        WorkingDir: request.cwd,
        AttachStdout: true,
        AttachStderr: true,
        AttachStdin: false,
        Tty: false,
      }),
    )
    const started = performance.now()
    if ('gone' in exec) return exec.gone
    const stream = await this.#unlessGone('start a command in the episode container', () =>
      exec.start({ hijack: true, stdin: false }),
    )
    if ('gone' in stream) return stream.gone
    const collected = new OutputCollector()
    const sink = new PassThrough()
    sink.on('data', (chunk: Buffer) => collected.add(chunk))
    this.#docker.modem.demuxStream(stream, sink, sink)
    const ended = await streamEnd(stream, (request.timeoutSeconds + STREAM_GRACE_SECONDS) * 1000, signal)
    if (ended === 'aborted') throw new InfraError('The episode was cancelled.')
    const info = await step('inspect a command in the episode container', () => exec.inspect())
    const seconds = (performance.now() - started) / 1000
    const exitCode = info.ExitCode ?? -1
    const output = collected.text()
    const timedOut = ended === 'stalled' || (exitCode === 137 && seconds >= request.timeoutSeconds)
    const result: CommandResult = timedOut
      ? {
          output: output.text,
          returncode: -1,
          exceptionInfo: `An error occurred while executing the command: Command 'bash -c ${JSON.stringify(request.command)}' timed out after ${request.timeoutSeconds} seconds`,
          droppedChars: output.droppedChars,
        }
      : { output: output.text, returncode: exitCode, exceptionInfo: '', droppedChars: output.droppedChars }
    return result
  }

  /**
   * Why the container is past its disk limit, or undefined. Asking the engine for the container's size costs
   * about as much as a command, so the agent asks while the model thinks, not after every command.
   */
  async diskExceeded(): Promise<string | undefined> {
    if (this.#removed) return undefined
    const written = await this.#writtenBytes()
    if (written === undefined || written <= this.#limits.diskBytes) return undefined
    return `The container has written ${megabytes(written)} MB, past its limit of ${megabytes(this.#limits.diskBytes)} MB.`
  }

  /** Stops and removes the container and what it wrote; safe to call twice. */
  async close(): Promise<void> {
    if (this.#removed) return
    this.#removed = true
    let failure: unknown
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await this.#container.remove({ force: true, v: true })
        failure = undefined
        break
      } catch (error) {
        failure = error
        // A container that stopped by itself (its first process killed) is being removed by the engine: wait for that.
        if (await this.#goneWithin(2_000)) {
          failure = undefined
          break
        }
      }
    }
    this.#keepAlive.destroy()
    if (failure !== undefined)
      throw new InfraError(
        `Could not remove the episode container ${this.id}: ${reason(failure)}; remove it with docker rm -f ${this.id}.`,
      )
  }

  async #goneWithin(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms
    for (;;) {
      const gone = await this.#container.inspect().then(
        () => false,
        (error: unknown) => /no such container|404/i.test(reason(error)),
      )
      if (gone || Date.now() > deadline) return gone
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }

  /**
   * A step of a command; when it fails because the container is no longer running (a command of the model
   * killed its first process), the command's result says so, as mini-swe-agent reports a failed `docker exec`;
   * any other failure is ours.
   */
  async #unlessGone<T extends object>(what: string, action: () => Promise<T>): Promise<T | { gone: CommandResult }> {
    try {
      return await action()
    } catch (error) {
      const running = await this.#container.inspect().then(
        (info) => info.State.Running,
        () => false,
      )
      if (running) throw new InfraError(`Could not ${what}: ${reason(error)}.`)
      return {
        gone: {
          output: '',
          returncode: -1,
          exceptionInfo: `An error occurred while executing the command: the container is no longer running (${reason(error)})`,
          droppedChars: 0,
        },
      }
    }
  }

  async #writtenBytes(): Promise<number | undefined> {
    // dockerode's types do not know `size`, which asks the engine for SizeRw (the bytes the container wrote).
    const inspect = this.#container.inspect.bind(this.#container) as (options: {
      size: boolean
    }) => Promise<{ SizeRw?: number }>
    const info = await inspect({ size: true }).catch(() => undefined)
    return typeof info?.SizeRw === 'number' ? info.SizeRw : undefined
  }
}

/** A command's output: all of it up to OUTPUT_KEPT_BYTES, past that its first and last halves and a count of what was dropped. */
class OutputCollector {
  readonly #head: Buffer[] = []
  #headBytes = 0
  #tail: Buffer[] = []
  #tailBytes = 0
  #droppedChars = 0

  add(chunk: Buffer): void {
    const half = OUTPUT_KEPT_BYTES / 2
    if (this.#headBytes < half) {
      const taken = chunk.subarray(0, half - this.#headBytes)
      this.#head.push(taken)
      this.#headBytes += taken.length
      chunk = chunk.subarray(taken.length)
    }
    if (chunk.length === 0) return
    this.#tail.push(chunk)
    this.#tailBytes += chunk.length
    while (this.#tailBytes > half) {
      const first = this.#tail[0]
      if (first === undefined) break
      const excess = this.#tailBytes - half
      const dropped = first.length <= excess ? first : first.subarray(0, excess)
      if (dropped === first) this.#tail.shift()
      else this.#tail[0] = first.subarray(excess)
      this.#tailBytes -= dropped.length
      this.#droppedChars += codePoints(dropped)
    }
  }

  text(): { text: string; droppedChars: number } {
    return { text: Buffer.concat([...this.#head, ...this.#tail]).toString('utf8'), droppedChars: this.#droppedChars }
  }
}

/** Code points in UTF-8 bytes: every byte that does not continue a sequence starts one. */
function codePoints(bytes: Buffer): number {
  let count = 0
  for (const byte of bytes) if ((byte & 0xc0) !== 0x80) count++
  return count
}

function streamEnd(
  stream: NodeJS.ReadableStream,
  limitMs: number,
  signal: AbortSignal | undefined,
): Promise<'ended' | 'stalled' | 'aborted'> {
  return new Promise((resolve) => {
    const finish = (how: 'ended' | 'stalled' | 'aborted') => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      if (how !== 'ended') (stream as Duplex).destroy()
      resolve(how)
    }
    const onAbort = () => finish('aborted')
    const timer = setTimeout(() => finish('stalled'), limitMs)
    stream.on('end', () => finish('ended'))
    stream.on('close', () => finish('ended'))
    stream.on('error', () => finish('ended'))
    if (signal?.aborted) onAbort()
    else signal?.addEventListener('abort', onAbort, { once: true })
  })
}

async function step<T>(what: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action()
  } catch (error) {
    throw new InfraError(`Could not ${what}: ${reason(error)}.`)
  }
}

function megabytes(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(0)
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message.trim() : String(error)
}
