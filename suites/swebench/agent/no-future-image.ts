/**
 * The image an agent works in: the instance's image with its repository's future taken out (no-future-script.ts), so
 * that no command can read the fix from a later commit, tag, ref, reflog entry or object (SWE-bench#465). Made once
 * per image and run: a container of the instance's image runs the script, and is committed as
 * `<image's repository>.no-future:<tag>`, labelled with the image it came from, the base commit and the script's hash.
 * A run's episodes of one image (an instance's samples) share it; after the last one it is removed, unless
 * TESTBENCH_SWEBENCH_KEEP_IMAGES=1 keeps it, and a later run whose labels match uses it as it is. Evaluations never
 * use it: a patch is judged in a fresh container of the instance's own image.
 */
import { createHash } from 'node:crypto'
import type Docker from 'dockerode'
import { demultiplex, ensureImage, InfraError } from '../evaluation/container-run.ts'
import { NO_FUTURE_SCRIPT } from './no-future-script.ts'

const LABEL_SOURCE = 'testbench.swebench.no-future.source'
const LABEL_BASE = 'testbench.swebench.no-future.base'
const LABEL_SCRIPT = 'testbench.swebench.no-future.script'
const SCRIPT_HASH = createHash('sha256').update(NO_FUTURE_SCRIPT).digest('hex').slice(0, 16)
/** The scrub of a large repository (sympy: 640,000 objects) takes about a minute on 2 loaded cores. */
const BUILD_TIMEOUT_MS = 20 * 60_000

/** `registry/name:tag` → `registry/name.no-future:tag` (a digest reference gets the digest as its tag). */
export function noFutureImageName(image: string): string {
  const at = image.indexOf('@')
  if (at >= 0) return `${image.slice(0, at)}.no-future:${image.slice(at + 1).replace(/[^A-Za-z0-9_.-]/g, '-')}`
  const colon = image.lastIndexOf(':')
  const hasTag = colon > image.lastIndexOf('/')
  const name = hasTag ? image.slice(0, colon) : image
  const tag = hasTag ? image.slice(colon + 1) : 'latest'
  return `${name}.no-future:${tag}`
}

export interface NoFutureBuild {
  /** The derived image's name. */
  image: string
  /** Its id: what episodes run, so that another run's image of the same name changes nothing here. */
  id: string
  /** Milliseconds it took to make; 0 when an earlier run's image was used. */
  buildMs: number
  /** The script's last line (`no future: main at <commit>, N commits`). */
  summary: string
  /** False when the instance's image held no future and is used as it is (then nothing is made, nor removed). */
  derived: boolean
}

export class NoFutureImages {
  readonly #docker: Docker
  readonly #keep: boolean
  readonly #builds = new Map<string, { build: Promise<NoFutureBuild>; users: number }>()

  constructor(docker: Docker, keep: boolean) {
    this.#docker = docker
    this.#keep = keep
  }

  /**
   * Runs `use` with the derived image of `image` at `baseCommit`, making it first when needed; `onPulled` is told when
   * the instance's image had to be pulled for it.
   */
  async using<T>(
    image: string,
    baseCommit: string,
    use: (build: NoFutureBuild) => Promise<T>,
    onPulled?: (image: string) => void,
  ): Promise<T> {
    const key = `${image}\u0000${baseCommit}`
    let entry = this.#builds.get(key)
    if (entry === undefined) {
      entry = { build: this.#make(image, baseCommit, onPulled), users: 0 }
      this.#builds.set(key, entry)
    }
    entry.users++
    try {
      const pending = entry.build
      const build = await pending
      try {
        return await use(build)
      } catch (error) {
        // Another run that used the image too removed it after its own episode, between our finding it and our
        // container's start (a container holds an image: once ours runs, nobody can remove it). Made again, once.
        if (!/no such image|is not on the engine/i.test(reason(error)) || (await this.#exists(build.id))) throw error
        if (entry.build === pending) entry.build = this.#make(image, baseCommit, onPulled)
        return await use(await entry.build)
      }
    } finally {
      entry.users--
      if (entry.users === 0) {
        this.#builds.delete(key)
        const made = await entry.build.catch(() => undefined)
        if (made?.derived === true && !this.#keep) await this.#remove(made)
      }
    }
  }

  async #make(image: string, baseCommit: string, onPulled?: (image: string) => void): Promise<NoFutureBuild> {
    if (await ensureImage(this.#docker, image)) onPulled?.(image)
    const source = await this.#docker.getImage(image).inspect()
    const name = noFutureImageName(image)
    const labels = { [LABEL_SOURCE]: source.Id, [LABEL_BASE]: baseCommit, [LABEL_SCRIPT]: SCRIPT_HASH }
    const existing = await this.#docker
      .getImage(name)
      .inspect()
      .catch(() => undefined)
    const existingLabels = existing?.Config?.Labels ?? {}
    if (existing !== undefined && Object.entries(labels).every(([key, value]) => existingLabels[key] === value))
      return { image: name, id: existing.Id, buildMs: 0, summary: 'made by an earlier run', derived: true }
    const started = performance.now()
    let container: Docker.Container
    try {
      container = await this.#docker.createContainer({
        Image: image,
        Entrypoint: [],
        Cmd: ['bash', '-c', NO_FUTURE_SCRIPT, 'no-future', baseCommit],
        WorkingDir: '/testbed',
        Labels: { 'testbench.suite': 'swebench', 'testbench.swebench.role': 'no-future-build' },
        HostConfig: { NetworkMode: 'none' },
      })
    } catch (error) {
      throw new InfraError(
        `Could not create a container of ${image} to take its repository's future out: ${reason(error)}.`,
      )
    }
    try {
      await container.start()
      let timer: NodeJS.Timeout | undefined
      const ended = await Promise.race([
        container.wait() as Promise<{ StatusCode: number }>,
        new Promise<undefined>((resolve) => {
          timer = setTimeout(() => resolve(undefined), BUILD_TIMEOUT_MS)
        }),
      ]).finally(() => clearTimeout(timer))
      const log = demultiplex(await container.logs({ stdout: true, stderr: true, follow: false })).trim()
      if (ended === undefined)
        throw new InfraError(
          `Taking the future out of ${image}'s repository took over ${BUILD_TIMEOUT_MS / 60_000} minutes.`,
        )
      if (ended.StatusCode !== 0)
        throw new InfraError(
          `Could not take the future out of ${image}'s repository (exit ${ended.StatusCode}): ${log || 'no output'}. ` +
            `The agent would see commits past the base commit ${baseCommit}, so it was not run.`,
        )
      const summary = log.split('\n').at(-1) ?? ''
      if (summary.startsWith('already without a future'))
        return { image, id: source.Id, buildMs: performance.now() - started, summary, derived: false }
      const committed = (await container.commit({
        repo: name.slice(0, name.lastIndexOf(':')),
        tag: name.slice(name.lastIndexOf(':') + 1),
        // One LABEL per change: podman reads `LABEL a=1 b=2` as one label.
        changes: Object.entries(labels).map(([key, value]) => `LABEL ${key}=${value}`),
      })) as { Id?: string; id?: string }
      // An image of an older script or source image lost its name to this one: it goes, unless something still uses it.
      if (existing !== undefined)
        await this.#docker
          .getImage(existing.Id)
          .remove()
          .catch(() => undefined)
      // As inspect spells it (podman's commit leaves out the `sha256:`).
      const id = (await this.#docker.getImage(committed.Id ?? committed.id ?? name).inspect()).Id
      return { image: name, id, buildMs: performance.now() - started, summary, derived: true }
    } catch (error) {
      if (error instanceof InfraError) throw error
      throw new InfraError(`Could not make ${name}, ${image} without its repository's future: ${reason(error)}.`)
    } finally {
      await container.remove({ force: true, v: true }).catch(() => undefined)
    }
  }

  async #exists(id: string): Promise<boolean> {
    return this.#docker
      .getImage(id)
      .inspect()
      .then(
        () => true,
        () => false,
      )
  }

  /** Another run's episode may still use the image (the engine refuses then): that run removes it. */
  async #remove({ image, id }: NoFutureBuild): Promise<void> {
    try {
      // By id, with its name if it still has it: two runs that made the image at once leave no image without a name.
      await this.#docker.getImage(id).remove({ force: false })
    } catch (error) {
      const why = reason(error)
      if (/no such image|not found|in use|being used|conflict|child/i.test(why)) return
      process.stderr.write(
        `swebench: could not remove ${image} after its episodes (${why}); remove it with docker rmi.\n`,
      )
    }
  }
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message.trim() : String(error)
}
