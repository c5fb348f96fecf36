/** Reading the pages the scraper fetches: a problem (`minimal=N`), an archives page, the published answer list. */
import type { AnyNode } from 'domhandler'

export interface ProblemPage {
  /** Plain text: paragraphs separated by blank lines, `<br>` as line breaks, MathJax (`$…$`) kept, images as `(see image)`. */
  text: string
  /** Data files the text links to, in order: the link is replaced by `the attachment <name>` in the text. */
  attachments: Array<{ name: string; href: string }>
  /** The images' `src`, in order (upstream's scraper saves them as `NNNN-<k>.<ext>`). */
  images: string[]
}

export interface ArchiveRow {
  number: number
  title: string
  solvedBy: number
}

/** Elements that stand apart as paragraphs, and elements that take a line of their own. */
const PARAGRAPH = new Set([
  'p',
  'div',
  'pre',
  'table',
  'ul',
  'ol',
  'blockquote',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'dl',
])
const LINE = new Set(['tr', 'li', 'dt', 'dd'])
const DATA_FILE = /^(?:project\/)?resources\/.*\.(?:txt|csv|dat|lst)$/i
const SAVE_LINK_HINT = /^\s*\(right click[^)]*\)/i

/**
 * cheerio, imported when a page is first read: it brings undici along, about 0.5 s of CPU that every
 * run would pay at start-up, since the reporters import this suite's dataset loader.
 */
const cheerio = () => import('cheerio')

/** The `https://projecteuler.net/minimal=N` fragment as the text a model reads. */
export async function parseProblemPage(html: string): Promise<ProblemPage> {
  const $ = (await cheerio()).load(html, null, false)
  const attachments: ProblemPage['attachments'] = []
  const images: string[] = []
  const parts: string[] = []

  const render = (node: AnyNode, preformatted: boolean): void => {
    if (node.type === 'text') {
      parts.push(preformatted ? node.data : node.data.replace(/\s+/g, ' '))
      return
    }
    if (node.type !== 'tag') return
    const name = node.name.toLowerCase()
    if (name === 'br') return void parts.push('\n')
    if (name === 'img') {
      if (node.attribs.src) images.push(node.attribs.src)
      return void parts.push(' (see image) ')
    }
    if (name === 'script' || name === 'style') return
    const href = (node.attribs.href ?? '').split('?')[0] ?? ''
    if (name === 'a' && DATA_FILE.test(href)) {
      const fileName = href.split('/').pop() ?? href
      attachments.push({ name: fileName, href: node.attribs.href ?? href })
      parts.push(`the attachment ${fileName}`)
      const next = node.next
      if (next?.type === 'text') next.data = next.data.replace(SAVE_LINK_HINT, '')
      return
    }
    const paragraph = PARAGRAPH.has(name)
    if (paragraph) parts.push('\n\n')
    if (name === 'sup') parts.push('^')
    if (name === 'sub') parts.push('_')
    if (name === 'td' || name === 'th') parts.push(' ')
    for (const child of node.children) render(child, preformatted || name === 'pre')
    if (paragraph) parts.push('\n\n')
    else if (LINE.has(name)) parts.push('\n')
  }
  for (const node of $.root().contents().toArray()) render(node, false)

  const text = parts
    .join('')
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
  return { text, attachments, images }
}

/** The rows of an archives page (`https://projecteuler.net/archives;page=K`): number, title, solved by. */
export async function parseArchivePage(html: string): Promise<ArchiveRow[]> {
  const $ = (await cheerio()).load(html)
  const rows: ArchiveRow[] = []
  $('#problems_table tr').each((_, row) => {
    const cells = $(row).children('td')
    if (cells.length < 3) return
    const number = Number($(cells[0]).text().trim())
    const title = $(cells[1]).text().replace(/\s+/g, ' ').trim()
    const solvedBy = Number($(cells[2]).text().replace(/[^\d]/g, ''))
    if (Number.isInteger(number) && number > 0 && title !== '' && solvedBy > 0) rows.push({ number, title, solvedBy })
  })
  return rows
}

/** The published answer list (Markdown, one `N. answer` line per problem) as problem number → answer. */
export function parseAnswerList(markdown: string): Map<number, string> {
  const answers = new Map<number, string>()
  for (const line of markdown.split('\n')) {
    const match = /^\s*(\d+)\.\s+(\S.*?)\s*$/.exec(line)
    if (match?.[1] && match[2]) answers.set(Number(match[1]), match[2])
  }
  return answers
}
