import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Locator, Page } from 'playwright-core'
import { afterEach, expect, test } from 'vitest'
import { openaiChatHandler } from '../support/fake-openai.ts'
import { itemsOfHtmlReport } from '../support/html-report-data.ts'
import { sendJson, startLoopbackServer } from '../support/loopback-server.ts'
import { REPO_ROOT, startVitestRun } from '../support/run-vitest.ts'
import { openChromium, screenshotPath, skipWithoutChromium } from './chromium.ts'

/**
 * In a real browser (Debian's Chromium, headless), the single-file html report and `vitest --ui`
 * of a FaRel run: an item shows the suite's scores (with the 95% interval and counts per outcome,
 * the numbers the score reporter printed), its prompt, reply and extracted answer as text that the
 * page's own selection copies and its own find (Ctrl-F) finds, line breaks and indentation kept;
 * each item carries its outcome as a tag, an error that is not the model's fault says so, and the
 * UI's `tag:` filter lists only the items of one outcome. Screenshots go to <report dir>/ui/.
 */

// A reply of several lines, with indentation that must survive.
const REPLY = [
  'Working through the family tree:',
  '    Christopher is Andrew’s parent,',
  '      so he is three generations up.',
  'So the answer is <ANSWER>3</ANSWER>.',
].join('\n')
const CLASSES = 9

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** FaRel, one quiz per class, asked of a model on 127.0.0.1 that gives REPLY, except that the first quiz asked gets a 400 (a provider_error). */
async function farelRun(dir: string): Promise<Record<string, string>> {
  let asked = 0
  const answer = openaiChatHandler(['fake'], () => REPLY)
  const server = await startLoopbackServer((request, response) => {
    if (request.path === '/v1/chat/completions' && asked++ === 0)
      return sendJson(response, 400, { error: { message: 'this quiz is refused by the fake server' } })
    return answer(request, response)
  })
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

/** The `<pre>` the UI shows a meta entry's text in, found by its name in the column beside it. */
function metaText(page: Page, name: string): Locator {
  return page.locator(`xpath=//pre[preceding-sibling::div[1][normalize-space()="${name}"]]`)
}

/** Opens an item that the model answered and checks what it shows, with the page's own selection and find. */
async function checkItemView(page: Page, screenshot: string, scoresLine: string): Promise<void> {
  await page.getByPlaceholder(/Search/).fill('tag:passed || wrong_answer')
  const answered = page.locator('[data-testid="explorer-item"][aria-label$="#1"]:visible')
  // The UI applies a search after a short pause: wait until it lists the answered items only.
  await expect.poll(() => answered.count(), { timeout: 15_000 }).toBe(CLASSES - 1)
  await answered.first().click()
  const reply = metaText(page, 'reply')
  await expect.poll(() => reply.count(), { timeout: 15_000 }).toBe(1)
  expect(await reply.innerText()).toBe(REPLY)
  expect(await metaText(page, 'prompt').innerText()).toMatch(
    /^Given the family relationships:\n[\s\S]*What is \w+'s relationship to \w+\?/,
  )
  expect(await metaText(page, 'extracted').innerText()).toBe('3')
  expect(await metaText(page, 'outcome').innerText()).toMatch(/^(passed|wrong_answer): Answered 3/)
  // The suite's scores, as the score reporter printed them after the run.
  const scores = await metaText(page, 'scores').innerText()
  expect(scores).toContain(scoresLine)
  expect(scores).toMatch(/outcomes: (passed \d, )?wrong_answer \d, provider_error 1/)
  expect(scores).toContain('farel: results table\n| Model | FaRel-3 | ')
  // The page's own selection copies the reply as it is; its own find (Ctrl-F) finds a line of it, indentation and all.
  const selected = await reply.evaluate((element) => {
    const selection = window.getSelection()
    selection?.selectAllChildren(element)
    return selection?.toString()
  })
  expect(selected).toBe(REPLY)
  const found = await reply.evaluate((element) => {
    window.getSelection()?.removeAllRanges()
    const hit = (window as unknown as { find(text: string): boolean }).find('    Christopher is Andrew’s parent,')
    const node = window.getSelection()?.anchorNode
    return hit && node !== null && node !== undefined && element.contains(node)
  })
  expect(found).toBe(true)
  await page.screenshot({ path: screenshotPath(screenshot), fullPage: true })
}

/** The tag filter shows only the item the provider refused, tagged as not the model's fault, and saying so. */
async function checkNotTheModelsFault(page: Page, screenshot: string): Promise<void> {
  await page.getByPlaceholder(/Search/).fill('tag:not_the_models_fault')
  const items = page.locator('[data-testid="explorer-item"][aria-label$="#1"]:visible')
  await expect.poll(() => items.count(), { timeout: 15_000 }).toBe(1)
  await items.first().click()
  await expect
    .poll(() => metaText(page, 'outcome').innerText(), { timeout: 15_000 })
    .toMatch(/^provider_error \(not the model’s fault\): /)
  const header = page.getByTestId('file-detail')
  await expect.poll(() => header.getByText('provider_error', { exact: true }).count()).toBeGreaterThan(0)
  await expect.poll(() => header.getByText('not_the_models_fault', { exact: true }).count()).toBeGreaterThan(0)
  await page.getByPlaceholder(/Search/).fill('tag:wrong_answer || passed')
  await expect.poll(() => items.count()).toBe(CLASSES - 1)
  await page.getByPlaceholder(/Search/).fill('tag:provider_error')
  await expect.poll(() => items.count()).toBe(1)
  await page.screenshot({ path: screenshotPath(screenshot), fullPage: true })
}

/** The line the score reporter printed for FaRel-3, with its interval, e.g. `FaRel-3 = 44.44 (solved 4/8), 95% interval 11.11–77.78`. */
function scoresLineOf(output: string): string {
  const line = /^ {2}FaRel-3 = .*$/m.exec(output)?.[0]
  expect(line, output).toMatch(/FaRel-3 = \d+\.\d\d \(solved \d\/8\), 95% interval \d+\.\d\d–\d+\.\d\d$/)
  return line?.trim() ?? ''
}

test('the html report (one self-contained file) shows the scores, an item’s texts as selectable text, and filters items by outcome', async (context) => {
  skipWithoutChromium(context)
  const dir = mkdtempSync(join(tmpdir(), 'html-report-'))
  const run = await startVitestRun(['--project', 'suites', 'suites/farel'], {
    ...(await farelRun(dir)),
    TESTBENCH_HTML_DIR: join(dir, 'html'),
  }).done
  const report = join(dir, 'html', 'index.html')
  expect(existsSync(report), run.output).toBe(true)
  const scoresLine = scoresLineOf(run.output)
  // The refused quiz ends skipped (grey, not a wrong answer's red ×), its outcome kept; the run fails for it.
  const refused = itemsOfHtmlReport(report).items.filter((item) => item.tags.includes('provider_error'))
  expect(refused.map((item) => [item.state, item.outcome?.split(':')[0]])).toEqual([
    ['skip', 'provider_error (not the model’s fault)'],
  ])
  expect(run.output).toContain('1 item(s) could not be judged (provider_error or infra_error')
  expect(run.code).toBe(1)
  const { browser, page, close } = await openChromium()
  cleanups.push(close)
  // Offline, as a CI artifact is opened: Vitest's page asks for a web font, and works without it.
  await browser.route('**/*', (route) =>
    route.request().url().startsWith('file:') || route.request().url().startsWith('data:')
      ? route.continue()
      : route.abort(),
  )
  await page.goto(pathToFileURL(report).href)
  await checkItemView(page, 'html-report-item.png', scoresLine)
  await checkNotTheModelsFault(page, 'html-report-not-the-models-fault.png')
}, 120_000)

test('npx vitest --ui shows the scores, an item’s texts as selectable text, and filters items by outcome', async (context) => {
  skipWithoutChromium(context)
  const dir = mkdtempSync(join(tmpdir(), 'vitest-ui-'))
  const port = await freePort()
  // Without a terminal, the UI needs --watch to stay up.
  const ui = spawn(
    process.execPath,
    [
      'node_modules/vitest/vitest.mjs',
      '--ui',
      '--watch',
      '--open=false',
      `--api.port=${port}`,
      '--api.strictPort',
      '--project',
      'suites',
      'suites/farel',
    ],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, ...(await farelRun(dir)), CI: '1', NO_COLOR: '1' },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  cleanups.push(() => {
    if (ui.pid !== undefined && ui.exitCode === null) process.kill(-ui.pid, 'SIGKILL')
  })
  let output = ''
  // The page is opened once the run has ended, as a person opening (or reloading) the UI after it would.
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`vitest --ui printed no URL and no scores within 90 s:\n${output}`)),
      90_000,
    )
    const read = (chunk: Buffer) => {
      output += chunk.toString()
      // Vitest 5's UI wants the token in the URL it prints.
      const found = /UI started at (http:\/\/\S+token=\S+)/.exec(output)?.[1]
      if (found && /^reports: /m.test(output)) {
        clearTimeout(timer)
        resolve(found)
      }
    }
    ui.stdout.on('data', read)
    ui.stderr.on('data', read)
  })
  const { page, close } = await openChromium()
  cleanups.push(close)
  await page.goto(url)
  await checkItemView(page, 'vitest-ui-item.png', scoresLineOf(output))
  await checkNotTheModelsFault(page, 'vitest-ui-not-the-models-fault.png')
}, 150_000)

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      )
    })
  })
}
