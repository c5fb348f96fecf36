import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { loadProblems } from '../../../../suites/euler/dataset/problems.ts'
import { toolPrompt, userMessage } from '../../../../suites/euler/prompt.ts'
import { LANGUAGES } from '../../../../suites/euler/languages.ts'
import { scrapeProblems } from '../../../../suites/euler/dataset/scraper.ts'
import { pngFromGif } from '../../../../suites/euler/dataset/png-from-gif.ts'

const BASE = 'https://pe.test/'
const ANSWERS = 'https://answers.test/Solutions.md'
const fixture = (path: string) => new URL(`../../../../fixtures/euler/${path}`, import.meta.url)
const PNG = readFileSync(fixture('images/made-up.png'))
const GIF = readFileSync(fixture('images/made-up.gif'))
/** A made-up problem page with two images, as projecteuler.net's `minimal=N` writes them. */
const PAGE =
  '<p>Count the squares in the grid below.</p>\n<div class="center"><img src="resources/images/0001_grid.gif?1678992052" class="dark_img" alt=""></div>\n<p>And in this one: <img src="resources/images/0001_more.png" alt=""></p>'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

test("the scraper saves a problem's images as NNNN-<k>.<ext>, and the first reaches the user message", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pe-images-'))
  dirs.push(dir)
  const pages: Record<string, string> = {
    [`${BASE}minimal=1`]: PAGE,
    [`${BASE}archives;page=1`]: readFileSync(fixture('pages/archives-page-1.html'), 'utf8'),
    [ANSWERS]: readFileSync(fixture('pages/answers.md'), 'utf8'),
  }
  const images: Record<string, Buffer> = {
    [`${BASE}resources/images/0001_grid.gif?1678992052`]: GIF,
    [`${BASE}resources/images/0001_more.png`]: PNG,
  }
  const fetched: string[] = []
  await scrapeProblems({
    dir,
    numbers: [1],
    delayMs: 0,
    baseUrl: BASE,
    answerListUrl: ANSWERS,
    log: () => undefined,
    fetchText: async (url) => pages[url] ?? Promise.reject(new Error(`404 ${url}`)),
    fetchBytes: async (url) => (fetched.push(url), images[url] ?? Promise.reject(new Error(`404 ${url}`))),
  })
  expect(fetched).toHaveLength(2)
  expect(readFileSync(join(dir, 'problems', '0001-0.gif'))).toEqual(GIF)
  expect(readFileSync(join(dir, 'problems', '0001-1.png'))).toEqual(PNG)

  const [problem] = await loadProblems(dir, [1])
  expect(problem?.text).toContain('(see image)')
  // As upstream sends it: a PNG of the GIF's first frame.
  expect(problem?.image).toEqual({ mediaType: 'image/png', base64: pngFromGif(GIF).toString('base64') })
  if (problem === undefined) throw new Error('no problem loaded')
  expect(userMessage(toolPrompt(problem, LANGUAGES.python), problem)).toMatchObject({
    role: 'user',
    images: [{ mediaType: 'image/png' }],
  })

  // Upstream's order: a PNG first image is taken before a GIF one.
  copyFileSync(fixture('images/made-up.png'), join(dir, 'problems', '0001-0.png'))
  const [withPng] = await loadProblems(dir, [1])
  expect(withPng?.image).toEqual({ mediaType: 'image/png', base64: PNG.toString('base64') })
  rmSync(join(dir, 'problems', '0001-0.png'))

  writeFileSync(join(dir, 'problems', '0001-0.gif'), 'GIF89a, cut short')
  await expect(loadProblems(dir, [1])).rejects.toThrow(
    `Cannot read the GIF image ${join(dir, 'problems', '0001-0.gif')}`,
  )
  expect(existsSync(join(dir, 'problems', '0001-2.png'))).toBe(false)
})

test('a problem without an image sends text only', async () => {
  const [problem] = await loadProblems(fileURLToPathOf('datasets/euler'), [1])
  if (problem === undefined) throw new Error('no problem loaded')
  expect(problem.image).toBeUndefined()
  expect(userMessage('prompt', problem)).toEqual({ role: 'user', content: 'prompt' })
})

function fileURLToPathOf(path: string): string {
  return fixture(path).pathname
}
