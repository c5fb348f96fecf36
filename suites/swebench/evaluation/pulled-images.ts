/**
 * The evaluation images a run pulled, each removed when its last evaluation of the run ends, as
 * SWE-bench's harness removes an instance image after its instance (unless its cache level keeps
 * it); an image the engine had before the run is never touched. TESTBENCH_SWEBENCH_KEEP_IMAGES=1
 * keeps them all.
 */
import type Docker from 'dockerode'

export class PulledImages {
  readonly #docker: Docker
  readonly #keep: boolean
  readonly #inUse = new Map<string, number>()
  readonly #pulled = new Set<string>()

  constructor(docker: Docker, keep: boolean) {
    this.#docker = docker
    this.#keep = keep
  }

  /** Called when this run pulled `image`. */
  markPulled(image: string): void {
    this.#pulled.add(image)
  }

  /** Runs an evaluation on `image`; when it was the image's last one running and the run pulled the image, removes it. */
  async using<T>(image: string, evaluation: () => Promise<T>): Promise<T> {
    this.#inUse.set(image, (this.#inUse.get(image) ?? 0) + 1)
    try {
      return await evaluation()
    } finally {
      const left = (this.#inUse.get(image) ?? 1) - 1
      if (left > 0) this.#inUse.set(image, left)
      else {
        this.#inUse.delete(image)
        if (this.#pulled.delete(image) && !this.#keep) await this.#remove(image)
      }
    }
  }

  async #remove(image: string): Promise<void> {
    try {
      await this.#docker.getImage(image).remove()
    } catch (error) {
      const reason = error instanceof Error ? error.message.trim() : String(error)
      process.stderr.write(
        `swebench: could not remove the evaluation image ${image} after its evaluation (${reason}); remove it with docker rmi.\n`,
      )
    }
  }
}
