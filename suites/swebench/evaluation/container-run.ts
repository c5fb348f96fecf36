/**
 * One command in a fresh container through dockerode: files copied in, the
 * command run to its end or to the time limit, its output read, the container
 * removed whatever happened. Failures of the engine (an image that cannot be
 * had, a container that cannot be created or started) are InfraErrors.
 */
import type Docker from 'dockerode'
import { packTar } from '../../../adapters/sandbox/container/tar.ts'

export interface ContainerRunRequest {
  image: string
  command: string[]
  /** Copied into the container before it starts: contents by path relative to /. */
  files: Readonly<Record<string, string>>
  timeoutMs: number
  /** `none` keeps the container off the network. */
  network: string
  /** 0 for no limit. */
  memoryBytes: number
  signal?: AbortSignal
  /** Told when the image had to be pulled for this run. */
  onPulled?: (image: string) => void
}

export interface ContainerRunResult {
  /** Null when the container was killed at the time limit. */
  exitCode: number | null
  timedOut: boolean
  /** stdout and stderr, interleaved as the engine kept them. */
  log: string
  wallMs: number
}

/** Our side broke: the engine, the image, the container. Never the model's fault. */
export class InfraError extends Error {
  override readonly name = 'InfraError'
}

export async function runInContainer(docker: Docker, request: ContainerRunRequest): Promise<ContainerRunResult> {
  if (await ensureImage(docker, request.image)) request.onPulled?.(request.image)
  let container: Docker.Container
  try {
    container = await docker.createContainer({
      Image: request.image,
      Cmd: request.command,
      Entrypoint: [],
      Tty: false,
      Labels: { 'testbench.suite': 'swebench' },
      HostConfig: {
        NetworkMode: request.network,
        ...(request.memoryBytes > 0 ? { Memory: request.memoryBytes } : {}),
      },
    })
  } catch (error) {
    throw new InfraError(`Could not create a container from ${request.image}: ${reason(error)}.`)
  }
  const started = performance.now()
  try {
    await step(`copy files into the container of ${request.image}`, () =>
      container.putArchive(packTar(request.files, 0), { path: '/' }),
    )
    await step(`start the container of ${request.image}`, () => container.start())
    const timedOut = await waitOrKill(container, request.timeoutMs, request.signal)
    const state = await step('inspect the container', () => container.inspect())
    const log = demultiplex(
      await step('read the container log', () => container.logs({ stdout: true, stderr: true, follow: false })),
    )
    return {
      exitCode: timedOut ? null : state.State.ExitCode,
      timedOut,
      log,
      wallMs: Math.round(performance.now() - started),
    }
  } finally {
    await container.remove({ force: true, v: true }).catch(() => undefined)
  }
}

/** Pulls the image when the engine does not have it; true when it was pulled. */
export async function ensureImage(docker: Docker, image: string): Promise<boolean> {
  try {
    await docker.getImage(image).inspect()
    return false
  } catch {
    // Not here: pull it.
  }
  try {
    process.stderr.write(`swebench: pulling ${image} (once; it stays on the engine)…\n`)
    const stream = await docker.pull(image)
    await new Promise<void>((resolve, reject) => {
      docker.modem.followProgress(stream, (error: Error | null) => (error ? reject(error) : resolve()))
    })
    await docker.getImage(image).inspect()
    return true
  } catch (error) {
    throw new InfraError(
      `The image ${image} is not on the engine and could not be pulled (${reason(error)}). ` +
        `Pull or build it where a registry is reachable (SWE-bench's harness builds them: python -m swebench.harness.prepare_images), ` +
        `or point DOCKER_HOST at an engine that has it.`,
    )
  }
}

async function waitOrKill(
  container: Docker.Container,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  let onAbort: (() => void) | undefined
  const limit = new Promise<'timeout' | 'aborted'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs)
    onAbort = () => resolve('aborted')
    if (signal?.aborted) onAbort()
    else signal?.addEventListener('abort', onAbort, { once: true })
  })
  try {
    const ended = await Promise.race([
      step('wait for the container', () => container.wait()).then(() => 'exited' as const),
      limit,
    ])
    if (ended === 'exited') return false
    await container.kill().catch(() => undefined)
    if (ended === 'aborted') throw new InfraError('The evaluation was cancelled.')
    return true
  } finally {
    clearTimeout(timer)
    if (onAbort) signal?.removeEventListener('abort', onAbort)
  }
}

/** A log without a terminal comes in frames: 1 byte stream, 3 zero bytes, 4 bytes length, then the bytes. */
export function demultiplex(raw: Buffer): string {
  const looksFramed =
    raw.length >= 8 && raw[0] !== undefined && raw[0] <= 2 && raw[1] === 0 && raw[2] === 0 && raw[3] === 0
  if (!looksFramed) return raw.toString('utf8')
  const chunks: Buffer[] = []
  let offset = 0
  while (offset + 8 <= raw.length) {
    const size = raw.readUInt32BE(offset + 4)
    chunks.push(raw.subarray(offset + 8, offset + 8 + size))
    offset += 8 + size
  }
  return Buffer.concat(chunks).toString('utf8')
}

async function step<T>(what: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action()
  } catch (error) {
    if (error instanceof InfraError) throw error
    throw new InfraError(`Could not ${what}: ${reason(error)}.`)
  }
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message.trim() : String(error)
}
