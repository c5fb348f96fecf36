import { GoogleGenAI, JobState, type GenerateContentResponse, type InlinedRequest } from '@google/genai'
import type { ChatReply, ChatRequest } from '../model-adapter.ts'
import { GeminiReplyParts, geminiRequest } from './google.ts'
import { CLOCK_SKEW_MS, LISTED_BATCHES, type BatchResult, type BatchState, type BatchWire } from '../batch-wire.ts'

const ENDED: readonly string[] = [
  JobState.JOB_STATE_SUCCEEDED,
  JobState.JOB_STATE_FAILED,
  JobState.JOB_STATE_CANCELLED,
  JobState.JOB_STATE_EXPIRED,
]

/**
 * Gemini's batch mode: `models/{model}:batchGenerateContent` with the requests inline (under 20 MB in all; each
 * carries its cache key in `metadata`), polled with `batches.get` until the job ends; the inlined responses come
 * in the job, in the order of the requests, each with its metadata. The Developer API reports no counts while
 * a job runs: the progress line shows its state only. The journal's tag is the job's display name.
 */
export class GoogleBatchWire implements BatchWire {
  readonly name = 'Gemini'
  // 20 MB for the whole inline body: the SDK's own JSON around the lines takes a little of it.
  readonly limits = { requests: 50_000, bytes: 19 * 1024 * 1024 }
  private readonly client: GoogleGenAI
  private readonly model: string
  private readonly canSee: boolean

  constructor(model: string, apiKey: string, baseUrl: string, canSee: boolean) {
    this.model = model
    this.canSee = canSee
    this.client = new GoogleGenAI({ apiKey, httpOptions: { baseUrl, retryOptions: { attempts: 1 } } })
  }

  line(key: string, request: ChatRequest): string {
    const { contents, config } = geminiRequest(this.model, request, this.canSee)
    const inlined: InlinedRequest = { contents, config, metadata: { key } }
    return JSON.stringify(inlined)
  }

  async submit(lines: readonly string[], tag: string): Promise<string> {
    const src = lines.map((line) => JSON.parse(line) as InlinedRequest)
    const job = await this.client.batches.create({ model: this.model, src, config: { displayName: displayName(tag) } })
    if (!job.name) throw new Error('Gemini created a batch job without a name')
    return job.name
  }

  async find(tag: string, since: number, _size: number, taken: ReadonlySet<string>): Promise<string | undefined> {
    let listed = 0
    for await (const job of await this.client.batches.list({ config: { pageSize: 100 } })) {
      if (Date.parse(job.createTime ?? '') < since - CLOCK_SKEW_MS || ++listed > LISTED_BATCHES) return undefined
      if (job.displayName === displayName(tag) && job.name && !taken.has(job.name)) return job.name
    }
    return undefined
  }

  async poll(id: string): Promise<BatchState> {
    const job = await this.client.batches.get({ name: id })
    const state = job.state ?? JobState.JOB_STATE_UNSPECIFIED
    const ended = ENDED.includes(state)
    const answered = job.dest?.inlinedResponses?.length ?? 0
    return {
      status: state,
      done: answered,
      total: 0,
      phase: ended ? 'ended' : 'running',
      ...(state === JobState.JOB_STATE_FAILED ? { refused: job.error?.message ?? 'the batch job failed' } : {}),
    }
  }

  async results(id: string): Promise<BatchResult[]> {
    const job = await this.client.batches.get({ name: id })
    const results: BatchResult[] = []
    for (const inlined of job.dest?.inlinedResponses ?? []) {
      const key = inlined.metadata?.key
      if (key === undefined) continue
      if (inlined.error)
        results.push({ key, error: `${inlined.error.code ?? 'error'}: ${inlined.error.message ?? ''}` })
      else if (inlined.response) results.push({ key, reply: geminiResponseReply(inlined.response) })
    }
    return results
  }
}

function displayName(tag: string): string {
  return `llm-testbench ${tag}`
}

/** A whole (not streamed) generateContent response as a reply. */
export function geminiResponseReply(response: GenerateContentResponse): ChatReply {
  const parts = new GeminiReplyParts()
  parts.add(response)
  return parts.reply(0)
}
