import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { openaiChatHandler } from '../support/fake-openai.ts'
import { startLoopbackServer, type LoopbackServer } from '../support/loopback-server.ts'
import { startVitestRun } from '../support/run-vitest.ts'

/**
 * A run that stops before its first item prints the reason and its exit code, and nothing of Vitest's
 * empty-run report ("No test files found", the filter, each project's globs) nor an "Unhandled Error" banner.
 */

let dir: string
let openai: LoopbackServer
/** An address where nothing listens: a server's, once closed. */
let nobodyListens: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stop-before-items-'))
  openai = await startLoopbackServer(openaiChatHandler(['some-other-model'], () => 'unused'))
  const closed = await startLoopbackServer(() => undefined)
  nobodyListens = closed.url
  await closed.close()
})
afterAll(async () => {
  await openai.close()
  await rm(dir, { recursive: true, force: true })
})

interface Stop {
  name: string
  suite: string
  env: () => Record<string, string | undefined>
  message: RegExp
}

const stops: Stop[] = [
  {
    name: 'Ollama not running',
    suite: 'suites/farel',
    env: () => ({ MODEL: 'qwen2.5', OLLAMA_HOST: nobodyListens }),
    message: /Ollama is not reachable at .*\n.*ollama serve/,
  },
  {
    name: 'an unknown model',
    suite: 'suites/farel',
    env: () => ({ MODEL: 'openai:no-such-model', OPENAI_BASE_URL: `${openai.url}/v1` }),
    message: /has no model "no-such-model"\. Models it lists: some-other-model/,
  },
  { name: 'MODEL not set', suite: 'suites/farel', env: () => ({ MODEL: undefined }), message: /MODEL is not set/ },
  {
    name: 'a dataset that cannot be had',
    suite: 'suites/swebench',
    env: () => ({ MODEL: 'reference', TESTBENCH_DATA_DIR: join(dir, 'no-datasets-here') }),
    message: /A dataset is not usable; nothing was asked or run:\n {2}swebench: .*is not in TESTBENCH_DATA_DIR/,
  },
  {
    name: 'a bad setting',
    suite: 'suites/farel',
    env: () => ({ MODEL: 'reference', SAMPLES: '0' }),
    message: /settings are not usable.*\n.*SAMPLES=0/,
  },
]

describe.concurrent('a run stopped before its items says why, and only that', () => {
  test.for(stops)('$name', { timeout: 120_000 }, async (stop) => {
    const { code, output } = await startVitestRun(['--project', 'suites', stop.suite], {
      TESTBENCH_CACHE_DIR: join(dir, 'cache'),
      TESTBENCH_REPORT_DIR: join(dir, 'reports'),
      ...stop.env(),
    }).done
    expect(code, output).toBe(1)
    expect(output).toMatch(stop.message)
    expect(output.trimEnd()).toMatch(/Stopped before any item; exit code 1\.$/)
    expect(output).not.toMatch(/No test files found|filter:|include:|exclude:|Unhandled Error|Startup Error/)
  })
})
