/**
 * A trusted Python process beside the harness, outside the sandbox, that answers one JSON
 * request per line with one JSON reply per line carrying the request's id: the judges of
 * `io/` (judge.py) and `checks/` (check_judge.py). One per script per Vitest worker, started
 * on first use; it keeps the harness's process alive only while it has a question to answer.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { createInterface } from 'node:readline'
import { HostToolchain } from '../../adapters/sandbox/process/host-toolchain.ts'
import { isRecord } from '../datasets/dataset-file.ts'

export interface LineServerOptions {
  /** The Python script, as a file URL. */
  script: URL
  /** Who the process is, for errors: "The EvalPlus judge (judge.py)". */
  name: string
  /** The interpreter's flags, and its whole environment (undefined: -E, the harness's own). */
  flags: readonly string[]
  env?: NodeJS.ProcessEnv
}

export class PythonLineServer {
  readonly #options: LineServerOptions
  #child: ChildProcessWithoutNullStreams | undefined
  readonly #pending = new Map<
    number,
    { resolve: (reply: Record<string, unknown>) => void; reject: (error: Error) => void }
  >()
  #next = 0
  #stderr = ''

  constructor(options: LineServerOptions) {
    this.#options = options
  }

  /** Starts the process ahead of the first request; where it cannot start, the first request says why. */
  start(): void {
    try {
      this.#running()
    } catch {
      // The first ask() throws the same error, to the item that needed the process.
    }
  }

  /** The reply to `request` (an object without `id`), or an error when the process stopped or said `error`. */
  ask(request: Record<string, unknown>): Promise<Record<string, unknown>> {
    const child = this.#running()
    const id = this.#next++
    return new Promise((resolve, reject) => {
      if (this.#pending.size === 0) this.#holdProcess(child, true)
      this.#pending.set(id, { resolve, reject })
      child.stdin.write(`${JSON.stringify({ ...request, id })}\n`)
    })
  }

  #running(): ChildProcessWithoutNullStreams {
    if (this.#child !== undefined) return this.#child
    const python = new HostToolchain().resolve('python')
    if ('missing' in python) throw new Error(`${this.#options.name} needs Python: ${python.missing}.`)
    const child = spawn(python.path, [...this.#options.flags, this.#options.script.pathname], {
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(this.#options.env ? { env: this.#options.env } : {}),
    })
    this.#child = child
    this.#stderr = ''
    child.stderr.on('data', (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString()).slice(-4000)
    })
    createInterface({ input: child.stdout }).on('line', (line) => this.#answer(child, line))
    const stopped = (error: Error): void => {
      if (this.#child === child) this.#child = undefined
      for (const waiting of this.#pending.values()) waiting.reject(error)
      this.#pending.clear()
    }
    child.on('exit', (code, signal) =>
      stopped(
        new Error(
          `${this.#options.name} stopped (${signal ?? `exit ${code}`}): ${this.#stderr.trim() || 'no message'}`,
        ),
      ),
    )
    child.on('error', (error) =>
      stopped(new Error(`${this.#options.name} could not start ${python.path}: ${error.message}`)),
    )
    child.stdin.on('error', () => {}) // EPIPE once it stopped: its exit says why
    this.#holdProcess(child, false)
    process.once('exit', () => child.kill())
    return child
  }

  #holdProcess(child: ChildProcessWithoutNullStreams, hold: boolean): void {
    if (hold) child.ref()
    else child.unref()
    for (const stream of [child.stdin, child.stdout, child.stderr]) {
      const handle = stream as unknown as { ref?: () => void; unref?: () => void }
      if (hold) handle.ref?.()
      else handle.unref?.()
    }
  }

  #answer(child: ChildProcessWithoutNullStreams, line: string): void {
    const reply: unknown = JSON.parse(line)
    if (!isRecord(reply) || typeof reply.id !== 'number') return
    const waiting = this.#pending.get(reply.id)
    if (waiting === undefined) return
    this.#pending.delete(reply.id)
    if (this.#pending.size === 0) this.#holdProcess(child, false)
    const { id: _, ...answer } = reply
    if (typeof answer.error === 'string')
      waiting.reject(new Error(`${this.#options.name} could not answer: ${answer.error}`))
    else waiting.resolve(answer)
  }
}
