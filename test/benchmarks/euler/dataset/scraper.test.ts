import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { loadProblems } from '../../../../suites/euler/dataset/problems.ts'
import { scrapeProblems } from '../../../../suites/euler/dataset/scraper.ts'

const BASE = 'https://pe.test/'
const ANSWERS = 'https://answers.test/Solutions.md'
const fixture = (name: string) =>
  readFileSync(new URL(`../../../../fixtures/euler/pages/${name}`, import.meta.url), 'utf8')
const SITE: Record<string, string> = {
  [`${BASE}minimal=1`]: fixture('minimal-1.html'),
  [`${BASE}minimal=2`]: fixture('minimal-2.html'),
  [`${BASE}resources/documents/0002_fruits.txt`]: fixture('resources/documents/0002_fruits.txt'),
  [`${BASE}resources/images/0002.png?1678992052`]: 'made-up image bytes',
  [`${BASE}archives;page=1`]: fixture('archives-page-1.html'),
  [ANSWERS]: fixture('answers.md'),
}

/** Serves the fixture pages and notes when each request started and ended. */
function fakeSite() {
  const requests: Array<{ url: string; start: number; end: number }> = []
  let inFlight = 0
  let mostInFlight = 0
  const fetchText = async (url: string) => {
    const request = { url, start: performance.now(), end: 0 }
    requests.push(request)
    inFlight++
    mostInFlight = Math.max(mostInFlight, inFlight)
    await new Promise((resolve) => setTimeout(resolve, 5))
    inFlight--
    request.end = performance.now()
    const body = SITE[url]
    if (body === undefined) throw new Error(`404 ${url}`)
    return body
  }
  return { fetchText, requests, mostInFlight: () => mostInFlight }
}

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pe-scrape-'))
  dirs.push(dir)
  return dir
}

describe('scrapeProblems', () => {
  test('writes problems, attachments and answers in the data layout the loader reads', async () => {
    const dir = tempDir()
    const site = fakeSite()
    const log: string[] = []
    await scrapeProblems({
      dir,
      numbers: [1, 2],
      delayMs: 0,
      fetchText: site.fetchText,
      log: (line) => log.push(line),
      baseUrl: BASE,
      answerListUrl: ANSWERS,
    })

    const [first, second] = await loadProblems(dir, [1, 2])
    expect(first).toMatchObject({
      id: '0001',
      title: 'Even Numbers Below a Thousand',
      answer: '166334',
      solvedBy: 662693,
      points: 2,
      attachments: [],
    })
    expect(first?.text).toMatch(/^If we add the natural numbers below \$10\$/)
    expect(second).toMatchObject({
      id: '0002',
      title: 'Fruits Beginning with A',
      answer: '2',
      points: 1,
      attachments: [{ name: '0002_fruits.txt', content: 'Apple\nBanana\nApricot\n' }],
      missingAttachments: [],
    })
    expect(second?.text).toContain('Using the attachment 0002_fruits.txt')
    expect(log.some((line) => line.includes('problem 0002 (2 of 2)'))).toBe(true)
  })

  test('is polite: one request at a time, with the pause between them', async () => {
    const site = fakeSite()
    await scrapeProblems({
      dir: tempDir(),
      numbers: [1, 2],
      delayMs: 40,
      fetchText: site.fetchText,
      log: () => {},
      baseUrl: BASE,
      answerListUrl: ANSWERS,
    })
    expect(site.mostInFlight()).toBe(1)
    expect(site.requests.map((request) => request.url)).toEqual([
      `${BASE}minimal=1`,
      `${BASE}minimal=2`,
      `${BASE}resources/documents/0002_fruits.txt`,
      `${BASE}resources/images/0002.png?1678992052`,
      ANSWERS,
      `${BASE}archives;page=1`,
    ])
    for (let i = 1; i < site.requests.length; i++) {
      const gap = (site.requests[i]?.start ?? 0) - (site.requests[i - 1]?.end ?? 0)
      expect(gap).toBeGreaterThanOrEqual(35)
    }
  })

  test('fetches nothing that is in the directory already', async () => {
    const dir = tempDir()
    const options = { dir, numbers: [1, 2], delayMs: 0, log: () => {}, baseUrl: BASE, answerListUrl: ANSWERS }
    await scrapeProblems({ ...options, fetchText: fakeSite().fetchText })
    const again = fakeSite()
    await scrapeProblems({ ...options, fetchText: again.fetchText })
    expect(again.requests).toEqual([])
  })

  test('a failed download stops with the error and leaves no half-written problem', async () => {
    const dir = tempDir()
    const failing = async (url: string) => {
      if (url.endsWith('0002_fruits.txt')) throw new Error('HTTP 503 for the attachment')
      return fakeSite().fetchText(url)
    }
    await expect(
      scrapeProblems({
        dir,
        numbers: [1, 2],
        delayMs: 0,
        fetchText: failing,
        log: () => {},
        baseUrl: BASE,
        answerListUrl: ANSWERS,
      }),
    ).rejects.toThrow('HTTP 503')
    expect(existsSync(join(dir, 'problems', '0001.txt'))).toBe(true)
    expect(existsSync(join(dir, 'problems', '0002.txt'))).toBe(false)
  })
})
