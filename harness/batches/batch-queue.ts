import { randomUUID } from 'node:crypto'
import type { ChatReply, ChatRequest } from '../../adapters/models/model-adapter.ts'
import { statusOf } from '../../adapters/models/requests/provider-errors.ts'
import { errorLine, type BatchState, type BatchWire } from '../../adapters/models/batch-wire.ts'
import { writeAtomically } from '../../adapters/models/reply-cache.ts'
import type { BatchJournal, CarriedRequest, JournalEntry } from './batch-journal.ts'
import type { RunFiles } from '../run-wide/run-files.ts'

/** What a request waiting on a batch gets: the reply, a reason to ask it the ordinary way, or an error for the item. */
export type BatchAnswer = { reply: ChatReply } | { ordinary: string } | { error: string }

export interface BatchQueueOptions {
  /** How long to gather after the last new request, or change in the run's files, before submitting. */
  waitMs: number
  /** The run's files: while one may still send its first request, the gather waits for it. */
  files?: Pick<RunFiles, 'awaited' | 'onChange'>
  /** The longest wait between polls; polls start at 1/32 of it and double. */
  pollMs: number
  /** Where batches are recorded the moment they exist; undefined when the reply cache is off. */
  journal: BatchJournal | undefined
  /** One line for the user: progress and what went wrong. */
  say: (line: string) => void
}

/** An open batch as the progress line shows it. */
export interface OpenBatch {
  /** The journal's name for it (batch-journal.ts). */
  tag: string
  id: string
  submittedAt: number
  /** The requests it carries that this run waits for or has not stored yet. */
  size: number
  state: BatchState | undefined
}

interface Waiting {
  request: ChatRequest
  file: string
  answer: Array<(answer: BatchAnswer) => void>
}

/** Tries of one call to the provider (upload, create, download) that a server error or lost connection may take. */
const CALL_TRIES = 6

/**
 * The longest a gather waits for the run's files with nothing happening: a file that runs and never asks a batch
 * (its replies all cached, or its items asked one by one) holds it no longer.
 */
const HOLD_MS = 60_000

/**
 * The batches of one model: gathers its requests, submits them within the provider's limits, records each batch
 * the moment it exists, polls the open ones with backoff, hands each reply to whoever waits for it and writes it
 * to the reply cache; a request the batch left unanswered goes into the next batch, one it answered with an error
 * is asked the ordinary way. Batches a stopped run left open (the journal) are collected, never submitted again.
 */
export class BatchQueue {
  readonly label: string
  readonly wire: BatchWire
  readonly open = new Map<string, OpenBatch>()
  /** Every request sent so far: uploads and creates, polls, downloads. */
  readonly calls = { submits: 0, polls: 0, downloads: 0 }
  private readonly options: BatchQueueOptions
  private readonly waiting = new Map<string, Waiting>()
  /** Keys of requests an open batch carries, with the batch's id. */
  private readonly carried = new Map<string, string>()
  /** Answers a resumed batch brought for requests no item had asked yet: each item gets its own when it asks. */
  private readonly early = new Map<string, BatchAnswer>()
  /** Keys (with their lines) not yet submitted, in arrival order. */
  private pending: Array<{ key: string; line: string }> = []
  private pendingBytes = 0
  private timer: NodeJS.Timeout | undefined
  /** When the gather last heard of a request or a change in the run's files. */
  private heardAt = 0
  private readonly stopListening: (() => void) | undefined
  private refused: string | undefined
  private closed = false

  constructor(label: string, wire: BatchWire, options: BatchQueueOptions) {
    this.label = label
    this.wire = wire
    this.options = options
    this.stopListening = options.files?.onChange(() => {
      if (this.pending.length > 0) this.gather()
    })
  }

  /**
   * Collects the batches a stopped run left open; one it was creating when it stopped is looked for in the
   * provider's list by its tag, and its requests are asked again only when it is not there.
   */
  async resume(): Promise<void> {
    const entries = (await this.options.journal?.open(this.label)) ?? []
    for (const entry of entries) {
      const createdAt = Date.parse(entry.createdAt) || Date.now()
      const id = entry.id ?? (await this.lost(entry, createdAt))
      if (id === undefined) continue
      this.options.say(
        `${this.wire.name} batch ${id} (from ${entry.createdAt}) carries ${entry.requests.length} requests not in the cache yet: collecting it instead of asking again`,
      )
      this.track(
        { tag: entry.tag, id, submittedAt: createdAt, size: entry.requests.length, state: undefined },
        entry.requests,
      )
    }
  }

  /** The id of the batch a stopped run was creating, recorded now; undefined (and the record gone) when it was not made. */
  private async lost(entry: JournalEntry, createdAt: number): Promise<string | undefined> {
    let id: string | undefined
    try {
      id = await this.call(() => this.wire.find(entry.tag, createdAt, entry.requests.length, this.taken()))
    } catch (error) {
      this.options.say(`${this.wire.name}: the batches cannot be listed (${errorLine(error)})`)
    }
    if (id === undefined) {
      this.options.say(
        `${this.wire.name}: the batch a stopped run was creating at ${entry.createdAt} (${entry.tag}) was not made: its ${entry.requests.length} requests are asked again`,
      )
      await this.options.journal?.remove(this.label, entry.tag)
      return undefined
    }
    await this.options.journal?.write({ ...entry, id })
    return id
  }

  private taken(): Set<string> {
    return new Set(this.open.keys())
  }

  ask(key: string, file: string, request: ChatRequest): Promise<BatchAnswer> {
    if (this.refused !== undefined) return Promise.resolve({ error: this.refused })
    const early = this.early.get(key)
    if (early !== undefined) return Promise.resolve(early)
    return new Promise((resolve) => {
      const waiting = this.waiting.get(key)
      if (waiting !== undefined) return waiting.answer.push(resolve)
      this.waiting.set(key, { request, file, answer: [resolve] })
      if (!this.carried.has(key)) this.enqueue(key, request)
    })
  }

  /** Stops submitting and polling; whoever still waits is told to ask the ordinary way. */
  close(): void {
    this.closed = true
    clearTimeout(this.timer)
    this.stopListening?.()
    for (const key of this.waiting.keys()) this.settle(key, { ordinary: 'the run ended before its batch did' })
  }

  private enqueue(key: string, request: ChatRequest): void {
    const line = this.wire.line(key, request)
    const bytes = Buffer.byteLength(line) + 1
    if (this.pending.length + 1 > this.wire.limits.requests || this.pendingBytes + bytes > this.wire.limits.bytes)
      this.flush()
    this.pending.push({ key, line })
    this.pendingBytes += bytes
    this.gather()
  }

  /** Submits what is pending `waitMs` after the last request or change in the run's files, once none is awaited. */
  private gather(): void {
    this.heardAt = Date.now()
    clearTimeout(this.timer)
    this.timer = setTimeout(() => this.gathered(), this.options.waitMs)
  }

  private gathered(): void {
    const quiet = Date.now() - this.heardAt
    // A file that asks, starts or ends calls gather() again.
    if (this.options.files?.awaited() === true && quiet < HOLD_MS)
      this.timer = setTimeout(() => this.gathered(), HOLD_MS - quiet)
    else this.flush()
  }

  private flush(): void {
    clearTimeout(this.timer)
    const lines = this.pending
    this.pending = []
    this.pendingBytes = 0
    if (lines.length > 0 && !this.closed) void this.submit(lines)
  }

  private async submit(lines: Array<{ key: string; line: string }>): Promise<void> {
    for (const { key } of lines) this.carried.set(key, '')
    const requests: CarriedRequest[] = []
    for (const { key } of lines) {
      const waiting = this.waiting.get(key)
      if (waiting !== undefined) requests.push({ key, file: waiting.file })
    }
    const submittedAt = Date.now()
    const entry: JournalEntry = {
      label: this.label,
      tag: `tb-${randomUUID()}`,
      createdAt: new Date(submittedAt).toISOString(),
      requests,
    }
    // Recorded before it exists: a run stopped while the provider creates it finds it by its tag.
    const journal = await this.record(entry)
    let id: string
    try {
      let tries = 0
      id = await this.call(async () => {
        // A try after a lost connection may find the batch the last one made.
        const made = tries++ > 0 ? await this.wire.find(entry.tag, submittedAt, lines.length, this.taken()) : undefined
        if (made !== undefined) return made
        this.calls.submits++
        return this.wire.submit(
          lines.map((each) => each.line),
          entry.tag,
        )
      })
    } catch (error) {
      for (const { key } of lines) this.carried.delete(key)
      if (journal) await this.options.journal?.remove(this.label, entry.tag)
      return this.refuse(
        `${this.wire.name} refused a batch of ${lines.length} requests for ${this.label}: ${errorLine(error)}`,
      )
    }
    if (journal) await this.record({ ...entry, id })
    this.options.say(`${this.wire.name} batch ${id} submitted: ${lines.length} requests for ${this.label}`)
    this.track({ tag: entry.tag, id, submittedAt, size: requests.length, state: undefined }, requests)
  }

  /** Writes a journal record; false (and said why) when the cache dir cannot take it. */
  private async record(entry: JournalEntry): Promise<boolean> {
    if (this.options.journal === undefined) return false
    try {
      await this.options.journal.write(entry)
      return true
    } catch (error) {
      this.options.say(
        `batch ${entry.id ?? entry.tag} cannot be recorded in the cache dir (${errorLine(error)}): a stopped run would ask its requests again`,
      )
      return false
    }
  }

  private track(batch: OpenBatch, requests: readonly CarriedRequest[]): void {
    for (const { key } of requests) this.carried.set(key, batch.id)
    this.open.set(batch.id, batch)
    void this.watch(batch, requests)
  }

  private async watch(batch: OpenBatch, requests: readonly CarriedRequest[]): Promise<void> {
    let failures = 0
    let predicted = false
    while (!this.closed) {
      const waited = Date.now() - batch.submittedAt
      // A poll at the predicted end that finds the batch still running is not followed by another at once.
      const delay = pollDelay(waited, this.options.pollMs, predicted ? undefined : batch.state)
      predicted = delay < pollDelay(waited, this.options.pollMs)
      await new Promise((resolve) => setTimeout(resolve, delay))
      if (this.closed) return
      try {
        this.calls.polls++
        const state = await this.wire.poll(batch.id)
        failures = 0
        batch.state = state
        if (state.phase === 'ended') {
          this.options.say(progressLine(this.wire.name, batch))
          return await this.collect(batch, requests)
        }
      } catch (error) {
        failures++
        if (statusOf(error) !== undefined && !retryable(error))
          return this.end(batch, requests, `${this.wire.name} cannot poll batch ${batch.id}: ${errorLine(error)}`)
        if (failures === 1 || failures % 10 === 0)
          this.options.say(`${this.wire.name} batch ${batch.id}: a poll failed (${errorLine(error)}); polling on`)
      }
    }
  }

  private async collect(batch: OpenBatch, requests: readonly CarriedRequest[]): Promise<void> {
    if (batch.state?.refused !== undefined)
      return this.end(
        batch,
        requests,
        `${this.wire.name} refused batch ${batch.id} for ${this.label}: ${batch.state.refused}`,
      )
    let results
    try {
      results = await this.call(() => {
        this.calls.downloads++
        return this.wire.results(batch.id)
      })
    } catch (error) {
      return this.end(
        batch,
        requests,
        `${this.wire.name} batch ${batch.id}: its results cannot be read (${errorLine(error)})`,
      )
    }
    const files = new Map(requests.map((request) => [request.key, request.file]))
    let errors = 0
    for (const result of results) {
      if (this.carried.get(result.key) !== batch.id) continue
      if ('error' in result) {
        errors++
        this.carried.delete(result.key)
        this.settle(result.key, { ordinary: `the batch answered it with an error (${result.error})` })
        continue
      }
      const reply: ChatReply = { ...result.reply, latencyMs: Date.now() - batch.submittedAt, batch: batch.id }
      const file = files.get(result.key)
      // Still carried while the reply is stored: an item that asks meanwhile waits for this answer, not a new batch.
      if (file !== undefined && this.options.journal !== undefined) await storeReply(file, reply)
      this.carried.delete(result.key)
      this.settle(result.key, { reply })
    }
    const unanswered = requests.filter((request) => this.carried.get(request.key) === batch.id)
    for (const { key } of unanswered) {
      this.carried.delete(key)
      const waiting = this.waiting.get(key)
      if (waiting !== undefined) this.enqueue(key, waiting.request)
    }
    if (unanswered.length > 0 || errors > 0)
      this.options.say(
        `${this.wire.name} batch ${batch.id} ended ${batch.state?.status ?? ''}: ${unanswered.length} unanswered (asked again in the next batch), ${errors} answered with an error (asked the ordinary way)`,
      )
    this.open.delete(batch.id)
    await this.options.journal?.remove(this.label, batch.tag)
  }

  /** A batch given up: its requests are asked the ordinary way, or fail when the provider refused it. */
  private end(batch: OpenBatch, requests: readonly CarriedRequest[], why: string): void {
    this.open.delete(batch.id)
    const refused = batch.state?.refused !== undefined
    if (refused) this.refuse(why)
    else this.options.say(`${why}; its requests are asked the ordinary way`)
    for (const { key } of requests) {
      if (this.carried.get(key) !== batch.id) continue
      this.carried.delete(key)
      this.settle(key, refused ? { error: why } : { ordinary: why })
    }
    if (refused) void this.options.journal?.remove(this.label, batch.tag)
  }

  /** The provider refused a batch: one message, and every request of this model fails with it. */
  private refuse(why: string): void {
    if (this.refused === undefined) this.options.say(`${why}. Fix the request or run without TESTBENCH_BATCH.`)
    this.refused ??= why
    this.pending = []
    for (const key of [...this.waiting.keys()]) if (!this.carried.get(key)) this.settle(key, { error: why })
  }

  /**
   * Hands `answer` to whoever waits for `key`. A resumed batch may end before its item asks (the item found no
   * reply in the cache just before the batch wrote it there): the answer waits for that item, or it would pay again.
   */
  private settle(key: string, answer: BatchAnswer): void {
    const waiting = this.waiting.get(key)
    if (waiting === undefined) return void this.early.set(key, answer)
    this.waiting.delete(key)
    for (const resolve of waiting.answer) resolve(answer)
  }

  /** One call to the provider, tried again after a server error or a lost connection; a 4xx is thrown at once. */
  private async call<T>(once: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await once()
      } catch (error) {
        if (attempt >= CALL_TRIES || !retryable(error)) throw error
        await new Promise((resolve) => setTimeout(resolve, Math.min(30_000, (this.options.pollMs / 32) * 2 ** attempt)))
      }
    }
  }
}

/** A poll is at most this share of the time waited late: the run ends at most that much after its last batch. */
const LATE_SHARE = 0.02

/**
 * The wait before the next poll of a batch `waitedMs` old: from 1/32 of the longest wait, growing with the time
 * waited so that a poll comes at most 2 % late, and never longer than the longest wait; sooner when the provider's
 * counts (`progress`) say the batch, at its pace so far, ends before then.
 */
export function pollDelay(waitedMs: number, pollMs: number, progress?: Pick<BatchState, 'done' | 'total'>): number {
  const late = Math.min(pollMs, Math.max(pollMs / 32, waitedMs * LATE_SHARE))
  if (progress === undefined || progress.done <= 0 || progress.done >= progress.total) return late
  const left = (waitedMs * (progress.total - progress.done)) / progress.done
  return Math.max(pollMs / 32, Math.min(late, left))
}

function retryable(error: unknown): boolean {
  const status = statusOf(error)
  return status === undefined || status === 408 || status === 429 || status >= 500
}

/** `OpenAI batch batch_abc: 12/64 in_progress, waited 1 min 20 s`. */
export function progressLine(provider: string, batch: OpenBatch, now = Date.now()): string {
  const state = batch.state
  const counts = state === undefined ? 'submitted' : `${state.done}/${state.total || batch.size} ${state.status}`
  return `${provider} batch ${batch.id}: ${counts}, waited ${waited(now - batch.submittedAt)}`
}

function waited(ms: number): string {
  const seconds = Math.round(ms / 1000)
  if (seconds < 60) return `${seconds} s`
  const minutes = Math.floor(seconds / 60)
  return minutes < 60 ? `${minutes} min ${seconds % 60} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`
}

async function storeReply(file: string, reply: ChatReply): Promise<void> {
  try {
    await writeAtomically(file, JSON.stringify({ reply }, null, 1))
  } catch {
    // The waiting item's own cache write says what is wrong with the directory.
  }
}

export type { JournalEntry }
