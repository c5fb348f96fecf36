/**
 * The judge (judge.py): a trusted Python process beside the harness, outside the
 * sandbox, that compares a candidate's returned values with the canonical outputs
 * by EvalPlus's rules. One per Vitest worker, started on first use.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { createInterface } from 'node:readline'
import { HostToolchain } from '../../../adapters/sandbox/host-toolchain.ts'
import { isRecord } from '../../dataset-file.ts'
import type { OracleKind } from './evalplus-oracle.ts'

export interface JudgeRequest {
  /** The oracle file and the task in it. */
  oracle: string
  task: string
  kind: OracleKind
  /** The driver's stdout from the candidate's run. */
  output: string
}

export type FailureStatus = 'wrong' | 'timeout' | 'error' | 'unencodable' | 'missing' | 'malformed'

export interface JudgeVerdict {
  passed: boolean
  /** Every base input (the original benchmark's tests) passed. */
  basePassed: boolean
  inputs: number
  base: number
  checked: number
  /** CPU and wall time the function took over the inputs checked, as the driver measured them. */
  cpuMs: number
  wallMs: number
  failure: { index: number | null; status: FailureStatus; detail: string } | null
}

let judge: Judge | undefined

export function judgeOutputs(request: JudgeRequest): Promise<JudgeVerdict> {
  judge ??= new Judge()
  return judge.ask(request)
}

class Judge {
  readonly #child: ChildProcessWithoutNullStreams
  readonly #pending = new Map<number, { resolve: (verdict: JudgeVerdict) => void; reject: (error: Error) => void }>()
  #next = 0
  #stderr = ''

  constructor() {
    const python = new HostToolchain().resolve('python')
    if ('missing' in python) throw new Error(`The EvalPlus judge needs Python: ${python.missing}.`)
    const script = new URL('judge.py', import.meta.url).pathname
    this.#child = spawn(python.path, ['-B', '-E', '-s', script], { stdio: ['pipe', 'pipe', 'pipe'] })
    this.#child.stderr.on('data', (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString()).slice(-4000)
    })
    createInterface({ input: this.#child.stdout }).on('line', (line) => this.#answer(line))
    this.#child.on('exit', (code, signal) => {
      judge = undefined
      const error = new Error(`The EvalPlus judge (judge.py) stopped (${signal ?? `exit ${code}`}): ${this.#stderr.trim() || 'no message'}`)
      for (const waiting of this.#pending.values()) waiting.reject(error)
      this.#pending.clear()
    })
    this.#holdProcess(false)
    process.once('exit', () => this.#child.kill())
  }

  /** The judge keeps the harness's process alive only while it has a question to answer. */
  #holdProcess(hold: boolean): void {
    if (hold) this.#child.ref()
    else this.#child.unref()
    for (const stream of [this.#child.stdin, this.#child.stdout, this.#child.stderr]) {
      const handle = stream as unknown as { ref?: () => void; unref?: () => void }
      if (hold) handle.ref?.()
      else handle.unref?.()
    }
  }

  ask(request: JudgeRequest): Promise<JudgeVerdict> {
    const id = this.#next++
    return new Promise((resolve, reject) => {
      if (this.#pending.size === 0) this.#holdProcess(true)
      this.#pending.set(id, { resolve, reject })
      this.#child.stdin.write(`${JSON.stringify({ id, ...request })}\n`)
    })
  }

  #answer(line: string): void {
    const reply: unknown = JSON.parse(line)
    if (!isRecord(reply) || typeof reply.id !== 'number') return
    const waiting = this.#pending.get(reply.id)
    if (waiting === undefined) return
    this.#pending.delete(reply.id)
    if (this.#pending.size === 0) this.#holdProcess(false)
    if (typeof reply.error === 'string') waiting.reject(new Error(`The EvalPlus judge could not judge this run: ${reply.error}`))
    else waiting.resolve(reply as unknown as JudgeVerdict)
  }
}
