import { randomInt } from 'node:crypto'
import { openSync, closeSync } from 'node:fs'
import { ServerProcess } from './server-process.ts'
import { bwrapArgs } from '../process/bwrap-args.ts'
import { hiddenHostPaths } from '../process/sandbox-root.ts'
import { WarmServerPool } from './warm-server-pool.ts'
import { warnOnce } from '../warn-once.ts'

/** What the warm javac made of one program's sources. */
export interface WarmCompile {
  compiled: boolean
  /** javac's diagnostics, as the command prints them. */
  output: string
  /** Class files by path relative to the work dir (com/x/Main.class). */
  classes: Map<string, Buffer>
  wallMs: number
}

const SERVER_FILE = new URL('./jvm-warm-javac.java', import.meta.url)
const READY = 0x4a415641
/** The server's heap; a compile that needs more fails over to a cold javac with the compile limits. */
const HEAP = '-Xmx768m'
const TMPFS_BYTES = 64 * 1024 * 1024
/** As root, the servers run as a throwaway uid in a user namespace, as ordinary users' do. */
const SERVER_UID_BASE = 1_300_000_000
const SERVER_UID_RANGE = 100_000_000

/**
 * Warm javac servers inside bwrap, one per concurrent compile: sources in, class files out, through
 * a pipe. A compile a server cannot finish returns undefined and the server is dropped; the caller
 * then compiles cold. A server that cannot start is not tried again.
 */
export class WarmJavac {
  readonly #java: string
  readonly #bwrap: string
  readonly #user: { uid: number; gid: number } | undefined
  readonly #servers = new WarmServerPool(() => this.#start())
  #cannotStart = false

  constructor(java: string, bwrap: string, options: { root: boolean }) {
    this.#java = java
    this.#bwrap = bwrap
    const uid = SERVER_UID_BASE + randomInt(SERVER_UID_RANGE)
    this.#user = options.root ? { uid, gid: uid } : undefined
  }

  compile(sources: Record<string, string>, wallMs: number): Promise<WarmCompile | undefined> {
    return this.#servers.use((server) => server.compile(sources, wallMs))
  }

  close(): void {
    this.#servers.close()
  }

  async #start(): Promise<JavacServer | undefined> {
    if (this.#cannotStart) return undefined
    const argv = [
      ...bwrapArgs(this.#bwrap, {
        root: false,
        tmpfsBytes: TMPFS_BYTES,
        tools: [this.#java],
        hidden: hiddenHostPaths(),
        capabilities: [],
      }),
      '--disable-userns',
      '--file',
      '3',
      '/tmp/JavacServer.java',
      '--chdir',
      '/tmp',
      '--',
      this.#java,
      HEAP,
      '-XX:+UseSerialGC',
      '-XX:-UsePerfData',
      '/tmp/JavacServer.java',
    ]
    const server = new JavacServer(argv, this.#user)
    if (await server.ready) return server
    warnOnce(
      'warm-javac',
      `the warm javac did not start (${server.diagnostics()}); Java programs are compiled by a fresh javac each.`,
    )
    server.kill()
    this.#cannotStart = true
    return undefined
  }
}

class JavacServer {
  readonly ready: Promise<boolean>
  readonly #process: ServerProcess
  #buffer: Buffer = Buffer.alloc(0)
  /** Called with the buffer whenever bytes arrive or the server ends (undefined). */
  #onData: ((ended: boolean) => void) | undefined

  constructor(argv: string[], user: { uid: number; gid: number } | undefined) {
    const source = openSync(SERVER_FILE, 'r')
    try {
      this.#process = new ServerProcess(argv, { user, extraFd: source })
    } finally {
      closeSync(source)
    }
    this.#process.onStdout((chunk) => {
      this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk])
      this.#onData?.(false)
    })
    this.#process.onExit(() => this.#onData?.(true))
    this.ready = new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), 60_000)
      this.#onData = (ended) => {
        if (!ended && this.#buffer.length < 4) return
        clearTimeout(timer)
        this.#onData = undefined
        const ready = !ended && this.#buffer.readInt32BE(0) === READY
        this.#buffer = this.#buffer.subarray(4)
        resolve(ready)
      }
    })
  }

  diagnostics(): string {
    return this.#process.diagnostics()
  }

  compile(sources: Record<string, string>, wallMs: number): Promise<WarmCompile | undefined> {
    const started = performance.now()
    const parts: Buffer[] = [int(Object.keys(sources).length)]
    for (const [path, text] of Object.entries(sources)) parts.push(string(path), string(text))
    this.#process.busy()
    return new Promise((resolve) => {
      const settle = (result: WarmCompile | undefined): void => {
        clearTimeout(timer)
        this.#onData = undefined
        this.#process.idle()
        resolve(result)
      }
      const timer = setTimeout(() => settle(undefined), wallMs)
      this.#onData = (ended) => {
        if (ended) return settle(undefined)
        const response = parseResponse(this.#buffer)
        if (response === undefined) return
        this.#buffer = this.#buffer.subarray(response.length)
        settle({ ...response.compile, wallMs: Math.round(performance.now() - started) })
      }
      this.#process.write(Buffer.concat(parts))
    })
  }

  kill(): void {
    this.#process.kill()
  }
}

function int(value: number): Buffer {
  const buffer = Buffer.alloc(4)
  buffer.writeInt32BE(value)
  return buffer
}

function string(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8')
  return Buffer.concat([int(bytes.length), bytes])
}

/** One whole response at the start of `buffer`, or undefined while it is still arriving. */
function parseResponse(buffer: Buffer): { compile: Omit<WarmCompile, 'wallMs'>; length: number } | undefined {
  let at = 0
  const readInt = (): number | undefined => {
    if (buffer.length < at + 4) return undefined
    at += 4
    return buffer.readInt32BE(at - 4)
  }
  const readBytes = (): Buffer | undefined => {
    const length = readInt()
    if (length === undefined || buffer.length < at + length) return undefined
    at += length
    return buffer.subarray(at - length, at)
  }
  const status = readInt()
  const output = readBytes()
  const count = readInt()
  if (status === undefined || output === undefined || count === undefined) return undefined
  const classes = new Map<string, Buffer>()
  for (let i = 0; i < count; i++) {
    const path = readBytes()
    const bytes = readBytes()
    if (path === undefined || bytes === undefined) return undefined
    classes.set(path.toString('utf8'), Buffer.from(bytes))
  }
  return { compile: { compiled: status === 0, output: output.toString('utf8'), classes }, length: at }
}
