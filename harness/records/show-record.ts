import type { TaskMeta, TestContext } from 'vitest'
import { NOT_THE_MODELS_FAULT } from '../../adapters/outcome.ts'
import { displayText } from './display-text.ts'
import type { ItemRecord } from './item-record.ts'
import { renderTrajectory } from '../conversation/trajectory.ts'
import { completionTokenText, promptTokenText } from './token-text.ts'

/**
 * What the Vitest UI and the html report list under "Test Meta", in this order: each value a plain
 * string, which they show in a `<pre>`, line breaks and indentation kept, as text that can be selected,
 * copied and found with Ctrl-F (an annotation's message is folded onto one line, and a non-image
 * attachment is only a download link). The raw record (`bench`) follows them.
 */
export interface ItemView {
  /** The suite's scores for the item's model: a placeholder until the run ends (reporters/scores-in-items.ts). */
  scores?: string
  /** The outcome and its reason, e.g. `wrong_answer: Answered 3.`; errors that are not the model's fault say so. */
  outcome?: string
  /** What the item's replies used, e.g. `1200 (1000 cached) prompt, 300 (200 reasoning) completion`. */
  tokens?: string
  prompt?: string
  reasoning?: string
  /** A conversation's turns, tool calls and results (harness/conversation/trajectory.ts). */
  trajectory?: string
  reply?: string
  extracted?: string
  output?: string
}

declare module 'vitest' {
  interface TaskMeta extends ItemView {}
}

const TEXTS = ['prompt', 'reasoning', 'reply', 'extracted', 'output'] as const satisfies ReadonlyArray<
  keyof ItemRecord & keyof ItemView
>

/** Characters of one text shown at most; the JSON report always has the whole text. */
const MAX_CHARACTERS = 100_000

export const SCORES_PENDING =
  'The suite’s scores appear here when the run ends (reload the page if it was open during the run).'

/**
 * Shows the item in the Vitest UI, the html report and the terminal: its texts as meta (above), listed
 * before the raw record, and one annotation with the outcome and its reason, which the terminal prints
 * under a failed item.
 */
export async function showRecord(record: ItemRecord, context: TestContext): Promise<void> {
  const meta = context.task.meta
  const view = itemView(record)
  // The UI lists meta in insertion order: the texts first, then what was there (the record, the declaration).
  const before = Object.entries(meta).filter(([key]) => !(key in view))
  for (const key of Object.keys(meta)) delete meta[key as keyof TaskMeta]
  Object.assign(meta, view, Object.fromEntries(before))
  if (view.outcome) await context.annotate(view.outcome, 'outcome')
}

export function itemView(record: ItemRecord): ItemView {
  const view: ItemView = { scores: SCORES_PENDING }
  if (record.outcome) view.outcome = outcomeText(record)
  if (record.tokens)
    view.tokens = `${promptTokenText(record.tokens)} prompt, ${completionTokenText(record.tokens)} completion`
  for (const field of TEXTS) {
    const raw = record[field]
    if (typeof raw === 'string' && raw !== '') view[field] = shown(displayText(raw))
    if (field === 'reasoning' && record.trajectory !== undefined && record.trajectory.length > 0) {
      view.trajectory = shown(displayText(renderTrajectory(record.trajectory, record.conversationEnd)))
    }
  }
  return view
}

/** `passed`, `wrong_answer: Answered 3.`, `provider_error (not the model's fault): …`. */
export function outcomeText(record: ItemRecord): string {
  const outcome = record.outcome ?? 'unfinished'
  const fault =
    record.outcome !== undefined && NOT_THE_MODELS_FAULT.has(record.outcome) ? ' (not the model’s fault)' : ''
  const reason = record.reason ? `: ${displayText(record.reason).replace(/\s*\n\s*/g, ' ')}` : ''
  return `${outcome}${fault}${reason}`
}

function shown(text: string): string {
  if (text.length <= MAX_CHARACTERS) return text
  return `${text.slice(0, MAX_CHARACTERS)}\n… ${text.length - MAX_CHARACTERS} more characters: the JSON report has the whole text`
}
