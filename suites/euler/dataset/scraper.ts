/**
 * Downloads Project Euler problems into a directory in the data layout `problems.ts` reads:
 * `problems/NNNN.txt`, `resources/<file>` + `resources.json`, `solutions.json`. Polite: one
 * request at a time with a pause between requests, progress on stderr, and nothing fetched
 * twice (what is in the directory already is kept).
 */
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomically } from '../../../harness/atomic-file.ts'
import { parseAnswerList, parseArchivePage, parseProblemPage } from './pe-pages.ts'
import { problemId } from './problems.ts'

export const PROJECT_EULER = 'https://projecteuler.net/'
export const ANSWER_LIST = 'https://raw.githubusercontent.com/lucky-bai/projecteuler-solutions/master/Solutions.md'
const PROBLEMS_PER_ARCHIVE_PAGE = 50

export interface ScrapeOptions {
  /** Where the data goes (and what is there already is kept). */
  dir: string
  numbers: readonly number[]
  /** Pause between two requests. */
  delayMs: number
  /** `fetch`'s text, for tests; the default fetches over HTTP and fails on a status other than 200. */
  fetchText?: (url: string) => Promise<string>
  /** The same for binary files (the problems' images). */
  fetchBytes?: (url: string) => Promise<Uint8Array>
  /** Progress lines; default stderr. */
  log?: (line: string) => void
  baseUrl?: string
  answerListUrl?: string
}

interface SolutionEntry {
  title: string
  solved_by: number
  solution: string
}

export async function scrapeProblems(options: ScrapeOptions): Promise<void> {
  const { dir, numbers, delayMs } = options
  const baseUrl = options.baseUrl ?? PROJECT_EULER
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`))
  const polite = politeQueue(delayMs)
  const textOf = options.fetchText ?? fetchOverHttp
  const bytesFrom = options.fetchBytes ?? (options.fetchText ? bytesOf(options.fetchText) : fetchBytesOverHttp)
  const fetchText = (url: string) => polite(() => textOf(url))
  const fetchBytes = (url: string) => polite(() => bytesFrom(url))

  const resourcesFile = join(dir, 'resources.json')
  const resources = await readJson<Record<string, string[]>>(resourcesFile, {})
  const missing = numbers.filter((number) => !existsSync(join(dir, 'problems', `${problemId(number)}.txt`)))
  for (const [index, number] of missing.entries()) {
    const url = `${baseUrl}minimal=${number}`
    log(`PE-Bench: downloading problem ${problemId(number)} (${index + 1} of ${missing.length}) from ${url}`)
    const page = await parseProblemPage(await fetchText(url))
    for (const attachment of page.attachments) {
      const file = join(dir, 'resources', attachment.name)
      if (!existsSync(file)) {
        log(`PE-Bench: downloading attachment ${attachment.name} of problem ${problemId(number)}`)
        await writeFileAtomically(file, await fetchText(new URL(attachment.href, baseUrl).href))
      }
    }
    // As upstream's scraper: every image as problems/NNNN-<k>.<ext>, the extension from its URL; the first is sent to models that can see.
    for (const [imageIndex, src] of page.images.entries()) {
      const extension = (src.split('?')[0] ?? '').split('.').pop()?.toLowerCase() ?? 'png'
      const file = join(dir, 'problems', `${problemId(number)}-${imageIndex}.${extension}`)
      if (existsSync(file)) continue
      log(`PE-Bench: downloading image ${imageIndex} of problem ${problemId(number)}`)
      await writeFileAtomically(file, await fetchBytes(new URL(src, baseUrl).href))
    }
    if (page.attachments.length > 0) {
      resources[String(number)] = page.attachments.map((attachment) => attachment.name)
      await writeFileAtomically(resourcesFile, JSON.stringify(resources, null, 2))
    }
    await writeFileAtomically(join(dir, 'problems', `${problemId(number)}.txt`), `${page.text}\n`)
  }

  const solutionsFile = join(dir, 'solutions.json')
  const solutions = await readJson<Record<string, SolutionEntry>>(solutionsFile, {})
  const unknown = numbers.filter((number) => solutions[problemId(number)] === undefined)
  if (unknown.length === 0) return
  log(`PE-Bench: downloading the answer list from ${options.answerListUrl ?? ANSWER_LIST}`)
  const answers = parseAnswerList(await fetchText(options.answerListUrl ?? ANSWER_LIST))
  const pages = [...new Set(unknown.map((number) => Math.ceil(number / PROBLEMS_PER_ARCHIVE_PAGE)))]
  for (const [index, page] of pages.entries()) {
    log(`PE-Bench: downloading solved-by counts, archives page ${page} (${index + 1} of ${pages.length})`)
    for (const row of await parseArchivePage(await fetchText(`${baseUrl}archives;page=${page}`))) {
      const answer = answers.get(row.number)
      if (answer !== undefined)
        solutions[problemId(row.number)] = { title: row.title, solved_by: row.solvedBy, solution: answer }
    }
  }
  await writeFileAtomically(solutionsFile, JSON.stringify(solutions, null, 2))
}

/** Sequential requests, text or bytes, with `delayMs` between the end of one and the start of the next. */
function politeQueue(delayMs: number): <Body>(request: () => Promise<Body>) => Promise<Body> {
  let last: Promise<unknown> = Promise.resolve()
  let first = true
  return (request) => {
    const next = last.then(async () => {
      if (!first) await new Promise((resolve) => setTimeout(resolve, delayMs))
      first = false
      return request()
    })
    last = next.catch(() => undefined)
    return next
  }
}

async function fetchOverHttp(url: string): Promise<string> {
  return (await responseOf(url)).text()
}

/** A test's text fetcher serving binary files too: its text as UTF-8 bytes. */
function bytesOf(fetchText: (url: string) => Promise<string>): (url: string) => Promise<Uint8Array> {
  return async (url) => Buffer.from(await fetchText(url))
}

async function fetchBytesOverHttp(url: string): Promise<Uint8Array> {
  return new Uint8Array(await (await responseOf(url)).arrayBuffer())
}

async function responseOf(url: string): Promise<Response> {
  let response: Response
  try {
    response = await fetch(url, { headers: { 'user-agent': 'llm-testbench PE-Bench (one request at a time)' } })
  } catch (error) {
    throw new Error(
      `Cannot download ${url} (${error instanceof Error ? error.message : String(error)}). Without network, point TESTBENCH_DATA_DIR at a datasets directory holding euler/.`,
    )
  }
  if (response.status !== 200)
    throw new Error(
      `${url} answered HTTP ${response.status}; try again later, or point TESTBENCH_DATA_DIR at a datasets directory holding euler/.`,
    )
  return response
}

async function readJson<T>(file: string, fallback: T): Promise<T> {
  if (!existsSync(file)) return fallback
  return JSON.parse(await readFile(file, 'utf8')) as T
}
