import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type BrowserContext, type Page } from 'playwright-core'
import { reportDir } from '../../harness/knobs.ts'
import { fileMissing, skipWithoutTool, TOOLS, type SkippableContext } from '../support/required-tool.ts'

/** Debian's Chromium, which the UI tests drive headless through playwright-core. */
export const CHROMIUM = '/usr/bin/chromium'

export function skipWithoutChromium(context: SkippableContext): void {
  skipWithoutTool(context, TOOLS.chromium, fileMissing(CHROMIUM))
}

/** A headless Chromium with a profile of its own; `close` also removes the profile. */
export async function openChromium(
  viewport = { width: 1400, height: 1000 },
): Promise<{ browser: BrowserContext; page: Page; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'))
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
  const page = browser.pages()[0] ?? (await browser.newPage())
  return {
    browser,
    page,
    close: async () => {
      await browser.close()
      rmSync(profile, { recursive: true, force: true })
    },
  }
}

/** Where screenshots go for a person (and CI's artifacts) to look at: <TESTBENCH_REPORT_DIR>/ui/<name>. */
export function screenshotPath(name: string): string {
  const directory = join(reportDir(), 'ui')
  mkdirSync(directory, { recursive: true })
  return join(directory, name)
}
