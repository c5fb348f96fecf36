import type { TestAttachment, TestContext } from 'vitest'
import { displayText } from './display-text.ts'
import type { ItemRecord } from './item-record.ts'

const SHOWN: Array<[keyof ItemRecord, string]> = [
  ['prompt', 'prompt'],
  ['reasoning', 'reasoning'],
  ['reply', 'reply'],
  ['extracted', 'extracted'],
  ['output', 'output'],
]

/** Columns a text image wraps at: 80 monospace columns fit the 600 pixels the UI gives an image. */
const COLUMNS = 80
/** Lines a text image shows at most; the JSON report always has the whole text. */
const MAX_LINES = 400
/** A one-line text up to this length is shown as it is, without an image. */
const SHORT = 160

/**
 * Shows the item in the Vitest UI, the html report and the terminal: one annotation per part.
 * The UI collapses an annotation's line breaks and indentation, so a text of several lines
 * also gets an image attachment that keeps its layout (the one kind of attachment the UI
 * displays inline); the message stays a one-line preview for the terminal.
 */
export async function showRecord(record: ItemRecord, context: TestContext): Promise<void> {
  for (const [field, label] of SHOWN) {
    const raw = record[field]
    if (typeof raw !== 'string' || raw === '') continue
    const text = displayText(raw)
    if (isShort(text)) await context.annotate(text, label)
    else await context.annotate(preview(text), label, textImage(text))
  }
  if (record.outcome) await context.annotate(record.outcome, 'outcome')
}

function isShort(text: string): boolean {
  return text.length <= SHORT && !text.includes('\n')
}

/** The first non-empty line, cut to fit, and how long the whole text is. */
export function preview(text: string): string {
  const lines = text.split('\n')
  const first = (lines.find((line) => line.trim() !== '') ?? '').trim()
  const cut = first.length > 120 ? `${first.slice(0, 119)}…` : first
  return `${cut} … (${lines.length} lines, ${text.length} characters)`
}

/** The text drawn as an SVG image: monospace, its line breaks and indentation kept, long lines wrapped. */
export function textImage(text: string): TestAttachment {
  const wrapped = wrapLines(text, COLUMNS)
  const shown = wrapped.length > MAX_LINES ? [...wrapped.slice(0, MAX_LINES), `… ${wrapped.length - MAX_LINES} more lines: the JSON report has the whole text`] : wrapped
  const lineHeight = 16
  const width = COLUMNS * 7.2 + 16
  const height = shown.length * lineHeight + 12
  const tspans = shown.map((line, index) => `<tspan x="8" y="${(index + 1) * lineHeight}">${escapeXml(line)}</tspan>`).join('')
  const body =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<rect width="100%" height="100%" fill="#ffffff" stroke="#d0d7de"/>` +
    `<text font-family="ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace" font-size="12" fill="#1f2328" xml:space="preserve">${tspans}</text></svg>`
  return { contentType: 'image/svg+xml', body, bodyEncoding: 'utf-8' }
}

/** Lines of at most `columns` characters; tabs become four spaces, a wrapped line continues after `↪`. */
export function wrapLines(text: string, columns: number): string[] {
  const lines: string[] = []
  for (const line of text.replace(/\r\n?/g, '\n').replace(/\t/g, '    ').split('\n')) {
    const characters = [...line]
    lines.push(characters.slice(0, columns).join(''))
    for (let start = columns; start < characters.length; start += columns - 2) {
      lines.push(`↪ ${characters.slice(start, start + columns - 2).join('')}`)
    }
  }
  return lines
}

function escapeXml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '�')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
}
