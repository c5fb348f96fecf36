import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium, type BrowserContext, type Page } from 'playwright-core'
import { afterEach, expect, test } from 'vitest'
import { reportDir } from '../../harness/knobs.ts'
import { openaiChatHandler } from '../support/fake-openai.ts'
import { startLoopbackServer } from '../support/loopback-server.ts'
import { REPO_ROOT, startVitestRun } from '../support/run-vitest.ts'
import { fileMissing, skipWithoutTool, TOOLS } from '../support/required-tool.ts'

/**
 * In a real browser (Debian's Chromium, headless): the html report and `vitest --ui` show an
 * item's prompt and reply readably, line breaks and indentation kept. Screenshots go to
 * <TESTBENCH_REPORT_DIR>/ui/ for a person (and CI's artifacts) to look at.
 */

const CHROMIUM = '/usr/bin/chromium'
const ITEM = 'great grandparent #1'
// A reply of several lines, with indentation that must survive.
const REPLY = ['Working through the family tree:', '    Christopher is Andrew’s parent,', '    so he is three generations up.', 'So the answer is <ANSWER>3</ANSWER>.'].join('\n')

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** FaRel, one quiz per class, asked of a model on 127.0.0.1 that always gives REPLY. */
async function farelRun(dir: string): Promise<Record<string, string>> {
  const server = await startLoopbackServer(openaiChatHandler(['fake'], () => REPLY))
  cleanups.push(() => server.close())
  return {
    MODEL: 'openai:fake',
    OPENAI_BASE_URL: `${server.url}/v1`,
    TESTBENCH_CACHE: 'off',
    TESTBENCH_FAREL_PER_CLASS: '1',
    TESTBENCH_GATE_CONFIG: 'off',
    TESTBENCH_REPORT_DIR: join(dir, 'reports'),
  }
}

async function openBrowser(): Promise<BrowserContext> {
  const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'chromium-profile-')), {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1400, height: 1000 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
  cleanups.push(() => context.close())
  return context
}

/** Opens the item and checks that each part is shown: the prompt and the reply as images of their text, the rest as text. */
async function checkItemShown(page: Page, screenshot: string): Promise<void> {
  await page.getByText(ITEM, { exact: true }).first().click()
  const note = (label: string) => page.getByRole('note').filter({ has: page.getByText(label, { exact: true }) })
  await expect.poll(() => note('prompt').count(), { timeout: 15_000 }).toBe(1)
  const promptImage = await imageText(note('prompt'))
  expect(promptImage).toContain('Given the family relationships:')
  expect(promptImage).toMatch(/What is \w+'s relationship to \w+\?/)
  const replyImage = await imageText(note('reply'))
  expect(replyImage).toContain('Working through the family tree:')
  expect(replyImage).toContain('    Christopher is Andrew’s parent,')
  expect(replyImage).toContain('So the answer is &lt;ANSWER&gt;3&lt;/ANSWER&gt;.')
  await expect.poll(() => note('extracted').innerText()).toMatch(/\n3$/)
  await expect.poll(() => note('outcome').innerText()).toMatch(/\n(passed|wrong_answer)$/)
  mkdirSync(join(reportDir(), 'ui'), { recursive: true })
  await page.screenshot({ path: join(reportDir(), 'ui', screenshot), fullPage: true })
}

/** The SVG text an annotation's image draws, once the browser has drawn it. */
async function imageText(note: ReturnType<Page['getByRole']>): Promise<string> {
  const image = note.locator('img')
  await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0)).toBe(true)
  const source = await image.getAttribute('src')
  return decodeURIComponent(source ?? '')
}

test('the html report (one self-contained file) shows an item’s prompt and reply', async (context) => {
  skipWithoutTool(context, TOOLS.chromium, fileMissing(CHROMIUM))
  const dir = mkdtempSync(join(tmpdir(), 'html-report-'))
  const run = await startVitestRun(['--project', 'suites', 'suites/farel'], { ...(await farelRun(dir)), TESTBENCH_HTML_DIR: join(dir, 'html') }).done
  const report = join(dir, 'html', 'index.html')
  expect(existsSync(report), run.output).toBe(true)
  const browser = await openBrowser()
  const page = browser.pages()[0] ?? (await browser.newPage())
  await page.goto(pathToFileURL(report).href)
  await checkItemShown(page, 'html-report-item.png')
}, 90_000)

test('npx vitest --ui shows an item’s prompt and reply', async (context) => {
  skipWithoutTool(context, TOOLS.chromium, fileMissing(CHROMIUM))
  const dir = mkdtempSync(join(tmpdir(), 'vitest-ui-'))
  const port = await freePort()
  // Without a terminal, the UI needs --watch to stay up.
  const ui = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', '--ui', '--watch', '--open=false', `--api.port=${port}`, '--api.strictPort', '--project', 'suites', 'suites/farel'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...(await farelRun(dir)), CI: '1', NO_COLOR: '1' },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  cleanups.push(() => {
    if (ui.pid !== undefined && ui.exitCode === null) process.kill(-ui.pid, 'SIGKILL')
  })
  let output = ''
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`vitest --ui printed no URL within 60 s:\n${output}`)), 60_000)
    const read = (chunk: Buffer) => {
      output += chunk.toString()
      // Vitest 5's UI wants the token in the URL it prints.
      const found = /UI started at (http:\/\/\S+token=\S+)/.exec(output)?.[1]
      if (found) {
        clearTimeout(timer)
        resolve(found)
      }
    }
    ui.stdout.on('data', read)
    ui.stderr.on('data', read)
  })
  const browser = await openBrowser()
  const page = browser.pages()[0] ?? (await browser.newPage())
  await page.goto(url)
  await checkItemShown(page, 'vitest-ui-item.png')
}, 90_000)

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}
