import type Docker from 'dockerode'
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { packTar } from './tar.ts'

/**
 * The container tier's image, built from the Dockerfile shipped in adapters/sandbox/container/images when
 * the engine does not have it (or has one built from another version of that Dockerfile), so a
 * user with Docker or podman needs nothing but the engine. The image carries the Dockerfile's
 * sha256 as a label; `.ci/start-podman.sh` sets the same label, so either builder's image is reused.
 */

export const DOCKERFILE_HASH_LABEL = 'testbench.dockerfile-sha256'
const DOCKERFILE_PATH = new URL('./images/Dockerfile', import.meta.url)
/** How long a worker waits for another process's build of the same image (apt-get of every toolchain). */
const BUILD_WAIT_MS = 30 * 60_000

export interface ImageBuild {
  docker: Docker
  image: string
  base: string
  /** Progress lines, e.g. to stderr. */
  log: (line: string) => void
}

export function dockerfileHash(): string {
  return createHash('sha256').update(readFileSync(DOCKERFILE_PATH)).digest('hex')
}

/**
 * Builds `image` unless the engine has it from this Dockerfile. An image without the label (the
 * user's own) is used as it is. One process builds at a time on this machine; the others wait.
 */
export async function ensureSandboxImage(build: ImageBuild): Promise<void> {
  const wanted = dockerfileHash()
  if ((await builtFrom(build)) !== 'other') return
  const lock = join(tmpdir(), `testbench-image-build-${wanted.slice(0, 16)}`)
  const deadline = Date.now() + BUILD_WAIT_MS
  while (!takeLock(lock)) {
    if (Date.now() > deadline)
      throw new Error(
        `Gave up waiting for another process's build of ${build.image} (lock ${lock}); remove the lock if no build is running.`,
      )
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    if ((await builtFrom(build)) !== 'other') return
  }
  try {
    if ((await builtFrom(build)) !== 'other') return
    await buildImage(build, wanted)
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

/** `this`: built from this Dockerfile; `own`: an image without our label; `other`: missing or built from another version. */
async function builtFrom({ docker, image }: ImageBuild): Promise<'this' | 'own' | 'other'> {
  try {
    const labels = (await docker.getImage(image).inspect()).Config?.Labels ?? {}
    const hash = labels[DOCKERFILE_HASH_LABEL]
    if (hash === undefined) return 'own'
    return hash === dockerfileHash() ? 'this' : 'other'
  } catch {
    return 'other'
  }
}

async function buildImage({ docker, image, base, log }: ImageBuild, hash: string): Promise<void> {
  log(
    `sandbox image: building ${image} from adapters/sandbox/container/images/Dockerfile on ${base} (apt-get of every toolchain: a few minutes, once)`,
  )
  const context = packTar({ Dockerfile: readFileSync(DOCKERFILE_PATH) }, 0)
  const stream = await docker.buildImage(Readable.from([context]), {
    t: image,
    buildargs: { BASE: base },
    labels: { [DOCKERFILE_HASH_LABEL]: hash },
  })
  const lines: string[] = []
  const failure = await new Promise<string | undefined>((resolve) => {
    docker.modem.followProgress(
      stream,
      (error: Error | null) => resolve(error === null ? undefined : error.message),
      (event: BuildEvent) => {
        if (event.error !== undefined) lines.push(event.error)
        const text = event.stream?.trimEnd()
        if (text === undefined || text === '') return
        lines.push(text)
        if (/^STEP|^Step|^Successfully|^COMMIT/.test(text)) log(`sandbox image: ${text}`)
      },
    )
  })
  if (
    failure !== undefined ||
    !(await docker
      .getImage(image)
      .inspect()
      .then(
        () => true,
        () => false,
      ))
  ) {
    throw new Error(
      `Building the sandbox image ${image} on ${base} failed: ${failure ?? lines.at(-1) ?? 'no image came out'}\nThe last lines of the build:\n${lines.slice(-15).join('\n')}\n` +
        `Check that the engine can pull ${base} (offline: import a Debian bookworm image and name it with TESTBENCH_SANDBOX_BASE_IMAGE), or build it with .ci/start-podman.sh.`,
    )
  }
  log(`sandbox image: built ${image}`)
}

interface BuildEvent {
  stream?: string
  error?: string
}

/** An atomic mkdir is the lock; one left by a process that died is taken over. */
function takeLock(lock: string): boolean {
  try {
    mkdirSync(lock)
    writeFileSync(join(lock, 'pid'), String(process.pid))
    return true
  } catch {
    if (holderAlive(lock)) return false
    rmSync(lock, { recursive: true, force: true })
    return false
  }
}

function holderAlive(lock: string): boolean {
  let pid: number
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'))
  } catch {
    // Taken a moment ago and its pid not written yet, or left half-made long ago.
    try {
      return Date.now() - statSync(lock).mtimeMs < 60_000
    } catch {
      return false
    }
  }
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
